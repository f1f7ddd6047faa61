"""The remote's door on loopback: its own token, in a header, same origin, small, few a second.

A press handler records what got through (the fault-free table is tested with the
real app in `test_remote_phones.py`); here each way in a stranger could try on a
shared Wi-Fi must be refused with a status and a sentence, and reach nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from moderator.board.presses import Press, PressLimit, PressRefused, read_press
from moderator.board.server import BoardAddress, BoardServer, new_token
from tests.board.test_server import GUARD, client, next_event

__all__ = ["client"]


class Table:
    """Records the presses the server let through; answers as the table would."""

    def __init__(self) -> None:
        self.presses: list[Press] = []

    async def press(self, press: Press) -> str:
        self.presses.append(press)
        if press.seq != 1:
            raise PressRefused(409, "Ben already passed the turn.")
        return "Done."


@pytest.fixture
async def remote() -> AsyncIterator[tuple[BoardServer, Table]]:
    board = BoardServer(BoardAddress("127.0.0.1", 0))
    await board.start()
    table = Table()
    board.open_remote(new_token(), table.press)
    yield board, table
    await board.stop()


def origin(server: BoardServer) -> str:
    return f"http://127.0.0.1:{server.port}"


async def send(
    client: aiohttp.ClientSession,
    server: BoardServer,
    body: Any = None,
    *,
    token: str | None = None,
    header: str | None = None,
    from_origin: str | None = "",
    data: bytes | None = None,
    content_type: str = "application/json",
    phone: str = "phone-1",
) -> tuple[int, dict[str, Any]]:
    """POST a press; the status and the JSON answer."""
    path_token = token if token is not None else server.remote_token
    headers = {"Content-Type": content_type, "X-Remote-Phone": phone}
    if header is not None or server.remote_token is not None:
        headers["X-Remote-Token"] = header if header is not None else str(server.remote_token)
    if from_origin is not None:
        headers["Origin"] = from_origin or origin(server)
    payload = data if data is not None else json.dumps(body or {"action": "next_turn", "seq": 1})
    url = f"{origin(server)}/r/{path_token}/press"
    async with client.post(url, data=payload, headers=headers) as response:
        return response.status, await response.json(content_type=None)


async def test_a_press_with_its_token_in_the_header_from_its_page_gets_through(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    assert await send(client, server) == (200, {"ok": True, "sentence": "Done."})
    assert table.presses == [Press("next_turn", 1)]
    status, answer = await send(client, server, {"action": "next_turn", "seq": 0})
    assert (status, answer["sentence"]) == (409, "Ben already passed the turn.")


async def test_the_remote_token_is_its_own_and_the_boards_acts_nowhere(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    assert server.remote_token != server.token
    assert server.remote_url is not None and server.token not in server.remote_url
    # The read-only token, under /r/ and in the header.
    status, answer = await send(client, server, token=server.token, header=server.token)
    assert status == 403 and "not open" in answer["sentence"]
    # The read-only board takes no POST at all.
    async with client.post(server.url + "press", data=b"{}") as response:
        assert response.status == 405
    assert table.presses == []


async def test_a_wrong_or_missing_header_token_is_refused(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    status, answer = await send(client, server, header="x" * 22)
    assert status == 403 and answer["sentence"]
    status, _answer = await send(client, server, header="")
    assert status == 403
    status, _answer = await send(client, server, token="y" * 22)  # wrong in the path
    assert status == 403
    assert table.presses == []


async def test_another_origin_or_none_is_refused(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    for other in ("http://evil.example", f"http://127.0.0.1:{server.port + 1}", "null"):
        status, answer = await send(client, server, from_origin=other)
        assert status == 403 and "own page" in answer["sentence"], other
    status, _answer = await send(client, server, from_origin=None)
    assert status == 403
    assert table.presses == []


async def test_a_preflight_is_refused_so_no_other_site_can_send_the_header(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, _table = remote
    url = f"{origin(server)}/r/{server.remote_token}/press"
    headers = {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
    async with client.options(url, headers=headers) as response:
        assert response.status in (403, 405)  # refused: the browser sends nothing after it
        assert "Access-Control-Allow-Origin" not in response.headers


async def test_big_odd_or_unknown_bodies_are_refused_with_a_sentence(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    status, answer = await send(client, server, data=b"{" + b" " * 4000 + b"}")
    assert status == 413 and answer["sentence"]
    status, _answer = await send(client, server, content_type="text/plain")
    assert status == 415
    for phone, body in enumerate(
        (
            b"not json",
            b'{"action": "reveal", "seq": 1}',
            b'{"action": "knock_out", "seq": 1}',
            b'{"action": "next_turn", "seq": true}',
            b'{"action": "next_turn", "seq": 1, "name": "[b]x[/b]"}',
            b"\xff\xfe",
        )
    ):
        status, answer = await send(client, server, data=body, phone=str(phone))
        assert status == 400 and "reload" in answer["sentence"], body
        assert "[b]" not in answer["sentence"]  # nothing the phone sent comes back
    assert table.presses == []


async def test_a_phone_is_held_to_a_few_presses_a_second(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, table = remote
    statuses = [(await send(client, server, phone="fast"))[0] for _ in range(6)]
    assert statuses[:4] == [200] * 4 and statuses[4:] == [429, 429]
    assert (await send(client, server, phone="another"))[0] == 200  # another phone
    assert len(table.presses) == 5


def test_the_limit_forgets_the_oldest_phone_first() -> None:
    limit = PressLimit(per_second=1, phones=2)
    assert limit.allow("a", 0.0) and not limit.allow("a", 0.5) and limit.allow("a", 1.5)
    assert limit.allow("b", 2.0) and limit.allow("c", 2.0)
    assert limit.allow("a", 2.0)  # "a" was forgotten: the memory holds two phones


def test_a_press_is_read_strictly() -> None:
    assert read_press(b'{"action":"sit_out","seq":3,"seat":2}') == Press("sit_out", 3, 2)
    with pytest.raises(PressRefused):
        read_press(b'{"action":"next_turn","seq":3,"seat":2}')
    with pytest.raises(PressRefused):
        read_press(b'{"action":"sit_out","seq":3,"seat":99}')


async def test_closing_the_remote_refuses_at_once_and_ends_its_streams(
    remote: tuple[BoardServer, Table], client: aiohttp.ClientSession
) -> None:
    server, _table = remote
    url = server.remote_url
    assert url is not None
    async with client.get(url + "events") as events:
        await next_event(events)
        async with client.get(server.url + "events") as board_events:
            await next_event(board_events)
            token = server.remote_token
            server.close_remote()
            # The remote's stream ends; the read-only board's goes on.
            line = b"-"
            while line:
                line = await asyncio.wait_for(events.content.readline(), GUARD)
            assert not board_events.content.at_eof()
    async with client.get(url) as page:
        assert page.status == 403
    status, _answer = await send(client, server, token=token, header=token)
    assert status == 403
