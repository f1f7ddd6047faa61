"""The history window shows every player's points, at 120x40 and at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.history import HistoryScreen
from tests.tui.helpers import key

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
        (record,) = store.history()
        return dict(record.totals)


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
        await pilot.pause()
        shown = visible_text(app.screen.query_one("#history-series", DataTable))
        flat = " ".join(shown.split())
        assert "Winners: Mike Wheeler & Nancy Wheeler" in flat
        for name, points in totals.items():
            assert f"{name} {points}" in flat, f"{name}'s points are cut: {shown}"
        players = visible_text(app.screen.query_one("#history-players", DataTable))
        assert "Points" in players.splitlines()[0]
