"""The board server on loopback: token, GET only, headers, SSE push, limits, sentences."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest

from moderator.board.server import (
    SECURITY_HEADERS,
    BoardAddress,
    BoardError,
    BoardServer,
    lan_address,
    new_token,
)
from moderator.board.snapshot import build_snapshot
from moderator.domain import TurnPassed, apply, new_game

FOUR = ("Ann", "Bob", "Cy", "Dee")
#: An upper bound only, so a broken server fails instead of hanging (never a timing assert).
GUARD = 30


@pytest.fixture
async def server() -> AsyncIterator[BoardServer]:
    board = BoardServer(BoardAddress("127.0.0.1", 0))
    await board.start()
    yield board
    await board.stop()


@pytest.fixture
async def client() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def next_event(response: aiohttp.ClientResponse) -> str:
    """The data of the next Server-Sent Event (comments and retry lines skipped)."""
    data = ""
    while True:
        line = (await asyncio.wait_for(response.content.readline(), GUARD)).decode()
        if line == "":
            raise EOFError("the stream ended")
        if line == "\n" and data:
            return data
        if line.startswith("data: "):
            data += line[len("data: ") :].rstrip("\n")


def test_the_token_is_128_random_bits() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(token) == 22 for token in tokens)  # 16 bytes, URL-safe base64


async def test_the_page_its_files_and_the_snapshot_are_served(
    server: BoardServer, client: aiohttp.ClientSession
) -> None:
    assert server.url.startswith("http://127.0.0.1:") and server.port > 0
    for path, kind in [
        ("", "text/html"),
        ("board.css", "text/css"),
        ("board.js", "text/javascript"),
        ("snapshot.json", "application/json"),
    ]:
        async with client.get(server.url + path) as response:
            assert response.status == 200, path
            assert response.content_type == kind
            for name, value in SECURITY_HEADERS.items():
                assert response.headers[name] == value, (path, name)
    async with client.get(server.url) as response:
        page = await response.text()
    assert "http" not in page.replace('name="viewport"', "")  # no CDN, nothing from outside


@pytest.mark.parametrize("token", ["", "x", "0" * 22, "A" * 200, "%00", "..%2F..%2Fetc%2Fpasswd"])
async def test_a_wrong_token_is_refused_with_the_same_headers(
    server: BoardServer, client: aiohttp.ClientSession, token: str
) -> None:
    for path in ("", "snapshot.json", "events", "board.js"):
        url = f"http://127.0.0.1:{server.port}/b/{token}/{path}"
        async with client.get(url) as response:
            assert response.status in (403, 404), url
            assert response.headers["Cache-Control"] == "no-store"
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert "Ann" not in await response.text()


async def test_only_get_is_answered(server: BoardServer, client: aiohttp.ClientSession) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"):
        async with client.request(method, server.url + "snapshot.json") as response:
            assert response.status == 405, method
            assert response.headers["Allow"] == "GET"


async def test_each_snapshot_is_pushed_to_a_following_phone(
    server: BoardServer, client: aiohttp.ClientSession
) -> None:
    state = new_game(FOUR, 0)
    async with client.get(server.url + "events") as events:
        assert events.content_type == "text/event-stream"
        assert events.headers["Cache-Control"] == "no-store"
        first = await next_event(events)
        assert '"seq":0' in first
        server.publish(build_snapshot(1, "table", state))
        assert '"current":"Ann"' in await next_event(events)
        server.publish(build_snapshot(2, "table", apply(state, TurnPassed())))
        assert '"current":"Bob"' in await next_event(events)
    async with client.get(server.url + "snapshot.json") as response:
        assert (await response.json())["current"] == "Bob"


async def test_a_21st_phone_is_told_the_board_is_full(client: aiohttp.ClientSession) -> None:
    board = BoardServer(BoardAddress("127.0.0.1", 0), max_clients=20)
    await board.start()
    connector = aiohttp.TCPConnector(limit=0)
    try:
        async with aiohttp.ClientSession(connector=connector) as phones:
            streams = [await phones.get(board.url + "events") for _ in range(20)]
            for stream in streams:
                await next_event(stream)
            assert board.clients == 20
            async with phones.get(board.url + "events") as extra:
                assert extra.status == 503
                assert "20 phones" in await extra.text()
            streams[0].close()
            # A phone that leaves frees its place (the server notices on its next write).
            board.publish(build_snapshot(1, "table", new_game(FOUR, 0)))
            while board.clients == 20:
                await asyncio.sleep(0.01)  # polling a condition, not waiting on luck
            async with phones.get(board.url + "events") as again:
                assert again.status == 200
            for stream in streams[1:]:
                stream.close()
    finally:
        await board.stop()
    assert board.clients == 0


async def test_stop_ends_every_stream_and_closes_the_port(client: aiohttp.ClientSession) -> None:
    board = BoardServer(BoardAddress("127.0.0.1", 0))
    await board.start()
    port = board.port
    events = await client.get(board.url + "events")
    await next_event(events)
    await asyncio.wait_for(board.stop(), GUARD)
    with pytest.raises((EOFError, aiohttp.ClientPayloadError)):
        await next_event(events)
    events.close()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0


async def test_an_idle_connection_is_closed() -> None:
    board = BoardServer(BoardAddress("127.0.0.1", 0), idle_timeout=0.2)
    await board.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", board.port)
        # Sends nothing: the server closes it (read returns b"" at EOF).
        assert await asyncio.wait_for(reader.read(100), GUARD) == b""
        writer.close()
    finally:
        await board.stop()


async def test_a_taken_port_is_a_sentence(server: BoardServer) -> None:
    second = BoardServer(BoardAddress("127.0.0.1", server.port))
    with pytest.raises(BoardError, match=f"port {server.port} is already in use"):
        await second.start()
    assert not second.running


async def test_an_address_not_on_this_laptop_is_a_sentence() -> None:
    # TEST-NET-3 (documentation range): bind() fails at once, nothing is sent.
    board = BoardServer(BoardAddress("203.0.113.7", 0))
    with pytest.raises(BoardError, match="is not an address of this laptop"):
        await board.start()


def test_the_lan_address_is_never_loopback() -> None:
    address = lan_address()
    assert address is None or not address.startswith("127.")


async def test_the_server_header_names_no_versions(
    server: BoardServer, client: aiohttp.ClientSession
) -> None:
    """aiohttp's default (`Python/3.x aiohttp/3.y`) told an attacker what to try."""
    for url in (server.url, server.url + "snapshot.json", f"http://127.0.0.1:{server.port}/x"):
        async with client.get(url) as response:
            assert response.headers["Server"] == "mindflayer-moderator", url
