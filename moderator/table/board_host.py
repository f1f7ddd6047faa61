"""The phone board inside the app: the server on the app's loop, fed by the controller.

The app owns one `BoardHost`. Nothing listens until the table turns the board on
(Settings) and presses its key on the table screen; from then on, after every
action the controller answered, the host builds the public snapshot from what
the laptop shows (`moderator.board.snapshot`) and hands it to the server, which
pushes it to every phone. A snapshot that shows the same board as the last one
is not sent again.

The remote (issue 36) is the same server with a token of its own: opened by its
key when the settings allow it, closed at once when they stop allowing it, and
closed when a new series opens (the next one gets a new token). The host keeps
the last boards it published, so a press made on an older one can be told what
changed since (`moderator.board.presses.what_changed`).
"""

from __future__ import annotations

import asyncio
import importlib
from collections import OrderedDict
from typing import TYPE_CHECKING

from moderator.board.errors import BoardError
from moderator.i18n import N_, _
from moderator.table.board_token import token_for_series
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.ports import ACTION_ERRORS

if TYPE_CHECKING:
    from moderator.board.server import BoardServer, PressHandler
    from moderator.board.snapshot import BoardSnapshot, LeaderboardView

#: The server's module, imported off the UI thread when the board first starts:
#: with aiohttp it is too slow for the app's start-up or the loop (docs/measurements.md).
SERVER_MODULE = "moderator.board.server"

#: The table's sentences (marked here, translated where raised or shown).
NO_NETWORK = N_(
    "The phone board needs a network: connect the laptop to the table's Wi-Fi "
    "(or set a board address in settings.json)."
)
TURNED_OFF = N_("The phone board is off: turn it on in Settings (F2), then press b again.")
REMOTE_OFF = N_("The phone remote is off: turn it on in Settings (F2), then press p again.")
#: Boards remembered to tell a stale press what changed (older ones: "the table moved on").
REMEMBERED = 64


class BoardHost:
    """Starts and stops the board server and publishes the controller's public state."""

    def __init__(self, controller: TableController) -> None:
        self._controller = controller
        self._server: BoardServer | None = None
        self._last: BoardSnapshot | None = None
        self._leaderboard: LeaderboardView | None = None
        #: The last boards published, by seq (oldest first).
        self._recent: OrderedDict[int, BoardSnapshot] = OrderedDict()
        #: The series the remote's token belongs to (a new series closes the remote).
        self._remote_series: int | None = None
        controller.publish_to(self.publish)

    @property
    def server(self) -> BoardServer | None:
        """The running server (None while the board is off)."""
        return self._server

    @property
    def last(self) -> BoardSnapshot | None:
        """The board the phones were sent last (None before the board started)."""
        return self._last

    def seen(self, seq: int) -> BoardSnapshot | None:
        """The board published as `seq`, if it is recent enough to be remembered."""
        return self._recent.get(seq)

    async def start(self) -> str:
        """Start (or keep) the board; its URL, or BoardError with a sentence for the table."""
        if not self._controller.settings.board:
            raise BoardError(_(TURNED_OFF))
        return await self._serve()

    async def open_remote(self, on_press: PressHandler) -> str:
        """Let phones act: the remote's URL (its own token), or BoardError with a sentence.

        The server starts if it was not running; the token stays the same until the
        remote is closed or a new series opens.
        """
        if not self._controller.settings.remote:
            raise BoardError(_(REMOTE_OFF))
        await self._serve()
        server = self._server
        assert server is not None
        series = self._controller.series_id
        if server.remote_token is None or series != self._remote_series:
            served = importlib.import_module(SERVER_MODULE)
            server.open_remote(served.new_token(), on_press)
            self._remote_series = series
        url = server.remote_url
        assert url is not None
        return url

    def close_remote(self) -> None:
        """No phone acts from now on: presses are refused, remote streams end at once."""
        if self._server is not None:
            self._server.close_remote()
        self._remote_series = None

    async def _serve(self) -> str:
        if self._server is not None:
            return self._server.url
        settings = self._controller.settings
        served = await asyncio.to_thread(importlib.import_module, SERVER_MODULE)
        host = settings.board_address or await asyncio.to_thread(served.lan_address)
        if host is None:
            raise BoardError(_(NO_NETWORK))
        if self._server is not None:  # started meanwhile (the key pressed twice)
            return self._server.url
        # The series' own token: after a crash and Resume the phones' link still works.
        token = await asyncio.to_thread(
            token_for_series, self._controller.config_dir, self._controller.series_id
        )
        server: BoardServer = served.BoardServer(
            served.BoardAddress(host, settings.board_port), token=token
        )
        url = await server.start()
        self._server = server
        self._last = None
        self._recent.clear()
        self.publish()
        return url

    async def stop(self) -> None:
        """Close the port and every phone's stream."""
        server, self._server = self._server, None
        if server is not None:
            await server.stop()

    def show_leaderboard(self, view: LeaderboardView | None) -> None:
        """Tonight's table's leaderboard for the series phase (counted off the UI thread by
        the series board, which shows the same); sent at once if the board is on."""
        self._leaderboard = view
        self.publish()

    def publish(self) -> None:
        """Send the board as the laptop shows it now (nothing when it is off or unchanged)."""
        server = self._server
        if server is None:
            return
        if server.remote_token is not None and self._controller.series_id != self._remote_series:
            self.close_remote()  # a new series: the old remote code acts no more
        snapshot = self.snapshot(self._last.seq + 1 if self._last is not None else 1)
        if snapshot.same_view(self._last):
            return
        self._last = snapshot
        self._recent[snapshot.seq] = snapshot
        while len(self._recent) > REMEMBERED:
            self._recent.popitem(last=False)
        server.publish(snapshot)

    def snapshot(self, seq: int) -> BoardSnapshot:
        """The public board for the controller's state now."""
        # Loaded on the board's first snapshot, not on the way to the app's first frame.
        from moderator.board.snapshot import build_snapshot, series_view

        controller = self._controller
        phase = controller.phase
        series = None
        link = None
        if phase is Phase.SERIES:
            try:
                games = controller.series_games()
            except ACTION_ERRORS:
                games = []
            last = games[-1].winner.value if games else ""
            series = series_view([game.points for game in games], last)
            export = controller.play_export()
            link = export.link if export is not None else None
        return build_snapshot(
            seq,
            phase.value,
            controller.game_state,
            game_number=controller.game_number,
            series=series,
            eyes_closed=phase is Phase.REVEAL and controller.speaking,
            bgstats_link=link,
            lang=controller.settings.lang,
            leaderboard=self._leaderboard,
        )
