"""The phone board of the running app: key, QR code, and a scripted game followed over HTTP.

The app runs under Pilot with the board on 127.0.0.1 and a free port; a client
follows its Server-Sent Events as a phone would, and after each table action
the snapshot it receives must equal the board built from the app's state.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from driving import FOUR, key, new_game, until
from no_message_left import settled, toasts
from textual.pilot import Pilot
from textual.widgets import Static, Switch

from moderator.board.server import BoardServer
from moderator.table.board_host import NO_NETWORK
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.board import BoardScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from tests.board.test_server import next_event
from tests.tui.app_driver import declare, knock_out, state_of


async def start_board(pilot: Pilot[None], close: bool = True) -> BoardServer:
    """A new game of four; on the table screen b, wait until the dialog shows the URL, close it."""
    await new_game(pilot, FOUR)
    app = pilot.app
    assert isinstance(app, MindFlayerApp) and isinstance(app.screen, TableScreen)
    await key(pilot, "b")
    assert isinstance(app.screen, BoardScreen)
    await until(pilot, lambda: app.board.server is not None)
    server = app.board.server
    assert server is not None
    url = app.screen.query_one("#board-url", Static)
    await until(pilot, lambda: str(url.render()) == server.url)
    if close:
        await key(pilot, "escape")
    return server


def expected(app: MindFlayerApp) -> dict[str, Any]:
    """The board built from the app's state now (its seq aside)."""
    data = json.loads(app.board.snapshot(0).to_json())
    data.pop("seq")
    return data


async def received(events: aiohttp.ClientResponse) -> dict[str, Any]:
    data = json.loads(await next_event(events))
    data.pop("seq")
    return data


