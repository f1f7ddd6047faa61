"""The phone board shows tonight's table's leaderboard between games, as the laptop does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from driving import FOUR, key, until

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import Store
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.widgets.leaderboard_chart import LeaderboardChart
from tests.board.test_board_app import start_board
from tests.board.test_server import next_event
from tests.tui.app_driver import declare, knock_out


def one_series(data: Path, names: list[str]) -> None:
    """A complete series of `names`: each game the Sane (all but seat 1) win, Ann's 2 Waffles.

    Ann: 3 games won as Sane, 1 + 2 Waffles each: 9 points; Cy and Dee 3; Bob 0 (Possessed).
    """
    with Store.open(data) as store:
        series = store.new_series()
        for _ in range(3):
            game = store.new_game(series, names, 0)
            game.record(PlayerKnockedOut(2))
            game.record(PlayerKnockedOut(3))
            game.record(ResultsDeclared((1,), (2, 0, 0, 0)))


async def test_between_games_the_phones_see_the_tables_leaderboard(
    board_app: Callable[..., MindFlayerApp],
    phone: aiohttp.ClientSession,
    folders: dict[str, Path],
) -> None:
    one_series(folders["data"], FOUR)
    one_series(folders["data"], ["Ann", "Eve", "Fay", "Gus"])  # another table: not tonight's
    app = board_app()
    async with app.run_test(size=(100, 30)) as pilot:
        server = await start_board(pilot)
        async with phone.get(server.url + "events") as events:
            first = json.loads(await next_event(events))
            assert first["leaderboard"] is None  # during a game: none
            await knock_out(pilot, 2)
            await knock_out(pilot, 3)
            await key(pilot, "enter")
            await declare(pilot, [1])
            assert isinstance(app.screen, SeriesScreen)
            chart = app.screen.query_one("#series-leaderboard", LeaderboardChart)
            await until(pilot, lambda: chart.figures is not None)
            board: dict[str, Any] = {}
            while not board.get("leaderboard"):
                board = json.loads(await next_event(events))
        leaderboard = board["leaderboard"]
        assert leaderboard["title"] == "This table (Ann, Bob, Cy, Dee): 1 series, 3 games"
        lines = leaderboard["lines"]
        assert lines[0].split() == ["Player", "▼Points", "Series", "won", "Sane", "Possessed"]
        assert [line.split()[0] for line in lines[1:5]] == ["Ann", "Cy", "Dee", "Bob"]
        ann = lines[1].split()  # name, points bar, points, series, Sane bar, rate, no Possessed
        assert ann[2:4] == ["9", "1/1"] and set(ann[4]) == {"█"} and ann[5:] == ["100%", "–"]
        assert all(len(line) <= 50 for line in lines), lines
        assert "Eve" not in json.dumps(leaderboard)
        # The laptop's series board draws the same figures.
        assert chart.figures is not None and chart.figures.leaderboard[0].points == 9
