"""The Meeting's silent passing, and notices that speak of the language they are about.

Issue 17 item 5: with ambience off the Meeting had no silent-passing time at all,
and with it on the passing ended without a word. Now the passing is waited
either way and ends with a spoken cue in every shipped language; the neural
English voice's notice reaches a table only when English is spoken.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from event_recorders import Recorder

from moderator.cli import main
from moderator.narration.events import Notice
from moderator.narration.narrator import Narrator
from moderator.narration.scripts.library import Bed, Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech import neural_voice
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.neural_voice import NOT_INSTALLED, NeuralVoice
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import SpeechFault
from moderator.narration.speech.synthesizer import Synthesizer

SHIPPED = ("en", "fr", "de", "es")
#: Each language's own words for "pick up your cards" (the cue that ends the passing).
CUES = {
    "en": "Pick up your cards.",
    "fr": "Prenez vos cartes.",
    "de": "Nehmt eure Karten auf.",
    "es": "Recoged vuestras cartas.",
}


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("meeting", [1, 3])
def test_the_passing_is_the_same_with_ambience_on_or_off_and_ends_with_the_cue(
    lang: str, meeting: int
) -> None:
    library = ScriptLibrary.load(None)
    context = {"meeting": meeting}
    on = library.actions("meeting", context, VoiceSettings(lang=lang, passing_seconds=17.0))
    off = library.actions(
        "meeting", context, VoiceSettings(lang=lang, passing_seconds=17.0, ambience=False)
    )
    assert on is not None and off is not None
    # Ambience changes only the bed's marks: every line and every wait is the same.
    assert [a for a in on if not isinstance(a, Bed)] == off
    assert [a for a in on if isinstance(a, Bed)] == [Bed(True), Bed(False)]
    # The passing (the setting's length) comes after the last instruction, then the cue.
    *_, passing, cue = off
    assert passing == Wait(17.0)
    assert isinstance(cue, Line) and cue.text == CUES[lang]
    # With ambience on the cue is still under the bed, which stops after it.
    assert on[-3:] == [Wait(17.0), cue, Bed(False)]


def _no_neural_voice(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> NeuralVoice:
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True)

    monkeypatch.setattr(neural_voice, "find_neural_voice", missing)


@pytest.mark.speech
def test_a_french_render_with_piper_chosen_says_nothing_about_english(
    speech: None,
    speech_cache: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MINDFLAYER_CACHE_DIR", str(speech_cache))
    _no_neural_voice(monkeypatch)
    out = tmp_path / "fr.wav"
    assert (
        main(["narrate", "knockout", "--lang", "fr", "--engine", "piper", "--wav", str(out)]) == 0
    )
    assert "English" not in capsys.readouterr().err
    # The same choice in English still tells the table, once.
    out = tmp_path / "en.wav"
    assert (
        main(["narrate", "knockout", "--lang", "en", "--engine", "piper", "--wav", str(out)]) == 0
    )
    err = capsys.readouterr().err
    assert err.count("English is spoken by the system voice instead") == 1


@pytest.mark.speech
def test_a_french_table_with_piper_chosen_neither_starts_it_nor_hears_of_it(
    speech: None, speech_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Path] = []

    def missing(cache: Path) -> Synthesizer:
        made.append(cache)
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True)

    system = Pyttsx3Synthesizer(speech_cache, warm=False)
    speaker = ChoosingSpeaker(system, speech_cache, SilentPlayer(), neural_factory=missing)
    settings = VoiceSettings(lang="fr", english_engine="piper")
    narrator = Narrator(settings, ScriptLibrary.load(None), speaker, time_scale=0.01)
    recorder = Recorder()
    narrator.play("knockout", {"player": "Eleven"}, recorder)
    assert recorder.wait(60)
    assert made == []
    assert recorder.of(Notice) == [] and narrator.warnings == []
    narrator.close()


class SilentPlayer:
    """Starts at once and plays nothing (the notices are what is under test)."""

    def available(self) -> SpeechFault | None:
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        on_start()

    def stop(self) -> None:
        pass
