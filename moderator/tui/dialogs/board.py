"""The phone board's dialog: starts the board and shows its QR code and address.

Opened by `b` on the table screen. Starting the server (binding a port) runs
on the app's loop as a worker, so the dialog shows at once and the QR code
follows; a port already taken or no network is a sentence here, and nothing
else changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from moderator.board.errors import BoardError
from moderator.i18n import N_, _
from moderator.table.board_host import BoardHost

if TYPE_CHECKING:
    from moderator.board.server import PressHandler
from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.widgets.qr_code import qr_text


class BoardScreen(DialogScreen[None]):
    """The board's QR code and short URL; any key of its own closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,b", "close", N_("Close"), id="board-close"),
    ]

    def __init__(self, host: BoardHost) -> None:
        super().__init__()
        self.host = host

    #: The dialog's title (a msgid, shown in the table's language).
    TITLE = N_("Phone board: scan to follow the game")

    def compose(self) -> ComposeResult:
        """Title, the code, the address (literal text)."""
        with Vertical(id="board-box"):
            yield Static(_(self.TITLE), id="board-title", markup=False)
            yield Static(_("Starting…"), id="board-qr", markup=False)
            yield Static("", id="board-url", markup=False)

    def on_mount(self) -> None:
        """Start the board (or find it running)."""
        self._start()

    @work(exclusive=True, exit_on_error=False)
    async def _start(self) -> None:
        qr = self.query_one("#board-qr", Static)
        url_line = self.query_one("#board-url", Static)
        try:
            url = await self._open()
        except BoardError as error:
            qr.update(str(error))
            return
        qr.update(qr_text(url))
        url_line.update(url)

    async def _open(self) -> str:
        """Start the board; its URL (BoardError: a sentence for the table)."""
        return await self.host.start()

    def action_close(self) -> None:
        """Back to the table (the board keeps running)."""
        self.dismiss(None)


class RemoteScreen(BoardScreen):
    """The remote's own QR code and address (its token is not the read-only board's).

    Opened by `p` on the table screen; the same box as the board's, so it fits
    80x24 the same way.
    """

    TITLE = N_("Phone remote: scan to pass the turn from your phone")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,p", "close", N_("Close"), id="remote-close"),
    ]

    def __init__(self, host: BoardHost, on_press: PressHandler) -> None:
        super().__init__(host)
        self.on_press = on_press

    async def _open(self) -> str:
        """Open the remote (starting the server if needed); its own URL."""
        return await self.host.open_remote(self.on_press)
