"""A Meeting: who sits out, who passes to whom, and its end.

The passing chart is the domain's (`passing_chart`), drawn on the table
picture; the Meeting script is spoken when the screen opens.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Footer, Header, Static

from moderator.domain import MeetingResolved, PlayerKnockedOut, SitOutToggled, passing_chart, rules
from moderator.tui.messages import NarrationAmbience, NarrationLineStarted
from moderator.tui.screens.base import PlayScreen
from moderator.tui.screens.pick_player import PickPlayerScreen
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.table_picture import TablePicture


class MeetingScreen(PlayScreen):
    """Silence at the table; cards go left and right."""

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
                yield Digits("", id="meeting-number")
            with Vertical(id="meeting-info"):
                yield Static("", id="meeting-caption", markup=False)
                yield Static("", id="meeting-sitting-out", markup=False)
                yield AmbienceMarker(id="meeting-ambience")
        yield TablePicture(id="meeting-picture")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the Meeting and speak its script (not if the game was closed meanwhile)."""
        if self.session.game is None:
            return
        self.refresh_state()
        meeting = self.session.state.meeting
        if meeting is not None:
            self.meeting_playback = self.session.speak("meeting", {"meeting": meeting.number}, self)

    def refresh_state(self) -> None:
        """Redraw from the game's state (nothing once the game is closed or the screen emptied)."""
        if self.session.game is None or not self.query("#meeting-number"):
            return
        state = self.session.state
        meeting = state.meeting
        if meeting is None:
            return
        self.query_one("#meeting-number", Digits).update(str(meeting.number))
        out = [state.players[s] for s in sorted(meeting.sitting_out | state.knocked_out)]
        line = Text("Sitting out: ")
        line.append(", ".join(out) if out else "nobody")
        line.append(f"   ({len(state.participants())} take part; number keys or a click toggle)")
        self.query_one("#meeting-sitting-out", Static).update(line)
        if not self.query_one("#meeting-caption", Static).visual:
            self.query_one("#meeting-caption", Static).update(
                "No talking. Give one card to the left (←) and one to the right (→)."
            )
        self.query_one("#meeting-picture", TablePicture).show(state, passing_chart(state))

    def on_narration_line_started(self, message: NarrationLineStarted) -> None:
        """Show what the voice says."""
        self.query_one("#meeting-caption", Static).update(Text(message.text, style="italic"))

    def on_narration_ambience(self, message: NarrationAmbience) -> None:
        """The bed under the silent passing: playing, or would play (captions only)."""
        if message.playback == getattr(self, "meeting_playback", None):
            self.query_one(AmbienceMarker).follow(message.started, message.audible)

    def action_resolve(self) -> None:
        """Everyone received their two cards."""
        self.session.silence()
        self.act(MeetingResolved())

    def action_toggle_seat(self, seat: int) -> None:
        """A card effect makes a player sit out (or come back)."""
        state = self.session.state
        if not 0 <= seat < state.count:
            return
        self.act(SitOutToggled(seat))

    def action_sit_out(self) -> None:
        """Ask who sits out or comes back."""
        state = self.session.state
        choices = [(seat, state.players[seat]) for seat in state.in_play]
        self.app.push_screen(
            PickPlayerScreen("Who sits out (or comes back)?", choices), self._picked_sit_out
        )

    def _picked_sit_out(self, seat: int | None) -> None:
        if seat is not None:
            self.action_toggle_seat(seat)

    def on_table_picture_seat_chosen(self, message: TablePicture.SeatChosen) -> None:
        """A click on a tile toggles sitting out."""
        if message.seat not in self.session.state.knocked_out:
            self.action_toggle_seat(message.seat)

    def action_knock_out(self) -> None:
        """A knock-out during the Meeting (a card effect)."""
        state = self.session.state
        choices = [(seat, state.players[seat]) for seat in state.in_play]
        self.app.push_screen(PickPlayerScreen("Who is knocked out?", choices), self._knocked_out)

    def _knocked_out(self, seat: int | None) -> None:
        if seat is None:
            return
        name = self.session.state.players[seat]
        if self.act(PlayerKnockedOut(seat), f"{name} is knocked out."):
            self.session.speak("knockout", {"player": name}, self)
