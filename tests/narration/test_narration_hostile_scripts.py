"""Voice-script files that used to crash or load without a word (issue 15, items 7-9).

Each is refused at load with its file (and line where known); the shipped script
is used instead, and the reveal keeps exactly one eyes-open window within the
settings' range, the same range `narrate --seconds` accepts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from script_problems import problems
from user_scripts import user_scripts

from moderator.cli import main
from moderator.narration.scripts.library import ScriptLibrary, Wait, shipped_scripts_dir
from moderator.narration.scripts.steps import ScriptError
from moderator.narration.scripts.validation import load_script, parse_script
from moderator.narration.settings import MAX_REVEAL_SECONDS, MIN_REVEAL_SECONDS, VoiceSettings

SHIPPED = shipped_scripts_dir()
CLOSE = '[[step]]\nsay = "Everyone, close your eyes."\n\n'
WINDOW = '[[step]]\npause = "{seconds}"\n\n'


# --- item 7: parse failures are problems, never exceptions --------------------------


def test_a_script_nested_too_deeply_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "reveal.toml"
    path.write_text("x = " + "[" * 100_000, encoding="utf-8")
    with pytest.raises(ScriptError) as refused:
        load_script("reveal", path)
    assert str(refused.value) == f"{path}:1: the file has brackets nested too deeply to read"


def test_the_library_falls_back_to_the_shipped_reveal(tmp_path: Path) -> None:
    user = user_scripts(tmp_path, {"en/reveal.toml": "x = " + "[" * 100_000})
    library = ScriptLibrary.load(user, SHIPPED)
    assert [w for w in library.warnings if "reveal.toml" in w] == [
        f"Voice script refused (falling back): {user / 'en' / 'reveal.toml'}:1: "
        "the file has brackets nested too deeply to read"
    ]
    shipped = ScriptLibrary.load(None, SHIPPED)
    assert library.actions("reveal", {}, VoiceSettings()) == shipped.actions(
        "reveal", {}, VoiceSettings()
    )


def test_a_language_file_nested_too_deeply_is_a_warning(tmp_path: Path) -> None:
    user = user_scripts(tmp_path, {"nl/language.toml": "name = " + "[" * 100_000})
    library = ScriptLibrary.load(user, SHIPPED)
    assert f"{user / 'nl' / 'language.toml'}: the file has brackets nested too deeply to read" in (
        library.warnings
    )
    assert "nl" not in library.languages


def test_narrate_with_a_hostile_script_prints_the_sentence_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = user_scripts(tmp_path, {"en/reveal.toml": "x = " + "[" * 100_000})
    # An unknown --lang stops before any speech: the library has been loaded by then.
    assert main(["--voice-scripts", str(user), "narrate", "reveal", "--lang", "zz"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"{user / 'en' / 'reveal.toml'}:1: the file has brackets nested too deeply" in err


def test_a_folder_that_cannot_be_listed_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root reads any folder, so the refusal of a chmod 000 folder is injected."""
    user = user_scripts(tmp_path, {"nl/language.toml": 'name = "Nederlands"\nvoice = "nl"\n'})
    locked = user / "nl"
    listing = Path.iterdir

    def refuse(folder: Path) -> Iterator[Path]:
        if folder == locked:
            raise PermissionError(13, "Permission denied", str(folder))
        return listing(folder)

    monkeypatch.setattr(Path, "iterdir", refuse)
    library = ScriptLibrary.load(user, SHIPPED)
    assert f"{locked}: the folder could not be read (Permission denied); ignored" in (
        library.warnings
    )
    assert library.get("nl", "reveal") is not None, "English stands in"


# --- item 8: a language's name is a name -------------------------------------------------


def test_a_language_name_with_control_characters_is_refused_at_its_line(tmp_path: Path) -> None:
    user = user_scripts(
        tmp_path, {"nl/language.toml": 'voice = "nl"\nname = "Neder\\u001b[2Jlands"\n'}
    )
    library = ScriptLibrary.load(user, SHIPPED)
    (warning,) = [w for w in library.warnings if "language.toml" in w]
    assert warning.startswith(f"{user / 'nl' / 'language.toml'}:2: the language's name is refused")
    assert "\x1b" not in warning
    assert "nl" not in library.languages


