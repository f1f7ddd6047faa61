"""A started series is set aside only when the table says so (issue 15, item 6).

`n` on the start screen and `s` on the series board used to abandon the
unfinished series at once, with no question and no undo. Now the table is
asked, the series named; Esc (or Enter on the first answer) keeps it, and
Resume still resumes it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from controller_shortcuts import seated
from driving import FOUR, key
from no_message_left import toasts
from textual.widgets import OptionList, Static

from moderator.storage import Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import ReachResults, declare

QUESTION = "Set aside the series of Ann, Bob, Cy and Dee (game 1 of 3) and start a new series?"


def unfinished_series(data_dir: Path) -> int | None:
    """The id of the series offered to resume, read beside the running app."""
    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        return None if unfinished is None else unfinished.series_id


def question_of(app: MindFlayerApp) -> str:
    """The dialog's question, as shown."""
    assert isinstance(app.screen, PickPlayerScreen), app.screen
    return str(app.screen.query_one("#pick-title", Static).render())


async def test_n_on_the_start_screen_asks_and_esc_keeps_the_series_to_resume(
    app_factory: Callable[..., MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "n")  # next turn: Bob's
        series = unfinished_series(folders["data"])
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)
        await key(pilot, "n")
        assert question_of(app).startswith(QUESTION)
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)
        assert unfinished_series(folders["data"]) == series, "the series is not set aside"
        await key(pilot, "c")
        assert isinstance(app.screen, TableScreen)
        assert app.controller.state.turn == 2 and app.controller.state.current == 1


async def test_enter_right_after_n_keeps_the_series(
    app_factory: Callable[..., MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, FOUR)
        series = unfinished_series(folders["data"])
        await key(pilot, "escape", "n")
        assert question_of(app).startswith(QUESTION)
        await key(pilot, "enter")
        assert isinstance(app.screen, StartScreen)
        assert unfinished_series(folders["data"]) == series


async def test_yes_sets_the_series_aside_and_says_which(
    app_factory: Callable[..., MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await seated(pilot, FOUR)
        series = unfinished_series(folders["data"])
        await key(pilot, "escape", "n")
        options = app.screen.query_one("#pick-list", OptionList)
        assert options.highlighted == 0, "keeping the series is the first answer"
        await key(pilot, "2")
        assert isinstance(app.screen, SetupScreen)
        assert unfinished_series(folders["data"]) not in (None, series)
        notices = toasts(app)
        assert "Set aside: the series of Ann, Bob, Cy and Dee (game 1 of 3)." in notices[-1]


async def test_s_on_the_series_board_mid_series_asks_too(
    at_results: ReachResults, folders: dict[str, Path]
) -> None:
    async with at_results(size=(100, 30)) as (app, pilot, _):
        await declare(pilot, [0])
        assert isinstance(app.screen, SeriesScreen)
        series = unfinished_series(folders["data"])
        await key(pilot, "s")
        assert question_of(app).startswith(
            "Set aside the series of Ann, Bob, Cy and Dee (game 2 of 3)"
        )
        await key(pilot, "escape")
        assert isinstance(app.screen, SeriesScreen)
        assert unfinished_series(folders["data"]) == series


async def test_a_series_with_nothing_started_is_not_asked_about(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await key(pilot, "n", "escape")
        assert isinstance(app.screen, StartScreen)
        await key(pilot, "n")
        assert isinstance(app.screen, SetupScreen)
