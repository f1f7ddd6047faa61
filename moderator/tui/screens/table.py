"""The main screen: whose turn, the turn number, Meetings so far, the table.

It keeps no game state of its own: `show` turns the table's snapshot into the
screen's reactives, and every widget is bound to one of them.
"""

from __future__ import annotations

import importlib
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from moderator.domain import rules
from moderator.i18n import N_, NP_, _
from moderator.table.board_host import REMOTE_OFF, TURNED_OFF, BoardHost
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import DrawMeeting, KnockOut, PassTurn
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.caption import Caption, FittedCaption
from moderator.tui.widgets.game_header import GameHeader
from moderator.tui.widgets.table_picture import PictureView, TablePicture


def meeting_pips(resolved: int) -> str:
    """● for each Meeting resolved, ○ for those to come (drawn big)."""
    return "●" * resolved + "○" * (rules.MEETINGS_PER_GAME - resolved)


class TableScreen(PlayScreen):
    """Turns, Meeting cards and knock-outs."""

    PHASE = Phase.TABLE
    #: The footer's keys by importance, and their short words for a narrow line.
    #: Undo stays at 80 columns: after a mistake it is the key a table needs most.
    FOOTER_KEEP = ("next-turn", "meeting", "knock-out", "undo", "menu", "mute", "settings", "redo")
    FOOTER_SHORT: ClassVar[dict[str, str]] = {
        "meeting": N_("Meeting"),
        "next-turn": NP_("footer", "Next turn"),
        "undo": NP_("footer", "Undo"),
    }
    FOOTER_EXTRA = ("redo",)
    #: "Turn", above its number (bound to `#table-turn-label`).
    turn_label: var[str] = var(N_("Turn"))
    #: The turn number, drawn big (bound to `#table-turn`).
    turn: var[str] = var("1")
    #: Whose seat plays, above the name, whole and short (bound to `#table-current-label`).
    current_label: var[tuple[str, ...]] = var(())
    #: Whose turn it is, drawn big (bound to `#table-current`).
    current_player: var[str] = var("")
    #: How many Meetings are done, in words, whole and short (bound to `#table-meetings-label`).
    meetings_label: var[tuple[str, ...]] = var(())
    #: The Meetings so far as pips (bound to `#table-meetings`).
    pips: var[str] = var("")
    #: The table seen from above (bound to `#table-picture`).
    picture: var[PictureView | None] = var(None)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "n,space",
            "next_turn",
            N_("Next turn"),
            id="next-turn",
            tooltip=N_("The turn passes clockwise"),
        ),
        Binding(
            "m", "meeting", N_("Meeting card"), id="meeting", tooltip=N_("A Meeting card was drawn")
        ),
        Binding(
            "k", "knock_out", N_("Knock out"), id="knock-out", tooltip=N_("A player is knocked out")
        ),
        Binding(
            "b",
            "phone_board",
            N_("Phone board"),
            id="phone-board",
            tooltip=N_("The public board on every phone at the table (a QR code)"),
            show=False,  # the footer at 80 columns is full; Help and Settings name it
        ),
        Binding(
            "p",
            "phone_remote",
            N_("Phone remote"),
            id="phone-remote",
            tooltip=N_("Any player passes the turn from their own phone (a QR code)"),
            show=False,  # as the board's key: Help and Settings name it
        ),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape", "menu", N_("Menu"), id="menu", tooltip=N_("Back to the start screen (saved)")
        ),
    ]

    def compose(self) -> ComposeResult:
        """Turn, whose turn, Meetings; then the table picture."""
        yield self.seat_picker()  # first (see `seat_picker`)
        yield GameHeader()
        with Horizontal(id="table-top"):
            with Vertical(id="table-turn-box"):
                yield Caption(id="table-turn-label", classes="caption").data_bind(
                    text=TableScreen.turn_label
                )
                # Block letters like the name: Digits drops to thin 3-row strokes at 80x24.
                yield BigText("1", id="table-turn").data_bind(text=TableScreen.turn)
            with Vertical(id="table-current-box"):
                yield FittedCaption(id="table-current-label", classes="caption").data_bind(
                    forms=TableScreen.current_label
                )
                yield BigText("", id="table-current").data_bind(text=TableScreen.current_player)
            with Vertical(id="table-meetings-box"):
                yield FittedCaption(id="table-meetings-label", classes="caption").data_bind(
                    forms=TableScreen.meetings_label
                )
                yield BigText("", id="table-meetings").data_bind(text=TableScreen.pips)
        yield TablePicture(id="table-picture").data_bind(view=TableScreen.picture)
        yield self.notice_strip()
        yield self.key_bar()

    def show(self, snapshot: TableSnapshot) -> None:
        """The game's state into the screen's reactives (nothing once no game is open)."""
        self.turn_label = _("Turn")
        state = snapshot.state
        if state is None:
            return
        self.turn = str(state.turn)
        # Whole where it fits one line, else shorter: wrapped, it ran into the big name.
        self.current_label = (
            _("Seat {seat}: your turn. Flip the top card.").format(seat=state.current + 1),
            _("Seat {seat}: your turn.").format(seat=state.current + 1),
        )
        self.current_player = state.players[state.current]
        done = state.meetings_resolved
        self.meetings_label = (
            _("Meetings done: {done} of {meetings}").format(
                done=done, meetings=rules.MEETINGS_PER_GAME
            ),
            _("Meetings: {done} of {meetings}").format(done=done, meetings=rules.MEETINGS_PER_GAME),
        )
        self.pips = meeting_pips(done)
        self.picture = PictureView(state)

    def language_changed(self) -> None:
        """The tiles and the picture's centre are drawn again in the new language."""
        self.picture = None  # the same state's view again would redraw nothing

    def action_next_turn(self) -> None:
        """The current player gave their Adventure card away: next player."""
        self.ask(PassTurn())

    def action_meeting(self) -> None:
        """The current player drew a Meeting card."""
        self.ask(DrawMeeting())

    def action_phone_board(self) -> None:
        """Start the phone board (when the settings allow it) and show its QR code."""
        host = getattr(self.app, "board", None)
        if not isinstance(host, BoardHost):
            return
        if not self.controller.settings.board:
            self.say(_(TURNED_OFF), severity="warning")
            return
        # The dialog's module loads on first use, as the app loads its dialogs.
        dialog = importlib.import_module("moderator.tui.dialogs.board").BoardScreen
        self.app.push_screen(dialog(host))

    def action_phone_remote(self) -> None:
        """Open the phone remote (when the settings allow it) and show its own QR code."""
        host = getattr(self.app, "board", None)
        if not isinstance(host, BoardHost):
            return
        if not self.controller.settings.remote:
            self.say(_(REMOTE_OFF), severity="warning")
            return
        # Loaded when the remote first opens, as the app loads its dialogs.
        remote = importlib.import_module("moderator.tui.remote").phone_remote(self.app)
        dialog = importlib.import_module("moderator.tui.dialogs.board").RemoteScreen
        self.app.push_screen(dialog(host, remote.press))

    def action_knock_out(self, highlight: int | None = None) -> None:
        """Ask who was knocked out (`highlight`: the seat to offer first)."""
        self.ask_seat(_("Who is knocked out?"), highlight, KnockOut)

    def on_table_picture_seat_chosen(self, message: TablePicture.SeatChosen) -> None:
        """A click on a tile offers to knock that player out."""
        state = self.controller.game_state
        if state is not None and message.seat not in state.knocked_out and not self.asking:
            self.action_knock_out(highlight=message.seat)
