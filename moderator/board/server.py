"""The board server: the public snapshot and its page, pushed to phones on the table's Wi-Fi.

It runs inside the app's own process, on its asyncio loop (aiohttp, a maintained
server: no HTTP parsing of ours). The board only reads: GET and nothing else, one
page, its CSS and scripts, its words in a language (`words.py`), the snapshot as
JSON, and a Server-Sent Events stream that pushes each new snapshot (EventSource
reconnects by itself). The remote, once opened, is the same under `/r/` with its
own token, plus one POST for a press (`remote_door.py` says what a press must
show). A shared Wi-Fi is not trusted: every path carries a random 128-bit
token (compared in constant time), the answers forbid caching, referrers and
any outside resource, at most `max_clients` streams are open at once and idle
connections are closed.

`publish` must be called on the loop the server runs on (the app's): the
Textual app calls it from its own handlers, which run there.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import json
import secrets
import socket
from dataclasses import dataclass
from importlib import resources

from aiohttp import web
from aiohttp.typedefs import Handler

from moderator.board.errors import BoardError
from moderator.board.presses import MAX_BODY, PressLimit, PressRefused
from moderator.board.remote_door import (
    REMOTE_INVALID,
    PressHandler,
    answer,
    checked_press,
    refused,
)
from moderator.board.snapshot import BoardSnapshot
from moderator.board.words import page_languages, page_words
from moderator.i18n import SOURCE_LANGUAGE, _

__all__ = [
    "BoardAddress",
    "BoardError",
    "BoardServer",
    "PressHandler",
    "lan_address",
    "new_token",
]

#: The `Server` header: the app, no versions (they only help someone attacking it).
SERVER_NAME = "mindflayer-moderator"

#: Streams served at once; a 21st phone is told the board is full.
MAX_CLIENTS = 20
#: Seconds an idle connection (no request) stays open.
IDLE_TIMEOUT = 15.0
#: Seconds between keep-alive comments on a quiet stream (a dead phone is noticed then).
HEARTBEAT = 10.0
#: Seconds a write to one phone may take before that phone is dropped.
WRITE_TIMEOUT = 5.0
#: A stream ends after this long; EventSource reconnects (and meets the token again).
STREAM_LIFETIME = 30 * 60.0
#: How soon (ms) a dropped phone's EventSource tries again.
RETRY_MS = 1000

#: The page's files, shipped in the package: name -> content type.
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "board.css": "text/css; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "remote.js": "text/javascript; charset=utf-8",
}

#: Sent with every answer, errors too.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}


@dataclass(frozen=True)
class BoardAddress:
    """Where the board listens: an interface address and a port (0: any free port)."""

    host: str
    port: int


def lan_address() -> str | None:
    """This laptop's address on the local network, or None when no network is up.

    A UDP socket is "connected" to a documentation address (TEST-NET-1): that
    only asks the kernel which interface would route there; nothing is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith(("127.", "0.")) else address


