"""The main screen: whose turn, the turn number, Meetings so far, the table.

It keeps no game state of its own: `refresh_state` redraws everything from
the saved game's `GameState`.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Footer, Header, Static

from moderator.domain import MeetingStarted, PlayerKnockedOut, TurnPassed, rules
from moderator.tui.screens.base import PlayScreen
from moderator.tui.screens.pick_player import PickPlayerScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.table_picture import TablePicture


def meeting_pips(resolved: int) -> str:
    """● for each Meeting resolved, ○ for those to come (drawn big)."""
    return "●" * resolved + "○" * (rules.MEETINGS_PER_GAME - resolved)


class TableScreen(PlayScreen):
    """Turns, Meeting cards and knock-outs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "n,space", "next_turn", "Next turn", id="next-turn", tooltip="The turn passes clockwise"
        ),
        Binding("m", "meeting", "Meeting card", id="meeting", tooltip="A Meeting card was drawn"),
        Binding("k", "knock_out", "Knock out", id="knock-out", tooltip="A player is knocked out"),
        *PlayScreen.UNDO_BINDINGS,
        Binding("escape", "menu", "Menu", id="menu", tooltip="Back to the start screen (saved)"),
    ]

    def compose(self) -> ComposeResult:
        """Turn, whose turn, Meetings; then the table picture."""
        yield Header()
        with Horizontal(id="table-top"):
            with Vertical(id="table-turn-box"):
                yield Static("Turn", classes="caption")
                yield Digits("1", id="table-turn")
            with Vertical(id="table-current-box"):
                yield Static("", id="table-current-label", markup=False, classes="caption")
                yield BigText("", id="table-current")
            with Vertical(id="table-meetings-box"):
                yield Static("", id="table-meetings-label", markup=False, classes="caption")
                yield BigText("", id="table-meetings")
        yield TablePicture(id="table-picture")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the saved state."""
        self.refresh_state()

    def refresh_state(self) -> None:
        """Redraw from the game's state.

        Nothing to draw once the game is closed, nor on a screen not composed
        yet or already emptied: keys in a burst can show this screen and leave
        it (even start a new series) before it has mounted.
        """
        if self.session.game is None or not self.query("#table-turn"):
            return
        state = self.session.state
        game = self.session.game
        if game is not None:
            self.sub_title = f"Game {game.number} of {rules.GAMES_PER_SERIES}"
        self.query_one("#table-turn", Digits).update(str(state.turn))
        self.query_one("#table-current-label", Static).update(
            f"Seat {state.current + 1}: your turn. Flip the top card."
        )
        self.query_one("#table-current", BigText).text = state.players[state.current]
        self.query_one("#table-meetings-label", Static).update(
            f"Meetings done: {state.meetings_resolved} of {rules.MEETINGS_PER_GAME}"
        )
        self.query_one("#table-meetings", BigText).text = meeting_pips(state.meetings_resolved)
        self.query_one("#table-picture", TablePicture).show(state)

    def action_next_turn(self) -> None:
        """The current player gave their Adventure card away: next player."""
        if self.act(TurnPassed()) and self.session.settings.announce_turns:
            state = self.session.state
            if not state.is_over:
                self.session.speak("turn", {"player": state.players[state.current]}, self)

    def action_meeting(self) -> None:
        """The current player drew a Meeting card."""
        self.act(MeetingStarted())

    def action_knock_out(self, highlight: int | None = None) -> None:
        """Ask who was knocked out."""
        state = self.session.state
        choices = [(seat, state.players[seat]) for seat in state.in_play]
        self.app.push_screen(
            PickPlayerScreen("Who is knocked out?", choices, highlight), self._knocked_out
        )

    def _knocked_out(self, seat: int | None) -> None:
        if seat is None:
            return
        name = self.session.state.players[seat]
        if self.act(PlayerKnockedOut(seat), f"{name} is knocked out."):
            self.session.speak("knockout", {"player": name}, self)

    def on_table_picture_seat_chosen(self, message: TablePicture.SeatChosen) -> None:
        """A click on a tile offers to knock that player out."""
        if message.seat not in self.session.state.knocked_out:
            self.action_knock_out(highlight=message.seat)
