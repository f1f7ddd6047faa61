"""A voice script's refusals and the voice's own warnings in the table's language (issue 18).

A French table that edits its voice scripts, or whose laptop has no speech
engine, reads why in French: the library's warnings, a script's problems at
their line, the speech being off, and `mindflayer narrate`'s refusals. The
script's own words (say, pause, ambience, when) stay as the file spells them.
English is what it always was (tests/narration/test_narration_validation.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator import i18n
from moderator.cli import main
from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.speech import pyttsx3_synth
from tests.tui.english_words import english_on

BROKEN_REVEAL = '[[step]]\nsay = "Tout le monde, fermez les yeux."\n\n[[step]]\npause = -1\n'


def user_folder(tmp_path: Path, lang: str, scripts: dict[str, str]) -> Path:
    """A user's voice-scripts folder holding `scripts` for `lang` (its language.toml too)."""
    folder = tmp_path / "voice_scripts" / lang
    folder.mkdir(parents=True)
    for name, text in scripts.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    return folder.parent


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", "Script de voix refusé (celui de secours est utilisé) : "),
        ("de", "Sprechtext abgelehnt (der Ersatz wird verwendet): "),
        ("es", "Guion rechazado (se usa el de respaldo): "),
    ],
)
def test_a_broken_script_is_refused_at_its_line_in_the_tables_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    i18n.use_language(lang)
    folder = user_folder(tmp_path, "fr", {"reveal": BROKEN_REVEAL})
    warnings = ScriptLibrary.load(folder).warnings
    refused = [warning for warning in warnings if warning.startswith(said)]
    assert len(refused) == 1, warnings
    where = f"{folder / 'fr' / 'reveal.toml'}:5: "
    assert where in refused[0], refused
    reason = refused[0].split(where, 1)[1]
    assert reason.startswith("pause "), reason  # the file's own word, as written
    assert not english_on(reason.removeprefix("pause "), lang), reason


def test_the_english_sentence_is_unchanged(tmp_path: Path) -> None:
    folder = user_folder(tmp_path, "fr", {"reveal": BROKEN_REVEAL})
    warnings = ScriptLibrary.load(folder).warnings
    assert (
        "Voice script refused (falling back): "
        f"{folder / 'fr' / 'reveal.toml'}:5: pause must be more than 0 seconds, not -1"
    ) in warnings


def test_a_language_folder_without_a_script_says_english_stands_in_in_german(
    tmp_path: Path,
) -> None:
    i18n.use_language("de")
    folder = tmp_path / "voice_scripts" / "xx"
    folder.mkdir(parents=True)
    (folder / "language.toml").write_text('name = "Xish"\nvoice = "en"\n', encoding="utf-8")
    warnings = ScriptLibrary.load(folder.parent).warnings
    told = [warning for warning in warnings if warning.startswith("Xish (xx)")]
    assert len(told) == 1, warnings
    assert "auf Englisch gesprochen, mit der englischen Stimme" in told[0], told
    assert " und " in told[0] and " and " not in told[0], told


def test_speech_off_is_said_in_the_tables_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No speech engine on this laptop (the fault injected where pyttsx3 starts)."""

    def no_engine(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("eSpeak introuvable")

    monkeypatch.setattr(pyttsx3_synth, "Pyttsx3Synthesizer", no_engine)
    i18n.use_language("fr")
    narrator = make_narrator(VoiceSettings(lang="fr"), None, tmp_path)
    assert (
        "La voix est coupée (eSpeak introuvable) : seuls les sous-titres s'affichent."
        in narrator.warnings
    )


def test_narrate_refuses_a_missing_scripts_folder_in_spanish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "{x} [b]"
    assert main(["--lang", "es", "--voice-scripts", str(missing), "narrate", "turn"]) == 2
    assert capsys.readouterr().err == (
        f"La carpeta de guiones {missing} no existe (--voice-scripts).\n"
    )
