"""The history window shows every player's points, at 120x40 and at 80x24."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from driving import key
from no_message_left import settled
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import HistorySummary, Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.history import HistoryScreen
from tests.tui.app_driver import history_read

NAMES = [
    "Eleven Hopper",
    "Mike Wheeler",
    "Dustin Henderson",
    "Lucas Sinclair",
    "Will Byers",
    "Max Mayfield",
    "Steve Harrington",
    "Nancy Wheeler",
    "Jonathan Byers",
    "Robin Buckley",
]


def ten_player_series(data_dir: Path) -> dict[str, int]:
    with Store.open(data_dir) as store:
        series = store.new_series()
        for number in range(3):
            game = store.new_game(series, NAMES, number)
            for seat in range(2, 10):
                game.record(PlayerKnockedOut(seat))
            game.record(ResultsDeclared((0, 2, 5), (1, 2, 0, 1, 0, 1, 0, 2, 0, 1)))
        return dict(store.history()[-1].totals)


def visible_text(table: DataTable[object]) -> str:
    """What the table really draws (cropped cells are cut here too)."""
    return "\n".join(table.render_line(y).text for y in range(table.size.height))


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_every_players_points_are_on_screen(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], size: tuple[int, int]
) -> None:
    totals = ten_player_series(folders["data"])
    app = app_factory()
    async with app.run_test(size=size) as pilot:
        await key(pilot, "h")
        assert isinstance(app.screen, HistoryScreen)
        await history_read(pilot)
        shown = visible_text(app.screen.query_one("#history-series", DataTable))
        flat = " ".join(shown.split())
        assert "Winners: Mike Wheeler & Nancy Wheeler" in flat
        for name, points in totals.items():
            assert f"{name} {points}" in flat, f"{name}'s points are cut: {shown}"
        players = visible_text(app.screen.query_one("#history-players", DataTable))
        assert "Points" in players.splitlines()[0]


class HeldHistory:
    """The real store's history, held back until the test lets it go (a slow disk).

    Injected around `Store.history_summary`, the read the dialog makes: the worker
    waits on an event, so the test sees the dialog while the history is still read.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()
        original = Store.history_summary

        def held(store: Store, newest: int) -> HistorySummary:
            self.started.set()
            # A bound, so a test that fails does not hang: released long before.
            self.release.wait(30)
            summary = original(store, newest)
            self.finished.set()
            return summary

        monkeypatch.setattr(Store, "history_summary", held)


@asynccontextmanager
async def history_opened_while_held(
    app: MindFlayerApp, held: HeldHistory
) -> AsyncIterator[tuple[Pilot[None], HistoryScreen]]:
    """The app with a complete series, its History dialog open, the read held back."""
    async with app.run_test(size=(120, 40)) as pilot:
        await key(pilot, "h")
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert held.started.is_set() and not held.release.is_set()
        yield pilot, screen


@pytest.fixture
def held(folders: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> HeldHistory:
    """A complete series in the data folder, and its history read held back."""
    ten_player_series(folders["data"])
    return HeldHistory(monkeypatch)


async def test_the_dialog_says_it_is_reading_then_shows_the_tables(
    app_factory: Callable[[], MindFlayerApp], held: HeldHistory
) -> None:
    """The dialog read the history in `on_mount`, on the UI thread: 5 s frozen at 5,001 games."""
    async with history_opened_while_held(app_factory(), held) as (pilot, screen):
        loading = screen.query_one("#history-loading", Static)
        assert loading.display and "Reading the history" in str(loading.render())
        series = screen.query_one("#history-series", DataTable)
        assert not series.display and series.row_count == 0
        held.release.set()
        await history_read(pilot)
        assert not loading.display
        assert series.display and series.row_count == 1
        assert "Mike Wheeler" in " ".join(visible_text(series).split())


async def test_the_keys_work_while_the_history_is_read(
    app_factory: Callable[[], MindFlayerApp], held: HeldHistory
) -> None:
    """Esc closes the dialog mid-read; the read that ends later changes nothing."""
    app = app_factory()
    async with history_opened_while_held(app, held) as (pilot, history):
        await key(pilot, "escape")
        assert type(app.screen).__name__ == "StartScreen"
        await key(pilot, "f1")
        assert type(app.screen).__name__ == "HelpScreen"
        assert not held.finished.is_set(), "the keys were answered while the history was read"
        workers = [w for w in app.workers if w.node is history]
        held.release.set()
        await app.workers.wait_for_complete(workers)
        await settled(pilot)
        assert type(app.screen).__name__ == "HelpScreen"
        await key(pilot, "escape", "h")
        assert isinstance(app.screen, HistoryScreen) and app.screen is not history
        await history_read(pilot)
        assert app.screen.query_one("#history-series", DataTable).row_count == 1


async def test_only_the_newest_series_are_rows_and_the_dialog_says_so(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """6,667 series rows took the UI thread half a minute to lay out."""
    from moderator.tui.dialogs import history as history_screen

    monkeypatch.setattr(history_screen, "SHOWN_SERIES", 1)
    ten_player_series(folders["data"])
    ten_player_series(folders["data"])
    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        await key(pilot, "h")
        await history_read(pilot)
        screen = app.screen
        assert screen.query_one("#history-series", DataTable).row_count == 1
        note = str(screen.query_one("#history-empty", Static).render())
        assert "The newest 1 of 2 complete series are listed" in note
        assert "mindflayer history" in note
        players = screen.query_one("#history-players", DataTable)
        assert "2/2" in visible_text(players), "the players' table counts every series"
