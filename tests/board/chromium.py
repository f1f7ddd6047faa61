"""Headless Chromium (Debian's `chromium`) driven over the DevTools protocol, for the board tests.

Chromium runs with a fresh profile in the test's temp folder and every
background service off (no network but the board on loopback); it says where
its DevTools socket is on stderr, and the test talks to one page through it
(aiohttp's WebSocket client, so no other dependency).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from tests.tui.tmux import required_program

#: The flags of a quiet, offline, throwaway browser.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-proxy-server",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
)
#: An upper bound for Chromium to answer, so a broken browser fails the test instead of hanging.
GUARD = 60


def chromium_binary() -> str:
    """The chromium command; skips where it is missing (fails where CI requires it)."""
    return required_program("chromium", "chromium is not installed: apt-get install chromium")


class Page:
    """One page of the browser, attached by a flat DevTools session."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, session: str) -> None:
        self._socket = socket
        self._session = session
        #: Events read while waiting for an answer, oldest first.
        self._events: list[str] = []

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        return await _call(self._socket, method, params, self._session, self._events)

    async def load(self, url: str, before: str = "") -> None:
        """Open `url` and wait for its load event; `before` runs ahead of the page's scripts."""
        await self.send("Page.enable")
        if before:
            await self.send("Page.addScriptToEvaluateOnNewDocument", source=before)
        self._events.clear()
        await self.send("Page.navigate", url=url)
        while "Page.loadEventFired" not in self._events:
            reply = json.loads(await asyncio.wait_for(self._socket.receive_str(), GUARD))
            if "method" in reply:
                self._events.append(reply["method"])

    async def evaluate(self, expression: str) -> Any:
        """The value of `expression` (a promise is awaited)."""
        answer = await self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in answer:
            raise AssertionError(answer["exceptionDetails"])
        return answer["result"].get("value")


_ids = itertools.count(1)


async def _call(
    socket: aiohttp.ClientWebSocketResponse,
    method: str,
    params: dict[str, Any],
    session: str | None = None,
    events: list[str] | None = None,
) -> dict[str, Any]:
    """Send one command and read until its answer (events in between noted in `events`)."""
    ident = next(_ids)
    message: dict[str, Any] = {"id": ident, "method": method, "params": params}
    if session is not None:
        message["sessionId"] = session
    await socket.send_str(json.dumps(message))
    while True:
        reply = json.loads(await asyncio.wait_for(socket.receive_str(), GUARD))
        if "method" in reply and events is not None:
            events.append(reply["method"])
        if reply.get("id") == ident:
            if "error" in reply:
                raise AssertionError(f"{method}: {reply['error']}")
            result: dict[str, Any] = reply.get("result", {})
            return result


@asynccontextmanager
async def chromium_page(profile: Path, width: int, height: int) -> AsyncIterator[Page]:
    """A fresh headless Chromium with one page of `width` x `height` CSS pixels (a phone)."""
    process = await asyncio.create_subprocess_exec(
        chromium_binary(),
        *FLAGS,
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
        "about:blank",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    drain: asyncio.Task[None] | None = None
    try:
        url = ""
        while not url:
            line = await asyncio.wait_for(process.stderr.readline(), GUARD)
            if not line:
                raise AssertionError("chromium ended before it opened its DevTools socket")
            text = line.decode(errors="replace").strip()
            if text.startswith("DevTools listening on "):
                url = text.removeprefix("DevTools listening on ")
        stderr = process.stderr

        async def read_rest() -> None:
            """Keep its pipe empty so Chromium never blocks on a log line."""
            while await stderr.readline():
                continue

        drain = asyncio.create_task(read_rest())
        async with (
            aiohttp.ClientSession() as client,
            client.ws_connect(url, max_msg_size=0) as socket,
        ):
            target = await _call(socket, "Target.createTarget", {"url": "about:blank"})
            attached = await _call(
                socket, "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
            )
            page = Page(socket, attached["sessionId"])
            await page.send(
                "Emulation.setDeviceMetricsOverride",
                width=width,
                height=height,
                deviceScaleFactor=2,
                mobile=True,
            )
            yield page
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()
        if drain is not None:
            await drain
