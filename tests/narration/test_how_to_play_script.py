"""The how-to-play script (issue 20 item 7): shipped in four languages, validated like the
others, started at any line (a skip), and a broken user copy falls back with its line."""

from __future__ import annotations

from pathlib import Path

from user_scripts import user_scripts

from moderator.narration.scripts.library import FROM_LINE, Bed, Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings

LANGUAGES = ("en", "fr", "de", "es")


def lines(library: ScriptLibrary, lang: str, context: dict[str, object] | None = None) -> list[str]:
    actions = library.actions("how_to_play", context or {}, VoiceSettings(lang=lang)) or []
    return [action.text for action in actions if isinstance(action, Line)]


def test_every_language_ships_its_own_how_to_play_line_for_line() -> None:
    """A translation says what the English says, one line for one line (a skip is a line)."""
    library = ScriptLibrary.load(None)
    assert library.warnings == []
    english = lines(library, "en")
    assert 8 <= len(english) <= 20
    for lang in LANGUAGES:
        script, language = library.scripts[(lang, "how_to_play")]
        assert script.source.parent.name == lang and language.code == lang
        assert len(lines(library, lang)) == len(english), lang
        assert all("{" not in line for line in lines(library, lang)), lang


def test_a_run_from_a_line_leaves_out_the_lines_and_waits_before_it() -> None:
    library = ScriptLibrary.load(None)
    every = lines(library, "en")
    assert lines(library, "en", {FROM_LINE: 3}) == every[3:]
    actions = library.actions("how_to_play", {FROM_LINE: 3}, VoiceSettings()) or []
    assert isinstance(actions[0], Line) and actions[0].text == every[3]
    assert lines(library, "en", {FROM_LINE: len(every)}) == []
    assert lines(library, "en", {FROM_LINE: -2}) == every
    assert lines(library, "en", {FROM_LINE: True}) == every  # not a number of lines


def test_a_run_from_a_line_keeps_the_ambience_marks_before_it(tmp_path: Path) -> None:
    """A span begun before the line still ends where it did (the bed's marks stay paired)."""
    user = user_scripts(
        tmp_path,
        {
            "en/reveal.toml": "\n".join(
                (
                    '[[step]]\nsay = "One."',
                    '[[step]]\nambience = "start"',
                    '[[step]]\nsay = "Two."',
                    '[[step]]\npause = "{seconds}"',
                    '[[step]]\nsay = "Three."',
                    '[[step]]\nambience = "stop"',
                    '[[step]]\nsay = "Four."',
                )
            )
        },
    )
    library = ScriptLibrary.load(user)
    actions = library.actions("reveal", {FROM_LINE: 2}, VoiceSettings(ambience=True)) or []
    assert actions == [Bed(True), Line("Three.", "en-us"), Bed(False), Line("Four.", "en-us")]
    assert not any(isinstance(action, Wait) for action in actions)


def test_a_broken_user_copy_is_told_with_its_line_and_the_shipped_one_is_used(
    tmp_path: Path,
) -> None:
    user = user_scripts(
        tmp_path,
        {"fr/how_to_play.toml": '[[step]]\nsay = "Bien."\n\n[[step]]\nsay = "{joueurs}"\n'},
    )
    library = ScriptLibrary.load(user)
    where = f"{user / 'fr' / 'how_to_play.toml'}:5"
    assert any(where in warning and "{joueurs}" in warning for warning in library.warnings)
    assert lines(library, "fr") == lines(ScriptLibrary.load(None), "fr")
