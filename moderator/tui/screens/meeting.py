"""A Meeting: who sits out, who passes to whom, and its end.

The passing chart is the domain's (`passing_chart`), drawn on the table
picture; the Meeting script is spoken when the table enters the Meeting.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import Footer, Header, Static

from moderator.domain import GameState, passing_chart, rules
from moderator.tui.messages import AskKnockOut, AskSitOut, ResolveMeeting, ToggleSitOut
from moderator.tui.phases import Phase
from moderator.tui.screens.base import PlayScreen
from moderator.tui.snapshot import TableSnapshot
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.caption import BoundDigits, Caption
from moderator.tui.widgets.table_picture import PictureView, TablePicture


def taking_part(state: GameState) -> Text:
    """Who takes part in the Meeting (names literal), and who sits out by a card effect.

    The knocked-out are not named: they are out of the game, not out of this Meeting.
    """
    meeting = state.meeting
    taking = [state.players[seat] for seat in state.participants()]
    count = len(taking)
    line = Text(f"{count} take{'s' if count == 1 else ''} part: ")
    line.append(", ".join(taking) if taking else "nobody")
    away = sorted(meeting.sitting_out - state.knocked_out) if meeting is not None else []
    if away:
        line.append(". Sitting out: ")
        line.append(", ".join(state.players[seat] for seat in away))
    line.append(". The seat number keys (or a click) toggle who sits out.")
    return line


#: The Meeting's instructions, until the voice speaks.
_INSTRUCTIONS = "No talking. Give one card to the left (←) and one to the right (→)."


class MeetingScreen(PlayScreen):
    """Silence at the table; cards go left and right."""

    PHASE = Phase.MEETING
    #: The Meeting's number, in big digits (bound to `#meeting-number`).
    number: var[str] = var("")
    #: What the voice says, else the default instructions (bound to `#meeting-caption`).
    caption: var[str | Text] = var(_INSTRUCTIONS)
    #: Who takes part and who sits out (bound to `#meeting-sitting-out`).
    taking: var[str | Text] = var("")
    #: The table with the passing chart (bound to `#meeting-picture`).
    picture: var[PictureView | None] = var(None)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter", "resolve", "Meeting resolved", id="resolve", tooltip="Everyone got 2 cards"
        ),
        Binding("o", "sit_out", "Sit out", id="sit-out", tooltip="A card effect: someone sits out"),
        *(
            Binding(str((seat + 1) % 10), f"toggle_seat({seat})", show=False)
            for seat in range(rules.MAX_PLAYERS)
        ),
        Binding("k", "knock_out", "Knock out", id="meeting-knock-out"),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape", "menu", "Menu", id="meeting-menu", tooltip="Back to the start screen (saved)"
        ),
    ]

    def compose(self) -> ComposeResult:
        """The Meeting's number, the instructions and the picture with the chart."""
        yield Header()
        with Horizontal(id="meeting-top"):
            with Vertical(id="meeting-number-box"):
                yield Static(f"Meeting (of {rules.MEETINGS_PER_GAME})", classes="caption")
                yield BoundDigits(id="meeting-number").data_bind(text=MeetingScreen.number)
            with Vertical(id="meeting-info"):
                yield Caption(id="meeting-caption").data_bind(text=MeetingScreen.caption)
                yield Caption(id="meeting-sitting-out").data_bind(text=MeetingScreen.taking)
                yield AmbienceMarker(id="meeting-ambience")
        yield TablePicture(id="meeting-picture").data_bind(view=MeetingScreen.picture)
        yield Footer()

    def entered(self) -> None:
        """A new Meeting: the default instructions until the voice speaks."""
        self.caption = _INSTRUCTIONS
        super().entered()

    def show(self, snapshot: TableSnapshot) -> None:
        """The Meeting into the screen's reactives (nothing when no Meeting is open)."""
        state = snapshot.state
        meeting = state.meeting if state is not None else None
        if state is None or meeting is None:
            return
        self.number = str(meeting.number)
        self.taking = taking_part(state)
        self.picture = PictureView(state, passing_chart(state))

    def show_line(self, text: str) -> None:
        """Show what the voice says."""
        self.caption = Text(text, style="italic")

    def show_ambience(self, started: bool, audible: bool) -> None:
        """The bed under the silent passing: playing, or would play (captions only)."""
        self.query_one(AmbienceMarker).follow(started, audible)

    def action_resolve(self) -> None:
        """Everyone received their two cards."""
        self.ask(ResolveMeeting())

    def action_toggle_seat(self, seat: int) -> None:
        """A card effect makes a player sit out (or come back)."""
        state = self.controller.game_state
        if state is not None and 0 <= seat < state.count:
            self.ask(ToggleSitOut(seat))

    def action_sit_out(self) -> None:
        """Ask who sits out or comes back."""
        self.ask(AskSitOut())

    def on_table_picture_seat_chosen(self, message: TablePicture.SeatChosen) -> None:
        """A click on a tile toggles sitting out."""
        state = self.controller.game_state
        if state is not None and message.seat not in state.knocked_out:
            self.action_toggle_seat(message.seat)

    def action_knock_out(self) -> None:
        """A knock-out during the Meeting (a card effect)."""
        self.ask(AskKnockOut())
