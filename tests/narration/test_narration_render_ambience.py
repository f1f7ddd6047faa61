"""The rendered file with the ambience bed, measured on real espeak-ng audio.

What the table would notice: while eyes are closed the room never falls
silent (no stretch over 1 s quieter than -50 dBFS); the eyes-open window is
exactly the configured length with the bed on and off; `--ambience off` is
the file the app wrote before ambience existed, sample for sample.
"""

from __future__ import annotations

import array
from dataclasses import replace
from pathlib import Path

import pytest
from audio_measures import longest_near_silence, longest_silence

from moderator.cli import main
from moderator.narration.audio.loudness import level
from moderator.narration.audio.wavfile import Pcm, read_pcm, silence
from moderator.narration.render import Rendered, render_script
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

#: Samples at or below this count as silence when measuring (as in the speech tests).
MEASURE_THRESHOLD = 200
CONTEXT = {"players": 7, "meeting": 1}


def _render(
    speaker: Pyttsx3Synthesizer, tmp_path: Path, script: str, settings: VoiceSettings
) -> tuple[Rendered, Pcm]:
    out = tmp_path / f"{script}-{settings.ambience}-{settings.reveal_seconds}.wav"
    rendered = render_script(ScriptLibrary.load(None), speaker, script, CONTEXT, settings, out)
    return rendered, read_pcm(out)


def _todays_render(speaker: Pyttsx3Synthesizer, script: str, settings: VoiceSettings) -> Pcm:
    """The render as written before ambience: the lead-in, each clip at the one loudness,
    then its pauses as silence."""
    library = ScriptLibrary.load(None)
    actions = library.actions(script, CONTEXT, replace(settings, ambience=False))
    samples: array.array[int] = silence(22050, settings.lead_in)
    for action in actions or []:
        if isinstance(action, Line):
            clip = speaker.synthesize(action.text, action.voice, settings.rate, settings.volume)
            path = clip.result(timeout=30).path
            assert path is not None
            samples.extend(level(read_pcm(path).samples, 22050))
        elif isinstance(action, Wait):
            samples.extend(silence(22050, action.seconds))
    return Pcm(22050, samples)


@pytest.mark.speech
def test_eyes_closed_reveal_is_never_near_silent_for_a_second(
    speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    rendered, pcm = _render(speaker, tmp_path, "reveal", VoiceSettings())
    (span,) = rendered.spans
    first_line, *_, last_line = rendered.offsets
    # The bed covers the whole eyes-closed moment, first line to last.
    assert (span.start, span.end) == (first_line[0], last_line[1])
    closed = pcm.samples[first_line[1] : last_line[0]]
    assert len(closed) > 9 * pcm.rate  # 3 + 5 + 2 s of pauses plus two lines
    assert longest_near_silence(closed, pcm.rate) < 1.0
    _, gap = longest_silence(Pcm(pcm.rate, closed), MEASURE_THRESHOLD)
    assert gap < 1.0
    # Without the bed the same stretch holds the 5 s window of silence.
    _, off = _render(speaker, tmp_path, "reveal", VoiceSettings(ambience=False))
    assert longest_near_silence(off.samples[first_line[1] : last_line[0]], off.rate) >= 4.9


@pytest.mark.speech
@pytest.mark.parametrize("script", ["reveal", "meeting", "finale"])
def test_ambience_off_is_todays_file_sample_for_sample(
    speaker: Pyttsx3Synthesizer, tmp_path: Path, script: str
) -> None:
    settings = VoiceSettings(ambience=False)
    rendered, pcm = _render(speaker, tmp_path, script, settings)
    assert rendered.spans == ()
    assert pcm.samples == _todays_render(speaker, script, settings).samples


@pytest.mark.speech
@pytest.mark.parametrize("window", [5.0, 8.0])
@pytest.mark.parametrize("ambience", [True, False])
def test_the_eyes_open_window_is_exact_with_the_bed_on_and_off(
    speaker: Pyttsx3Synthesizer, tmp_path: Path, window: float, ambience: bool
) -> None:
    settings = VoiceSettings(reveal_seconds=window, ambience=ambience)
    rendered, pcm = _render(speaker, tmp_path, "reveal", settings)
    _, opened, closed, _ = rendered.offsets
    # From the end of "open your eyes" to the start of "close your eyes", in samples.
    assert closed[0] - opened[1] == round(window * pcm.rate)
    speech_only = _todays_render(speaker, "reveal", replace(settings, ambience=False))
    for start, end in rendered.offsets:  # the bed moved no line
        line = speech_only.samples[start:end]
        assert max(map(abs, line)) > 3000
    if not ambience:
        _, measured = longest_silence(pcm, MEASURE_THRESHOLD)
        # Measured from the samples: the clips end on quiet sound (under 200) for ~1 ms.
        assert measured == pytest.approx(window, abs=0.005)


@pytest.mark.speech
def test_the_meeting_bed_covers_the_silent_passing_for_the_configured_time(
    speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    on, pcm = _render(speaker, tmp_path, "meeting", VoiceSettings(passing_seconds=12.0))
    off, _ = _render(
        speaker, tmp_path, "meeting", VoiceSettings(ambience=False, passing_seconds=12.0)
    )
    # The passing is waited with the bed or without it: the same file length, the same
    # lines at the same offsets; it is the setting's length and ends with the cue.
    assert on.duration == off.duration and on.offsets == off.offsets
    *_, last_instruction, cue = on.offsets
    assert cue[0] - last_instruction[1] == round(12.0 * pcm.rate)
    (span,) = on.spans
    assert span.start == on.offsets[1][1]  # from "Then, silence"
    assert span.end == len(pcm.samples)
    passing = pcm.samples[last_instruction[1] : cue[0]]
    assert longest_near_silence(passing, pcm.rate) == 0.0  # the bed never falls silent


@pytest.mark.speech
def test_narrate_ambience_flag_writes_both_files(
    speech: None, speech_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINDFLAYER_CACHE_DIR", str(speech_cache))
    on, off = tmp_path / "on.wav", tmp_path / "off.wav"
    assert main(["narrate", "reveal", "--wav", str(on)]) == 0
    assert main(["narrate", "reveal", "--ambience", "off", "--wav", str(off)]) == 0
    loud_on, loud_off = read_pcm(on), read_pcm(off)
    assert len(loud_on.samples) == len(loud_off.samples)
    assert longest_near_silence(loud_on.samples, loud_on.rate) < 1.0
    assert longest_near_silence(loud_off.samples, loud_off.rate) >= 4.9
