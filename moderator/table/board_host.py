"""The phone board inside the app: the server on the app's loop, fed by the controller.

The app owns one `BoardHost`. Nothing listens until the table turns the board on
(Settings) and presses its key on the table screen; from then on, after every
action the controller answered, the host builds the public snapshot from what
the laptop shows (`moderator.board.snapshot`) and hands it to the server, which
pushes it to every phone. A snapshot that shows the same board as the last one
is not sent again.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING

from moderator.board.errors import BoardError
from moderator.i18n import N_, _
from moderator.table.board_token import token_for_series
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.ports import ACTION_ERRORS

if TYPE_CHECKING:
    from moderator.board.server import BoardServer
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


class BoardHost:
    """Starts and stops the board server and publishes the controller's public state."""

    def __init__(self, controller: TableController) -> None:
        self._controller = controller
        self._server: BoardServer | None = None
        self._last: BoardSnapshot | None = None
        self._leaderboard: LeaderboardView | None = None
        controller.publish_to(self.publish)

    @property
    def server(self) -> BoardServer | None:
        """The running server (None while the board is off)."""
        return self._server

    async def start(self) -> str:
        """Start (or keep) the board; its URL, or BoardError with a sentence for the table."""
        if self._server is not None:
            return self._server.url
        settings = self._controller.settings
        if not settings.board:
            raise BoardError(_(TURNED_OFF))
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
        snapshot = self.snapshot(self._last.seq + 1 if self._last is not None else 1)
        if snapshot.same_view(self._last):
            return
        self._last = snapshot
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
