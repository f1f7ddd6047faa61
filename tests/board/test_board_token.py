"""Issue 35 item 9: the phone board's link is kept for the series, across a restart and Resume.

The real app twice on the same folders (a crash and a restart): the board
started again after Resume has the same address, and a phone's old link still
reads the board. A new series gets a new token; a kept file that is not as
written costs only a new token.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp
from driving import key, shown, until

from moderator.table.board_token import KEPT_FILE, token_for_series
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.board import BoardScreen
from moderator.tui.screens.table import TableScreen
from tests.board.test_board_app import start_board


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_the_boards_link_survives_a_restart_and_resume(
    board_app: Callable[..., MindFlayerApp], phone: aiohttp.ClientSession
) -> None:
    port = free_port()  # as the table's settings fix it (tests elsewhere take any free one)
    first = board_app(port=port)
    async with first.run_test(size=(100, 30)) as pilot:
        url = (await start_board(pilot)).url
    again = board_app(port=port)
    async with again.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")  # Resume
        await shown(pilot, TableScreen)
        await key(pilot, "b")
        await shown(pilot, BoardScreen)
        await until(pilot, lambda: again.board.server is not None)
        server = again.board.server
        assert server is not None
        assert server.url == url
        async with phone.get(url + "snapshot.json") as answer:
            assert answer.status == 200


def test_a_new_series_gets_a_new_token_and_the_same_series_keeps_its_own(
    tmp_path: Path,
) -> None:
    one = token_for_series(tmp_path, 1)
    assert token_for_series(tmp_path, 1) == one
    two = token_for_series(tmp_path, 2)
    assert two != one
    assert token_for_series(tmp_path, 2) == two
    assert token_for_series(tmp_path, None) not in (one, two)


def test_a_file_not_as_written_costs_only_a_new_token(tmp_path: Path) -> None:
    (tmp_path / KEPT_FILE).write_text('{"series": 1, "token": "../../etc"}', encoding="utf-8")
    token = token_for_series(tmp_path, 1)
    assert token != "../../etc" and len(token) == 22
    assert token_for_series(tmp_path, 1) == token