def new_token() -> str:
    """A random 128-bit token, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def _static(name: str) -> bytes:
    return resources.files("moderator.board").joinpath("static", name).read_bytes()


class BoardServer:
    """Serves the latest snapshot; start it on the app's loop, stop it before the loop ends."""

    def __init__(
        self,
        address: BoardAddress,
        *,
        token: str | None = None,
        max_clients: int = MAX_CLIENTS,
        idle_timeout: float = IDLE_TIMEOUT,
        heartbeat: float = HEARTBEAT,
        stream_lifetime: float = STREAM_LIFETIME,
    ) -> None:
        """`token`: the URL's secret (a new random one by default)."""
        self.address = address
        self.token = token or new_token()
        self.max_clients = max_clients
        self.idle_timeout = idle_timeout
        self.heartbeat = heartbeat
        self.stream_lifetime = stream_lifetime
        self._snapshot = BoardSnapshot(0, "start")
        self._frame = _frame(self._snapshot)
        self._changed = asyncio.Event()
        self._streams: set[web.StreamResponse] = set()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._closing = False
        self._files = {name: _static(name) for name in STATIC}
        #: The page's words per language, encoded once (a catalogue is read off the loop).
        self._words: dict[str, bytes] = {}
        self._languages = page_languages()
        #: The remote's own token (None: the remote is closed and `/r/` answers nothing).
        self._remote: str | None = None
        self._on_press: PressHandler | None = None
        self._press_limit = PressLimit()

    # --- what the app uses ----------------------------------------------------------

    @property
    def url(self) -> str:
        """The board's address with its token (what the QR code holds)."""
        host = self.address.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self._port}/b/{self.token}/"

    @property
    def remote_url(self) -> str | None:
        """The remote's address with its own token (None while the remote is closed)."""
        if self._remote is None:
            return None
        return self.url.replace(f"/b/{self.token}/", f"/r/{self._remote}/")

    @property
    def remote_token(self) -> str | None:
        """The remote's token (None while closed)."""
        return self._remote

    def open_remote(self, token: str, on_press: PressHandler) -> None:
        """Let phones holding `token` act, each press handed to `on_press`."""
        if token == self.token:
            raise ValueError("The remote's token must not be the read-only board's.")
        self._remote = token
        self._on_press = on_press

    def close_remote(self) -> None:
        """Refuse every press from now on and end the remote phones' streams at once."""
        self._remote = None
        self._on_press = None
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()  # each remote stream sees its token gone and ends

    @property
    def port(self) -> int:
        """The port listened on (known once started)."""
        return self._port

    @property
    def clients(self) -> int:
        """Phones following the board now."""
        return len(self._streams)

    @property
    def running(self) -> bool:
        """Whether the server is listening."""
        return self._runner is not None

    @property
    def snapshot(self) -> BoardSnapshot:
        """The snapshot phones are shown now."""
        return self._snapshot

    def publish(self, snapshot: BoardSnapshot) -> None:
        """Show `snapshot` on every phone (call on the server's loop)."""
        self._snapshot = snapshot
        self._frame = _frame(snapshot)  # encoded once, written to every phone
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def start(self) -> str:
        """Listen; the URL, or BoardError with a sentence (port taken, no such address)."""
        if self._runner is not None:
            return self.url
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BODY)
        app.on_response_prepare.append(self._headers)
        for base in ("/b/{token}/", "/r/{token}/"):  # the read-only board, the remote
            app.router.add_get(base, self._page, allow_head=False)
            for name in ("board.css", "board.js", "remote.js"):
                app.router.add_get(base + name, self._file(name), allow_head=False)
            app.router.add_get(base + "snapshot.json", self._json, allow_head=False)
            words = base + "words/{lang:[A-Za-z_-]{1,16}}.json"
            app.router.add_get(words, self._page_words, allow_head=False)
            app.router.add_get(base + "events", self._events, allow_head=False)
        app.router.add_post("/r/{token}/press", self._press)
        runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            keepalive_timeout=self.idle_timeout,
            shutdown_timeout=1.0,
        )
        await runner.setup()
        site = web.TCPSite(runner, self.address.host, self.address.port, backlog=self.max_clients)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise BoardError(self._bind_sentence(error)) from None
        server = site._server  # the asyncio server: its socket says which port it got
        sockets = getattr(server, "sockets", None) or ()
        self._port = int(sockets[0].getsockname()[1]) if sockets else self.address.port
        self._runner = runner
        self._closing = False
        return self.url

    async def stop(self) -> None:
        """Close every stream and the port."""
        runner, self._runner = self._runner, None
        if runner is None:
            return
        self._closing = True
        self._changed.set()
        await runner.cleanup()

    def _bind_sentence(self, error: OSError) -> str:
        where = f"{self.address.host}:{self.address.port}"
        if error.errno == errno.EADDRINUSE:
            return _(
                "The phone board could not start: port {port} is already "
                "in use on this laptop. Choose another board port in Settings (F2)."
            ).format(port=self.address.port)
        if error.errno in (errno.EADDRNOTAVAIL, errno.ENETDOWN, errno.ENETUNREACH):
            return _(
                "The phone board could not start: {host} is not an address "
                "of this laptop now (is the Wi-Fi connected?)."
            ).format(host=self.address.host)
        return _("The phone board could not start on {where}: {error}.").format(
            where=where, error=error.strerror or error
        )

    # --- answers --------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The board: GET only, with its token. The remote: its own token, POST only to press.

        Tokens are compared in constant time. The read-only board's token opens
        nothing under `/r/`, and nothing under `/b/` acts.
        """
        given = request.match_info.get("token", "")
        if request.path.startswith("/r/"):
            token = self._remote
            if token is None or not hmac.compare_digest(given.encode(), token.encode()):
                raise refused(403, _(REMOTE_INVALID))
            if request.method not in ("GET", "POST"):
                raise refused(405, _("The remote takes only GET and POST."), request.method)
            return await handler(request)
        if request.method != "GET":
            raise web.HTTPMethodNotAllowed(request.method, ["GET"], text="Read only.")
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            raise web.HTTPForbidden(text="This board link is not valid: scan the laptop's code.")
        return await handler(request)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        # Set before aiohttp's own default, which names Python's and aiohttp's versions.
        response.headers["Server"] = SERVER_NAME

    async def _page(self, request: web.Request) -> web.Response:
        return self._answer("index.html")

    def _file(self, name: str) -> Handler:
        async def serve(request: web.Request) -> web.Response:
            return self._answer(name)

        return serve

    def _answer(self, name: str) -> web.Response:
        content_type, _, charset = STATIC[name].partition("; charset=")
        return web.Response(body=self._files[name], content_type=content_type, charset=charset)

    async def _json(self, request: web.Request) -> web.Response:
        return web.Response(text=self._snapshot.to_json(), content_type="application/json")

    async def _page_words(self, request: web.Request) -> web.Response:
        """The page's words in a language (the snapshot's `lang`), from the catalogues."""
        lang = request.match_info["lang"]
        if lang not in self._languages:  # a language without a catalogue reads English
            lang = SOURCE_LANGUAGE  # (and the cache holds one entry per catalogue, no more)
        data = self._words.get(lang)
        if data is None:
            words = await asyncio.to_thread(page_words, lang)
            data = json.dumps(words, ensure_ascii=False, separators=(",", ":")).encode()
            self._words[lang] = data
        return web.Response(body=data, content_type="application/json", charset="utf-8")

    async def _press(self, request: web.Request) -> web.Response:
        """One press of a remote phone: checked at the door, acted on by `on_press`, answered."""
        token, on_press = self._remote, self._on_press
        try:
            if token is None or on_press is None:
                raise PressRefused(403, _(REMOTE_INVALID))
            press = await checked_press(request, token, self._press_limit)
            sentence = await on_press(press)
        except PressRefused as refusal:
            return answer(refusal.status, refusal.sentence)
        return answer(200, sentence)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The snapshot now, then each new one, as Server-Sent Events."""
        if len(self._streams) >= self.max_clients:
            raise web.HTTPServiceUnavailable(
                text=f"The board already has {self.max_clients} phones.",
                headers={"Retry-After": "30"},
            )
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        self._streams.add(stream)
        remote = request.match_info["token"] if request.path.startswith("/r/") else None
        try:
            # A phone that went away or stopped reading ends its stream here; its
            # EventSource reconnects by itself if it can.
            with contextlib.suppress(ConnectionError, TimeoutError):
                await stream.prepare(request)
                await self._write(stream, f"retry: {RETRY_MS}\n\n".encode())
                await self._follow(stream, remote)
        finally:
            self._streams.discard(stream)
        return stream

    async def _follow(self, stream: web.StreamResponse, remote: str | None = None) -> None:
        """Write each new snapshot; a remote's stream ends as soon as its token is closed."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + self.stream_lifetime
        sent = -1
        while not self._closing and loop.time() < ends:
            if remote is not None and self._remote != remote:
                return
            seq, frame, changed = self._snapshot.seq, self._frame, self._changed
            if seq != sent:
                await self._write(stream, frame)
                sent = seq
                continue
            try:
                await asyncio.wait_for(changed.wait(), self.heartbeat)
            except TimeoutError:
                await self._write(stream, b": still here\n\n")

    async def _write(self, stream: web.StreamResponse, data: bytes) -> None:
        await asyncio.wait_for(stream.write(data), WRITE_TIMEOUT)


def _frame(snapshot: BoardSnapshot) -> bytes:
    """One Server-Sent Event carrying `snapshot` (JSON has no raw newline to split it)."""
    return f"id: {snapshot.seq}\ndata: {snapshot.to_json()}\n\n".encode()
