"""The start screen, the first frame of every start: what it offers, its title and key bars.

It is drawn once, from the store, in `compose` (docs/startup.md), with a
one-line `TitleBar` and `KeyBar` in place of Textual's Header and Footer; these
tests hold it to what the table must see: Resume only when something is
unfinished (button and key alike), the help's key first, the table's keymap,
the voice's marker in the title, and a database that fails to read said in a
sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest
from controller_shortcuts import seated
from driving import key, until
from no_message_left import record_toasts, settled, toasts
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.pilot import Pilot
from textual.widgets import Static

from moderator.narration import VoiceSettings, make_narrator
from moderator.storage import StorageError, Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.run import make_app
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.choice import ChoiceList
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.title_bar import TitleBar
from tests.tui.app_driver import app_on

FOUR = ["Ann", "Bob", "Cy", "Dee"]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def unfinished_game(data_dir: Path) -> None:
    """A series whose first game (four players) was left on its first turn."""
    store = Store.open(data_dir)
    try:
        store.new_game(store.new_series(), FOUR, 0)
    finally:
        store.close()


def start_app(folders: dict[str, Path]) -> MindFlayerApp:
    """The app on these folders, with a silent narrator."""
    narrator = make_narrator(VoiceSettings(enabled=False), None, folders["cache"], time_scale=0.01)
    return app_on(folders, narrator)


def bar_line(app: App[object]) -> str:
    """The key bar as drawn (plain text)."""
    return str(app.screen.query_one(KeyBar).render())


def shown_keys(app: App[object]) -> list[tuple[str, str]]:
    """(key shown, description) of each entry of the key bar, in order."""
    return [(item.display, item.description) for item in app.screen.query_one(KeyBar).items]


def offered_and_on(screen: object, choice: str) -> bool:
    """The choice is on offer, highlighted, and the list has the focus."""
    assert isinstance(screen, StartScreen)
    choices = screen.query_one(ChoiceList)
    return choices.offers(choice) and choices.highlighted == choice and choices.has_focus


def not_offered_and_on(screen: object, choice: str) -> bool:
    """Resume is not on offer; `choice` is highlighted with the focus."""
    assert isinstance(screen, StartScreen)
    choices = screen.query_one(ChoiceList)
    return not choices.offers("start-resume") and offered_and_on(screen, choice)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("unfinished", [False, True], ids=["nothing-to-resume", "resume"])
def test_start_screen_snapshot(
    snap_compare: Callable[..., bool],
    folders: dict[str, Path],
    unfinished: bool,
    size: tuple[int, int],
) -> None:
    if unfinished:
        unfinished_game(folders["data"])
    app = start_app(folders)

    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        pilot.app.clear_notifications()
        await settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_resume_is_offered_by_button_and_key_only_when_a_game_is_unfinished(
    folders: dict[str, Path],
) -> None:
    app = start_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert not_offered_and_on(screen, "start-new")
        assert "Resume" not in bar_line(app)
        await key(pilot, "c")  # not offered: nothing happens
        assert app.screen is screen
        await seated(pilot, FOUR)
        await key(pilot, "escape")
        assert app.screen is screen
        assert offered_and_on(screen, "start-resume")
        assert ("c", "Resume") in shown_keys(app)
        await key(pilot, "c")
        assert app.controller.game_state is not None
        assert app.screen is not screen


async def test_each_choice_is_taken_by_enter_space_or_a_click(folders: dict[str, Path]) -> None:
    app = start_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        choices = screen.query_one(ChoiceList)
        assert choices.shown == [
            "start-new",
            "start-history",
            "start-settings",
            "start-help",
            "start-quit",
        ]
        await key(pilot, "down", "enter")  # from New series to History: Enter takes it
        assert type(app.screen).__name__ == "HistoryScreen"
        await key(pilot, "escape")
        assert app.screen is screen and choices.has_focus
        await key(pilot, "tab", "space")  # Tab moves as Down does; Space takes it too
        assert type(app.screen).__name__ == "SettingsScreen"
        await key(pilot, "escape", "up", "up", "up")  # Up wraps round to Quit
        assert choices.highlighted == "start-quit"
        await pilot.click(ChoiceList, offset=(20, 1))  # the blank line under New series
        await settled(pilot)
        assert app.screen is screen
        await pilot.click(ChoiceList, offset=(20, 6))  # Help's line
        await settled(pilot)
        assert type(app.screen).__name__ == "HelpScreen"
        await key(pilot, "escape")
        await pilot.click(ChoiceList, offset=(20, 0))
        await settled(pilot)
        assert isinstance(app.screen, SetupScreen)


async def test_a_restart_offers_the_unfinished_game_from_the_first_frame(
    folders: dict[str, Path],
) -> None:
    unfinished_game(folders["data"])
    app = start_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert offered_and_on(screen, "start-resume")
        summary = str(screen.query_one("#start-unfinished", Static).render())
        assert summary == "Game 1 is unfinished: 4 players, turn 1."
        assert ("c", "Resume") in shown_keys(app)
        await key(pilot, "enter")  # the focused button
        assert app.controller.game_state is not None


async def test_the_key_bar_puts_the_help_first_so_it_shows_at_80_columns(
    folders: dict[str, Path],
) -> None:
    app = start_app(folders)
    async with app.run_test(size=(80, 24)):
        line = bar_line(app)
        assert len(line) == 80
        assert line.startswith(" ? Help ")
        assert shown_keys(app)[:3] == [("?", "Help"), ("n", "New series"), ("h", "History")]
        assert line.rstrip().endswith("▏^p palette")


async def test_the_key_bar_shows_the_tables_keymap(folders: dict[str, Path]) -> None:
    (folders["config"] / "keymap.toml").write_text(
        'new-series = "s"\nhelp = "f9"\n', encoding="utf-8"
    )
    app = start_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        keys = shown_keys(app)
        assert keys[0] == ("f9", "Help")
        assert ("s", "New series") in keys
        assert ("n", "New series") not in keys
        await key(pilot, "s")
        assert isinstance(app.screen, SetupScreen)


class _Keys(App[None]):
    """A bare app with a key bar: one key always on, one dimmed, one hidden, one unlisted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ring('a')", "Always", id="always"),
        Binding("d", "ring('d')", "Dimmed", id="dimmed"),
        Binding("x", "ring('x')", "Hidden", id="hidden"),
        Binding("z", "ring('z')", "Unlisted", show=False),
        Binding("f1,question_mark", "ring('?')", "Help", id="help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rung: list[str] = []
        self.dim: bool | None = None
        self.hide = False

    def compose(self) -> ComposeResult:
        yield KeyBar()

    def action_ring(self, name: str) -> None:
        self.rung.append(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "ring" and parameters == ("d",):
            return self.dim
        if action == "ring" and parameters == ("x",):
            return not self.hide
        return True


async def test_the_key_bar_follows_check_action_and_clicks_press_keys() -> None:
    app = _Keys()
    async with app.run_test(size=(60, 3)) as pilot:
        bar = app.screen.query_one(KeyBar)
        assert [(i.display, i.description, i.enabled) for i in bar.items] == [
            ("?", "Help", True),
            ("a", "Always", True),
            ("d", "Dimmed", False),
            ("x", "Hidden", True),
        ]
        app.hide = True
        app.dim = True
        app.refresh_bindings()
        await settled(pilot)
        assert [(i.display, i.enabled) for i in bar.items] == [
            ("?", True),
            ("a", True),
            ("d", True),
        ]
        assert "Hidden" not in str(bar.render())
        line = str(bar.render())
        await pilot.click(KeyBar, offset=(line.index("Always"), 0))
        await settled(pilot)
        assert app.rung == ["a"]


async def test_the_title_bar_shows_title_changes(folders: dict[str, Path]) -> None:
    app = start_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.screen.query_one(TitleBar)
        line = str(bar.render())
        # Where Textual's Header puts it: centred between the icon's 8 columns and the clock's 10.
        assert line.startswith(" ⭘ ") and line.index("Mind Flayer moderator") == 28
        app.title = "Mind Flayer moderator · voice off: no sound device"
        await settled(pilot)
        assert "voice off: no sound device" in str(bar.render())


class _BrokenStore:
    """The real store, whose reading of the unfinished series fails (a damaged disk)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def unfinished(self) -> None:
        raise StorageError("The score database could not be read (disk I/O error).")

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)


async def test_a_database_that_cannot_be_read_at_start_is_said(
    folders: dict[str, Path],
) -> None:
    narrator = make_narrator(VoiceSettings(enabled=False), None, folders["cache"], time_scale=0.01)
    store = _BrokenStore(Store.open(folders["data"]))
    app = make_app(
        folders["data"],
        folders["config"],
        folders["cache"],
        None,
        narrator=narrator,
        store=store,  # type: ignore[arg-type]
    )
    record_toasts(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: toasts(app))
        messages = toasts(app)
        assert messages.count("The score database could not be read (disk I/O error).") == 1
        screen = app.screen
        assert not_offered_and_on(screen, "start-new")