async def test_the_board_key_shows_a_qr_code_that_fits_80x24(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        server = await start_board(pilot, close=False)
        assert server.address.host == "127.0.0.1" and server.port > 0
        qr = app.screen.query_one("#board-qr", Static)
        rows = str(qr.render()).splitlines()
        assert len(rows) <= 21 and max(len(row) for row in rows) <= 41
        assert set("".join(rows)) <= set(" ▀▄█")
        box = app.screen.query_one("#board-box").region
        assert box.right <= 80 and box.bottom <= 24
        assert qr.region.height == len(rows)  # nothing of the code is cut
        await key(pilot, "escape")
        assert isinstance(app.screen, TableScreen)
        port = server.port
    # The app closed the board on its way out: the port is closed.
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0


async def test_with_the_setting_off_the_key_opens_no_port(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app(board=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "b")
        assert isinstance(app.screen, TableScreen)
        assert app.board.server is None
        assert any("phone board is off" in message for message in toasts(app))


async def test_a_phone_follows_a_scripted_game_action_by_action(
    board_app: Callable[..., MindFlayerApp], phone: aiohttp.ClientSession
) -> None:
    app = board_app()
    async with app.run_test(size=(100, 30)) as pilot:
        server = await start_board(pilot)
        async with phone.get(server.url + "events") as events:
            first = await received(events)
            assert first == expected(app)
            assert first["phase"] == "table" and first["current"] == "Ann"

            async def step(*keys: str) -> dict[str, Any]:
                await key(pilot, *keys)
                got = await received(events)
                assert got == expected(app), keys
                state = state_of(app)
                assert got["turn"] == state.turn
                assert [s["in_play"] for s in got["seats"]] == [
                    seat not in state.knocked_out for seat in range(4)
                ]
                return got

            assert (await step("n"))["current"] == "Bob"
            meeting = await step("m")
            assert isinstance(app.screen, MeetingScreen)
            assert meeting["phase"] == "meeting" and meeting["meeting"]["number"] == 1
            assert (await step("3"))["meeting"]["sitting_out"] == ["Cy"]
            assert (await step("enter"))["meetings_done"] == 1
            assert (await step("n"))["current"] == "Dee"
            await knock_out(pilot, 0)
            got = await received(events)
            assert got == expected(app) and got["seats"][0]["in_play"] is False
            assert (await step("u"))["seats"][0]["in_play"] is True  # undo follows too
            assert (await step("r"))["seats"][0]["in_play"] is False
            await knock_out(pilot, 1)  # two left in play: the game ends
            finale = await received(events)
            assert finale == expected(app)
            assert finale["phase"] == "finale" and finale["over"] == "few_in_play"
            await key(pilot, "enter")
            assert (await received(events))["phase"] == "result"
            result_board = expected(app)
            assert "possessed" not in json.dumps(result_board)
            assert result_board["series"]["rows"] == []
            await declare(pilot, [2])
            assert isinstance(app.screen, SeriesScreen)
            board = await received(events)
            assert board == expected(app)
            assert board["series"]["played"] == 1 and board["series"]["last_winner"]
            assert board["bgstats_link"] is None
            await key(pilot, "e")  # BG Stats: the link reaches the phones too
            link = (await received(events))["bgstats_link"]
            assert link is not None and app.controller.play_export() is not None
            assert link == app.controller.play_export().link  # type: ignore[union-attr]
        async with phone.get(server.url + "snapshot.json") as response:
            snapshot = await response.json()
        assert snapshot["bgstats_link"] == link


async def test_twenty_phones_then_a_full_board_while_the_table_plays(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app()
    async with app.run_test(size=(100, 30)) as pilot:
        server = await start_board(pilot)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as phones:
            streams = [await phones.get(server.url + "events") for _ in range(20)]
            await asyncio.gather(*(next_event(stream) for stream in streams))
            async with phones.get(server.url + "events") as extra:
                assert extra.status == 503
            await key(pilot, "n")
            got = await asyncio.gather(*(received(stream) for stream in streams))
            assert all(one == expected(app) and one["current"] == "Bob" for one in got)
            for stream in streams:
                stream.close()


async def test_the_settings_switch_turns_the_board_on_and_off(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app(board=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await new_game(pilot, FOUR)

        async def switch_board() -> None:
            await key(pilot, "f2")
            switch = app.screen.query_one("#settings-board", Switch)
            switch.value = not switch.value
            await settled(pilot)
            await key(pilot, "ctrl+s")
            assert isinstance(app.screen, TableScreen)

        await switch_board()
        assert app.controller.settings.board
        await key(pilot, "b")
        await until(pilot, lambda: app.board.server is not None)
        server = app.board.server
        assert server is not None
        port = server.port
        await key(pilot, "escape")
        await switch_board()
        assert not app.controller.settings.board
        await until(pilot, lambda: app.board.server is None and not server.running)
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0


async def board_sentence(app: MindFlayerApp, pilot: Pilot[None]) -> str:
    """b on the table screen, and the sentence the dialog shows in place of the code."""
    await new_game(pilot, FOUR)
    await key(pilot, "b")
    assert isinstance(app.screen, BoardScreen)
    qr = app.screen.query_one("#board-qr", Static)
    await until(pilot, lambda: str(qr.render()) != "Starting…")
    assert app.board.server is None
    return str(qr.render())


async def test_a_taken_port_is_said_in_the_dialog_and_the_game_goes_on(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        app = board_app(port=port)
        async with app.run_test(size=(80, 24)) as pilot:
            sentence = await board_sentence(app, pilot)
            assert f"port {port} is already in use" in sentence
            assert "Settings (F2)" in sentence
            await key(pilot, "escape", "n")
            assert state_of(app).turn == 2


async def test_no_network_is_said_in_the_dialog(
    board_app: Callable[..., MindFlayerApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    import moderator.board.server as served

    # The fault injected: the laptop has no address but loopback (no Wi-Fi).
    monkeypatch.setattr(served, "lan_address", lambda: None)
    app = board_app(address="")
    async with app.run_test(size=(80, 24)) as pilot:
        sentence = await board_sentence(app, pilot)
    assert sentence == NO_NETWORK
