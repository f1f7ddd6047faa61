"""The English narration is understood: real espeak-ng audio, scored by pocketsphinx.

A recognizer is a harsh stand-in for a listener with eyes closed; the targets
are the issue's (whole-render word error rate <= 0.5 for the reveal and the
finale, every reveal line picked out of all English lines by a grammar decode).
`make bench` prints the same figures for every script.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from speech_scoring import Recognizer, resample, score_lines, score_script, words_of

from moderator.narration import VoiceSettings
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

pytestmark = [pytest.mark.speech, pytest.mark.slow]
pytest.importorskip("pocketsphinx", reason="the test extra brings pocketsphinx")


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


@pytest.fixture
def speaker(speech: None, tmp_path: Path) -> Iterator[Pyttsx3Synthesizer]:
    """A fresh engine and cache: espeak's audio for a line varies slightly (tens of
    ms) with what the same engine said before, and so does the score (about 0.1);
    a fresh engine saying the script in order is the table's first game."""
    settings = VoiceSettings()
    speaker = Pyttsx3Synthesizer(
        tmp_path / "cache", warm_up=("en-us", settings.rate, settings.volume)
    )
    yield speaker
    speaker.close()


@pytest.mark.parametrize("script", ["reveal", "finale"])
def test_reveal_and_finale_are_understood_as_a_whole(
    script: str, speaker: Pyttsx3Synthesizer, recognizer: Recognizer, tmp_path: Path
) -> None:
    library = ScriptLibrary.load(None)
    # The speech alone: the voice and phrasing are under test here. The bed under
    # the reveal costs the recognizer (reveal WER ~0.35 -> ~0.54 measured); its
    # figures are in bench/bench_engines.py, with the bed on and off.
    settings = VoiceSettings(ambience=False)
    score = score_script(library, speaker, recognizer, script, settings, tmp_path)
    assert score.wer <= 0.5, f"{script}: WER {score.wer:.2f}, heard {score.heard!r}"


def test_every_reveal_line_is_recognized_among_all_english_lines(
    speaker: Pyttsx3Synthesizer, recognizer: Recognizer
) -> None:
    library = ScriptLibrary.load(None)
    lines = score_lines(library, speaker, recognizer, SCRIPT_NAMES, VoiceSettings())
    reveal = [line for line in lines if line.script == "reveal"]
    assert len(reveal) == 4
    missed = [(line.text, line.heard) for line in reveal if not line.recognized]
    assert missed == []


def test_the_scorer_can_fail(speaker: Pyttsx3Synthesizer, recognizer: Recognizer) -> None:
    """A line spoken with the wrong voice (French) is not taken for the English one."""
    library = ScriptLibrary.load(None)
    recognizer.use_grammar(["Everyone, close your eyes.", "Possessed players, close your eyes."])
    clip = speaker.synthesize("Possessed players, close your eyes.", "en-us", 175, 1.0).result(30)
    assert clip.path is not None
    heard = recognizer.pick(resample(read_pcm(clip.path)))
    assert heard == words_of("Possessed players, close your eyes.")
    french = speaker.synthesize("Joueurs possédés, fermez les yeux.", "fr", 175, 1.0).result(30)
    assert french.path is not None
    assert recognizer.transcribe(resample(read_pcm(french.path))) != words_of(
        "Possessed players, close your eyes."
    )
    assert library.languages["en"].voice == "en-us"