def test_a_language_name_with_markup_is_kept_as_written(tmp_path: Path) -> None:
    """Brackets are allowed in a name; the TUI shows it literally (tests/tui)."""
    user = user_scripts(
        tmp_path, {"nl/language.toml": 'name = "[@click=app.quit]Quit"\nvoice = "nl"\n'}
    )
    assert ScriptLibrary.load(user, SHIPPED).languages["nl"].name == "[@click=app.quit]Quit"


@pytest.mark.parametrize(("escape", "shown"), [("\\u001b[2J", "U+001B"), ("\\u202e", "U+202E")])
def test_a_line_with_a_control_character_is_refused_at_its_line(escape: str, shown: str) -> None:
    """A caption is drawn on the terminal: an ESC from a TOML escape would reach it."""
    text = CLOSE.replace("close your eyes.", f"close{escape} your eyes.") + WINDOW
    assert problems(text) == [f"reveal.toml:2: say holds a control character ({shown}); remove it"]


def test_line_breaks_in_a_line_are_only_spacing() -> None:
    text = '[[step]]\nsay = """Everyone,\n\tclose your eyes."""\n\n' + WINDOW
    assert len(parse_script("reveal", text, Path("reveal.toml")).steps) == 2


def test_a_conjunction_with_a_control_character_is_refused() -> None:
    assert problems('and = "et\\u0007"\n' + CLOSE + WINDOW) == [
        "reveal.toml:1: 'and' must be a word, e.g. and = \"et\""
    ]


# --- item 9: exactly one eyes-open window, within the settings' range --------------------


def test_a_reveal_without_its_window_is_refused() -> None:
    assert problems(CLOSE + '[[step]]\nsay = "Everyone, open your eyes."\n') == [
        'reveal.toml:1: no eyes-open window: add one step pause = "{seconds}" '
        "(the reveal time of the settings, 1 to 60 seconds)"
    ]


def test_a_reveal_whose_window_is_a_fixed_pause_is_refused() -> None:
    (message,) = problems(CLOSE + "[[step]]\npause = 5\n")
    assert "no eyes-open window" in message


def test_a_second_window_is_refused_at_its_line() -> None:
    assert problems(CLOSE + WINDOW + WINDOW) == [
        'reveal.toml:8: a second eyes-open window (pause = "{seconds}"): the script needs one'
    ]


def test_a_window_that_depends_on_a_condition_is_refused_at_its_line() -> None:
    text = CLOSE + '[[step]]\nwhen = "ambience"\npause = "{seconds}"\n'
    assert problems(text) == [
        'reveal.toml:6: the eyes-open window (pause = "{seconds}") cannot depend on a when'
    ]


def test_sixty_pauses_of_sixty_seconds_are_refused_where_they_pass_the_limit() -> None:
    text = CLOSE + WINDOW + "[[step]]\npause = 60\n\n" * 60
    (message,) = problems(text)
    assert message.startswith("reveal.toml:11: the pauses add up to more than 60 seconds")


def test_a_script_without_a_window_needs_none() -> None:
    script = parse_script("turn", '[[step]]\nsay = "{player}, your turn."\n', Path("turn.toml"))
    assert len(script.steps) == 1


def test_every_shipped_script_passes_the_whole_script_checks() -> None:
    assert ScriptLibrary.load(None, SHIPPED).warnings == []


def test_the_window_is_the_settings_reveal_time() -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    actions = library.actions("reveal", {}, VoiceSettings(reveal_seconds=MAX_REVEAL_SECONDS))
    assert actions is not None
    assert [a for a in actions if isinstance(a, Wait) and a.seconds == MAX_REVEAL_SECONDS] == [
        Wait(MAX_REVEAL_SECONDS)
    ]


@pytest.mark.parametrize("seconds", ["0.01", "0", "0.99", "60.5", "nan", "inf", "-5"])
def test_narrate_refuses_a_window_outside_the_settings_range(
    seconds: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o.wav"
    code = main(["narrate", "reveal", "--players", "6", "--seconds", seconds, "--wav", str(out)])
    assert code == 2
    assert capsys.readouterr().err.strip() == (
        f"--seconds must be from {MIN_REVEAL_SECONDS:g} to {MAX_REVEAL_SECONDS:g} "
        "(the reveal window of the settings)."
    )
    assert not out.exists()
