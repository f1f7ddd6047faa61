"""Issue 10 at the table: an accidental start taken back, a name fixed between games,
speech faults told once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Button, Input

from moderator.storage import Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.controller import TableController
from moderator.tui.phases import Phase
from moderator.tui.screens.pick_player import PickPlayerScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.helpers import declare, key, knock_out, new_game, seat_players, wait_for

FOUR = ("Ann", "Bob", "Noah", "Dee")
SIX = ("Ann", "Bob", "Noah", "Dee", "Eve", "Fin")


def _roster(app: MindFlayerApp) -> tuple[list[str], int]:
    screen = app.screen
    assert isinstance(screen, SetupScreen)
    return list(screen.players), screen.first_player


async def test_undo_right_after_an_accidental_start_returns_to_setup(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """Shift+Tab from the name field reaches "Start game"; Enter starts; u takes it back."""
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await key(pilot, "n")
        await seat_players(pilot, FOUR, first=2)
        app.screen.query_one("#setup-name", Input).focus()
        await key(pilot, "shift+tab")
        assert app.focused is app.screen.query_one("#setup-start", Button)
        await key(pilot, "enter")
        assert isinstance(app.screen, TableScreen), "the accidental start happened"
        await key(pilot, "u")
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app) == (list(FOUR), 2), "the roster is intact"
        assert app.controller.game is None
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert app.controller.game_number == 1, "the taken-back game is not counted"
    with Store.open_read_only(folders["data"]) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert unfinished.game.number == 1 and unfinished.game.state.first_player == 2


async def test_undo_on_the_reveal_takes_a_six_player_start_back(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SIX, first=1)
        assert isinstance(app.screen, RevealScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app) == (list(SIX), 1)


def test_undo_after_the_first_action_still_keeps_the_game(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    controller: TableController = app_factory().controller
    try:
        controller.new_series()
        controller.start_game(FOUR, 0)
        controller.pass_turn()
        assert controller.undo().phase is Phase.TABLE
        assert controller.game is not None and controller.state.turn == 1
    finally:
        controller.close()


async def _play_game_one(pilot, app: MindFlayerApp) -> None:  # type: ignore[no-untyped-def]
    """Game 1: Ann, Bob, Noah, Dee; Dee growls, Sane win, Noah holds 2 Waffles (3 points)."""
    await new_game(pilot, FOUR)
    await knock_out(pilot, 1)
    await knock_out(pilot, 2)
    await key(pilot, "enter")  # finale: enter the results
    await wait_for(pilot, lambda: app.controller.phase is Phase.RESULT)
    await declare(pilot, [3], {2: 2})
    assert isinstance(app.screen, SeriesScreen)


def _game_one_points(data_dir: Path) -> dict[str, int]:
    """Game 1's points as the open series shows them now, read from disk."""
    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None
        (game_one,) = store.series_games(unfinished.series_id)
        return dict(game_one.points)


async def test_a_name_fixed_between_games_keeps_the_players_points(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_game_one(pilot, app)
        await key(pilot, "n")  # next game: the same roster
        assert isinstance(app.screen, SetupScreen)
        app.screen.players[2] = "Noah B"  # what the "Fix" key does, quickly
        await key(pilot, "ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, PickPlayerScreen)
        assert "Noah B" in dialog.title_text
        assert [name for _, name in dialog.choices] == ["Noah", "No: a new player"]
        await key(pilot, "enter")  # yes: Noah
        assert isinstance(app.screen, TableScreen)
        await key(pilot, "u")  # still undoable, rename and all
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app)[0] == ["Ann", "Bob", "Noah B", "Dee"]
        await key(pilot, "ctrl+s", "enter")
        assert isinstance(app.screen, TableScreen)
    assert _game_one_points(folders["data"]) == {"Ann": 1, "Bob": 1, "Noah B": 3, "Dee": 0}


async def test_a_new_player_is_not_merged_and_esc_starts_nothing(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_game_one(pilot, app)
        await key(pilot, "n")
        app.screen.players[2] = "Zoe"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, PickPlayerScreen)
        await key(pilot, "escape")
        assert isinstance(app.screen, SetupScreen) and app.controller.game is None
        await key(pilot, "ctrl+s")
        app.screen.query_one("#pick-list").highlighted = 1  # type: ignore[attr-defined]
        await key(pilot, "enter")  # no: a new player
        assert isinstance(app.screen, TableScreen)
    assert _game_one_points(folders["data"]) == {"Ann": 1, "Bob": 1, "Noah": 3, "Dee": 0}
