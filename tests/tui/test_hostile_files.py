"""Files that must never stop the app, and text from files shown as data (issue 15, 7-8).

Each hostile file is written into the test's own config or voice-scripts folder and
the real app is started on it with Pilot: it starts, says what is wrong in one
sentence naming the file, uses the defaults (or the shipped script) and keeps
everything else the table had. Text from a file reaches the screen as literal text,
with no control character left in it.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import FOUR, key, new_game, until
from no_message_left import raised, settled, toasts
from rich.text import Text
from textual.widgets import Input, OptionList, Select, Static

from moderator.narration import VoiceSettings, make_narrator
from moderator.table.config import SETTINGS_FILE, TableSettings, load_settings
from moderator.table.voice import DeferredNarrator
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.keymap import KEYMAP_FILE
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.text_from_files import literal, visible
from tests.tui.app_driver import app_on, state_of

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
DEEP = "[" * 100_000


def has_control(text: str) -> bool:
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def messages(app: MindFlayerApp, part: str) -> list[str]:
    return [message for message in toasts(app) if part in message]


# --- item 7: the keymap and the settings ------------------------------------------------


async def test_a_keymap_nested_too_deeply_gives_the_default_keys_and_a_sentence(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    keymap = folders["config"] / KEYMAP_FILE
    keymap.write_text(f"next-turn = {DEEP}", encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        assert messages(app, KEYMAP_FILE) == [
            f"The keymap file {keymap} was not used: it has brackets nested too deeply "
            "to read. Using the default keys."
        ]
        await seated(pilot, FOUR)
        before = state_of(app).current
        await key(pilot, "n")
        assert state_of(app).current != before, "the default key passes the turn"
    assert keymap.read_text(encoding="utf-8") == f"next-turn = {DEEP}", "the file is kept"


@pytest.mark.parametrize(
    ("content", "sentence"),
    [
        (DEEP.encode(), "{path} was not used: it has brackets nested too deeply to read."),
        (
            b'{\n  "rate": 200,\n  "lang": "fr\xe9"\n}\n',
            "{path}:3 was not used: it is not UTF-8 text (byte 0xe9); save it as UTF-8.",
        ),
        (b'{"rate": ' + b"9" * 5000 + b"}", "{path} was not used: it has a number too long"),
    ],
    ids=["nested", "not-utf8", "long-number"],
)
async def test_a_settings_file_that_cannot_be_parsed_gives_defaults_and_a_sentence(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    content: bytes,
    sentence: str,
) -> None:
    path = folders["config"] / SETTINGS_FILE
    path.write_bytes(content)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        (notice,) = messages(app, SETTINGS_FILE)
        assert notice.startswith(f"The settings file {sentence.format(path=path)}")
        assert notice.endswith("Using the default settings.")
        assert app.controller.settings == TableSettings()
        await new_game(pilot, FOUR)
    assert path.read_bytes() == content, "the table's file is left as it was"


async def test_a_setting_out_of_range_is_named_and_the_others_are_kept(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    path = folders["config"] / SETTINGS_FILE
    path.write_text(
        json.dumps({"rate": 200, "reveal_seconds": 500, "volume": "loud", "ambience": False}),
        encoding="utf-8",
    )
    app = app_factory()
    async with app.run_test(size=(100, 40)):
        assert messages(app, SETTINGS_FILE) == [
            f"In the settings file {path}, "
            'volume = "loud" was not used: the volume must be between 0 and 1. '
            "reveal_seconds = 500 was not used: the reveal window must be between 1 and 60 "
            "seconds. Those settings are back to the default; the others are kept."
        ]
        assert app.controller.settings == TableSettings(rate=200, ambience=False)


def test_every_field_of_the_settings_is_checked_on_its_own(folders: dict[str, Path]) -> None:
    saved = {"rate": 200, "growl_seconds": 1e400, "passing_seconds": 30}
    (folders["config"] / SETTINGS_FILE).write_text(
        json.dumps(saved).replace("Infinity", "1e400"), encoding="utf-8"
    )
    settings, notice = load_settings(folders["config"])
    assert settings == TableSettings(rate=200, passing_seconds=30.0)
    assert notice is not None and "growl_seconds = Infinity was not used" in notice
    assert "That setting is back to the default" in notice


def test_the_reveal_window_of_the_settings_goes_to_sixty_seconds() -> None:
    assert TableSettings(reveal_seconds=60).validated().reveal_seconds == 60.0
    with pytest.raises(ValueError, match="between 1 and 60 seconds"):
        TableSettings(reveal_seconds=0.5).validated()


async def test_a_hostile_reveal_script_is_a_notice_and_the_shipped_reveal_plays(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    """Enter on the reveal did nothing and the next key crashed: the voice never built."""
    user = tmp_path / "voice_scripts"
    (user / "en").mkdir(parents=True)
    (user / "en" / "reveal.toml").write_text(f"x = {DEEP}", encoding="utf-8")
    narrator = DeferredNarrator(
        lambda: make_narrator(VoiceSettings(enabled=False), user, folders["cache"], time_scale=0.01)
    )
    app = app_on(folders, narrator)
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await seated(pilot, SIX)
        assert isinstance(app.screen, RevealScreen)
        await key(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await until(pilot, lambda: messages(app, "reveal.toml"))
        (notice,) = messages(app, "reveal.toml")
        assert f"{user / 'en' / 'reveal.toml'}:1: the file has brackets nested" in notice
        before = state_of(app).current
        await key(pilot, "n")
        assert state_of(app).current != before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
async def test_a_settings_file_that_is_a_fifo_neither_blocks_the_start_nor_the_save(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """Reading it waited for a writer forever; saving over it would too."""
    path = folders["config"] / SETTINGS_FILE
    os.mkfifo(path)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        assert messages(app, SETTINGS_FILE) == [
            f"The settings file {path} was not used: it is not a file (a folder, a device "
            "or a pipe). Using the default settings."
        ]
        await key(pilot, "f2", "ctrl+s")
        screen = app.screen
        assert isinstance(screen, SettingsScreen), "not saved: the dialog stays open"
        assert str(screen.query_one("#settings-error", Static).render()) == (
            f"Could not write {path}: it is not a regular file. Nothing was written."
        )
    assert stat.S_ISFIFO(os.lstat(path).st_mode), "the table's FIFO is left as it was"


async def test_saving_keeps_a_symlinked_settings_file_a_link(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], tmp_path: Path
) -> None:
    """Dotfile managers link settings.json; the rename used to replace the link."""
    kept = tmp_path / "dotfiles" / "settings.json"
    kept.parent.mkdir()
    kept.write_text(json.dumps({"rate": 200}), encoding="utf-8")
    link = folders["config"] / SETTINGS_FILE
    link.symlink_to(kept)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        assert app.controller.settings.rate == 200
        await key(pilot, "f2")
        app.screen.query_one("#settings-rate", Input).value = "210"
        await key(pilot, "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
    assert link.is_symlink() and link.resolve() == kept.resolve()
    assert json.loads(kept.read_text(encoding="utf-8"))["rate"] == 210


async def test_saving_over_an_unreadable_settings_file_keeps_it_aside(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """A hand-edited file with one typo was replaced by the first save, typo and all."""
    path = folders["config"] / SETTINGS_FILE
    typed = b'{\n  "rate": 210,\n  "volume": 0.8,\n}\n'  # the trailing comma
    path.write_bytes(typed)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        assert messages(app, "was not used: it is not valid JSON")
        await key(pilot, "f2", "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
        aside = folders["config"] / f"{SETTINGS_FILE}.unreadable"
        assert messages(app, "Settings saved.") == [
            f"Settings saved. The earlier {SETTINGS_FILE}, which could not be read, "
            f"is kept as {aside}."
        ]
    assert aside.read_bytes() == typed
    assert load_settings(folders["config"]) == (TableSettings(), None)


# --- item 8: text from files is data ----------------------------------------------------


async def test_control_characters_never_reach_the_terminal_in_a_keymap_toast(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    (folders["config"] / KEYMAP_FILE).write_text('next-turn = "\\u001b[2J"\n', encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(100, 40)):
        (notice,) = messages(app, KEYMAP_FILE)
        assert not has_control(notice)
        assert 'next-turn: "\\x1b[2J" is not a key name' in notice


async def test_every_toast_drops_control_characters(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        app.notify("clear\x1b[2J the\x07 screen", title="t\x1bitle", markup=False)
        app.notify("an \x1b[31merror", severity="error", markup=False)
        await settled(pilot)
        shown = [(n.title, n.message) for n in raised(app)]
        assert ("title", "clear[2J the screen") in shown
        assert ("", "an [31merror") in shown


def language_file(tmp_path: Path, code: str, name: str) -> Path:
    """A voice-scripts folder whose `code` folder holds only its language.toml."""
    user = tmp_path / "voice_scripts"
    (user / code).mkdir(parents=True)
    (user / code / "language.toml").write_text(
        f'name = "{name}"\nvoice = "{code}"\n', encoding="utf-8"
    )
    return user


async def test_a_language_name_with_markup_is_shown_literally_in_settings(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    """`[@click=app.quit]` in a Select's str option was a clickable quit."""
    user = language_file(tmp_path, "nl", "[@click=app.quit]Quit[/]")
    narrator = make_narrator(VoiceSettings(enabled=False), user, folders["cache"], time_scale=0.01)
    app = app_on(folders, narrator)
    async with app.run_test(size=(100, 40)) as pilot:
        await key(pilot, "f2")
        assert isinstance(app.screen, SettingsScreen)
        overlay = app.screen.query_one("#settings-lang", Select).query_one(
            "SelectOverlay", OptionList
        )
        prompts = [overlay.get_option_at_index(i).prompt for i in range(overlay.option_count)]
        assert all(isinstance(prompt, Text) for prompt in prompts)
        shown = [prompt.plain for prompt in prompts if isinstance(prompt, Text)]
        assert "[@click=app.quit]Quit[/] (nl)" in shown
        await key(pilot, "escape")
        assert app.is_running


