"""Issue 20 item 4: at 80x24 and 120x40 each screen's footer shows, whole, the keys a table
needs most there (the game screens' Menu, Mute and Settings; the series board's Undo and Redo;
the setup's Read aloud and Back), and a 9-player series board shows its buttons."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from controller_shortcuts import (
    accepted,
    controller_of,
    declared,
    knocked_out,
    seated,
    show,
    started,
)
from driving import key, seat_players, to_setup
from textual.pilot import Pilot
from textual.widgets import Button, DataTable

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.key_bar import KeyBar
from tests.tui.app_driver import declare, knock_out

FOUR = ["Ann", "Bob", "Cy", "Dee"]
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin"]
NINE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal", "Ivy"]

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

#: The keys every game screen keeps: (key as shown, its words).
GAME_KEYS = (("?", "Help"), ("v", "Mute"), ("f2", "Settings"))


async def at_setup(pilot: Pilot[None]) -> None:
    await to_setup(pilot)
    await seat_players(pilot, FOUR)


async def at_reveal(pilot: Pilot[None]) -> None:
    await show(pilot, started(controller_of(pilot), SIX), RevealScreen)


async def at_table(pilot: Pilot[None]) -> None:
    await show(pilot, started(controller_of(pilot), FOUR), TableScreen)


async def at_meeting(pilot: Pilot[None]) -> None:
    controller = controller_of(pilot)
    started(controller, FOUR)
    await show(pilot, accepted(controller.draw_meeting()), MeetingScreen)


async def at_finale(pilot: Pilot[None]) -> None:
    controller = controller_of(pilot)
    started(controller, FOUR)
    await show(pilot, knocked_out(controller, 2, 3), FinaleScreen)


async def at_result(pilot: Pilot[None]) -> None:
    controller = controller_of(pilot)
    started(controller, FOUR)
    knocked_out(controller, 2, 3)
    await show(pilot, accepted(controller.enter_results()), ResultScreen)


async def at_series(pilot: Pilot[None]) -> None:
    controller = controller_of(pilot)
    started(controller, FOUR)
    knocked_out(controller, 2, 3)
    await show(pilot, declared(controller, [0]), SeriesScreen)


#: Each screen, how to get there, and the keys that must be whole on its footer:
#: (key, words at 120 columns, words at 80 columns).
SCREENS: dict[
    str, tuple[type, Callable[[Pilot[None]], Awaitable[None]], tuple[tuple[str, ...], ...]]
] = {
    "setup": (
        SetupScreen,
        at_setup,
        (("^s", "Start game", "Start"), ("^r", "Read aloud", "Read"), ("esc", "Back", "Back")),
    ),
    "reveal": (
        RevealScreen,
        at_reveal,
        (
            ("⏎", "Start reveal", "Start"),
            ("esc", "Abort", "Abort"),
            ("t", "To the table", "To table"),
            *GAME_KEYS,
        ),
    ),
    "table": (
        TableScreen,
        at_table,
        (
            ("n", "Next turn", "Next turn"),
            ("m", "Meeting card", "Meeting"),
            ("k", "Knock out", "Knock out"),
            ("esc", "Menu", "Menu"),
            *GAME_KEYS,
        ),
    ),
    "meeting": (
        MeetingScreen,
        at_meeting,
        (
            ("⏎", "Meeting resolved", "Resolved"),
            ("o", "Sit out", "Sit out"),
            ("k", "Knock out", "Knock out"),
            ("esc", "Menu", "Menu"),
            *GAME_KEYS,
        ),
    ),
    "finale": (
        FinaleScreen,
        at_finale,
        (
            ("⏎", "Enter results", "Results"),
            ("c", "Count again", "Count again"),
            ("esc", "Menu", "Menu"),
            *GAME_KEYS,
        ),
    ),
    "result": (
        ResultScreen,
        at_result,
        (
            ("^s", "Save result", "Save result"),
            ("esc", "Menu", "Menu"),
            ("u", "Undo", "Undo"),
            ("r", "Redo", "Redo"),
            *GAME_KEYS,
        ),
    ),
    "series": (
        SeriesScreen,
        at_series,
        (
            ("n", "Next game", "Next"),
            ("s", "New series", "New series"),
            ("u", "Undo", "Undo"),
            ("r", "Redo", "Redo"),
            *GAME_KEYS,
        ),
    ),
}


def footer(app: MindFlayerApp) -> str:
    """The footer line as drawn at the app's width."""
    return str(app.screen.query_one(KeyBar).render())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(SCREENS))
async def test_the_footer_keeps_the_keys_a_table_needs_most(
    app_factory: Callable[[], MindFlayerApp], name: str, size: tuple[int, int]
) -> None:
    screen_class, reach, needed = SCREENS[name]
    app = app_factory()
    async with app.run_test(size=size) as pilot:
        await reach(pilot)
        assert isinstance(app.screen, screen_class)
        line = footer(app)
        assert len(line) == size[0]
        for shown, wide, narrow in ((entry[0], entry[1], entry[-1]) for entry in needed):
            words = wide if size[0] >= 120 else narrow
            assert f" {shown} {words} " in f"{line} ", (name, shown, words, line)


async def test_nine_players_at_80x24_see_the_series_buttons_without_scrolling(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, NINE)
        await key(pilot, "t")
        for seat in range(7):
            await knock_out(pilot, seat)
        assert isinstance(app.screen, FinaleScreen)
        await key(pilot, "enter")
        await declare(pilot, [6, 7, 8])
        screen = app.screen
        assert isinstance(screen, SeriesScreen)
        board = screen.query_one("#series-board", DataTable)
        assert board.row_count == 9
        assert screen.max_scroll_y == 0, "the screen does not scroll"
        assert board.max_scroll_y == 0, "every row of the board is shown"
        bar = screen.query_one(KeyBar).region
        for button in screen.query(Button).results(Button):
            if button.display:
                region = button.region
                assert region.height >= 1 and region.bottom <= bar.y, (button.id, region, bar)


@pytest.mark.parametrize("size", SIZES)
async def test_the_setup_footer_names_how_to_play_without_cutting_its_main_keys(
    app_factory: Callable[[], MindFlayerApp], size: tuple[int, int]
) -> None:
    """Ctrl+G (How to play) is on the setup's footer: whole from the name field; as "Rules"
    at 120 columns from the roster, where Start game and Read aloud stay whole."""
    app = app_factory()
    async with app.run_test(size=size) as pilot:
        await at_setup(pilot)  # the roster focused
        roster = footer(app)
        if size[0] >= 120:
            for shown in ("^g Rules", "^s Start game", "^r Read aloud", "esc Back", "v Mute"):
                assert f" {shown} " in f"{roster} ", (shown, roster)
        app.screen.query_one("#setup-name").focus()
        await key(pilot)
        field = footer(app)
        for shown in ("^g Rules", "^s Start game", "^r Read aloud", "esc Back"):
            assert f" {shown} " in f"{field} ", (shown, field)