async def test_a_language_folder_holding_only_its_language_file_is_one_toast(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    """Every script fell back to English with a toast of its own: seven at the table."""
    user = language_file(tmp_path, "it", "Italiano")
    narrator = DeferredNarrator(
        lambda: make_narrator(VoiceSettings(enabled=False), user, folders["cache"], time_scale=0.01)
    )
    app = app_on(folders, narrator)
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        # The start-up warnings arrive together, in one call from the voice's thread.
        await until(pilot, lambda: messages(app, "Italiano (it)"))
        (notice,) = messages(app, "Italiano (it)")
        assert notice.endswith("those moments are spoken in English, with the English voice.")


async def test_a_language_code_with_markup_from_the_settings_is_shown_literally(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """An unknown code from settings.json is offered as itself: as text, not markup."""
    (folders["config"] / SETTINGS_FILE).write_text(
        json.dumps({"lang": "[b]zz[/b]"}), encoding="utf-8"
    )
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await key(pilot, "f2")
        overlay = app.screen.query_one("#settings-lang", Select).query_one(
            "SelectOverlay", OptionList
        )
        last = overlay.get_option_at_index(overlay.option_count - 1).prompt
        assert isinstance(last, Text) and last.plain == "[b]zz[/b]" and not last.spans


def test_literal_text_has_no_control_characters_and_no_markup() -> None:
    assert visible("Neder\x1b[2Jlands\u202e\n!") == "Neder[2Jlands !"
    assert visible("👩\u200d💻") == "👩\u200d💻", "a joined emoji stays joined"
    shown = literal("[b]x[/b]")
    assert isinstance(shown, Text) and shown.plain == "[b]x[/b]" and not shown.spans
