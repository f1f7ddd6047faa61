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
from textual.widgets import Digits, Header, Static

from moderator.domain import GameState, passing_chart, rules
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.tui.messages import AskKnockOut, AskSitOut, ResolveMeeting, ToggleSitOut
from moderator.tui.screens.base import PlayScreen
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.table_picture import TablePicture


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


def passing_words(taking: int) -> str:
    """What the table does in a Meeting of `taking` players, in the voice script's words.

    As the tiles say it: from three players on, one card to the left and one to
    the right; with two, both go to the other; alone, the player keeps their cards.
    """
    if taking <= 1:
        return "Only one player takes part in this meeting: they keep their cards."
    if taking == 2:
        return "No talking. Only two players take part: each gives both cards to the other."
    return "No talking. Give one card to the left (←) and one to the right (→)."


def passing_kind(taking: int) -> int:
    """Which wording fits `taking` players: 1 (nothing passes), 2, or 3 (left and right)."""
    return min(max(taking, 1), 3)


class MeetingScreen(PlayScreen):
    """Silence at the table; cards go left and right."""

    PHASE = Phase.MEETING
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP = (
        "resolve",
        "sit-out",
        "meeting-knock-out",
        "meeting-menu",
        "mute",
        "settings",
        "undo",
        "redo",
    )
    FOOTER_SHORT: ClassVar[dict[str, str]] = {"resolve": "Resolved"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter", "resolve", "Meeting resolved", id="resolve", tooltip="Everyone got 2 cards"
        ),
        Binding("o", "sit_out", "Sit out", id="sit-out", tooltip="A card effect: someone sits out"),
        *(
            # No id (not remapped one by one); one row in the help: "1–9, 0".
            Binding(
                str((seat + 1) % 10),
                f"toggle_seat({seat})",
                "That seat sits out or comes back",
                show=False,
            )
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
                yield Static("Meeting", id="meeting-number-label", classes="caption")
                yield Digits("", id="meeting-number")
            with Vertical(id="meeting-info"):
                yield Static("", id="meeting-caption", markup=False)
                yield Static("", id="meeting-sitting-out", markup=False)
                yield AmbienceMarker(id="meeting-ambience")
        yield TablePicture(id="meeting-picture")
        yield self.key_bar()

    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        #: The wording (`passing_kind`) the voice was started with, and the one shown.
        self._spoken_kind = 3
        self._shown_kind = 3

    def _taking_part(self) -> int:
        state = self.controller.game_state
        return len(state.participants()) if state is not None else 0

    def entered(self) -> None:
        """A new Meeting: the written instructions until the voice speaks.

        The voice starts as the table arrives, worded for who takes part now
        (`MeetingCue.taking_part`); the screen remembers that wording.
        """
        kind = passing_kind(self._taking_part())
        self._spoken_kind = self._shown_kind = kind
        self.query_one("#meeting-caption", Static).update(passing_words(self._taking_part()))
        self.refresh_state()

    def refresh_state(self) -> None:
        """Redraw from the game's state (nothing when no Meeting is open)."""
        state = self.controller.game_state
        meeting = state.meeting if state is not None else None
        if state is None or meeting is None:
            return
        self.query_one("#meeting-number", Digits).update(str(meeting.number))
        self.query_one("#meeting-number-label", Static).update(
            f"Meeting {meeting.number} of {rules.MEETINGS_PER_GAME}"
        )
        taking = len(state.participants())
        if passing_kind(taking) != self._shown_kind:
            # Someone sat out or came back: the instructions follow the count.
            self._shown_kind = passing_kind(taking)
            self.query_one("#meeting-caption", Static).update(passing_words(taking))
        self.query_one("#meeting-sitting-out", Static).update(taking_part(state))
        self.query_one("#meeting-picture", TablePicture).show(state, passing_chart(state))

    def show_line(self, text: str) -> None:
        """Show what the voice says, while it is worded for who takes part now.

        A voice started before someone sat out speaks on in its first wording;
        the written instructions for the new count stay on screen instead.
        """
        kind = passing_kind(self._taking_part())
        if kind != self._spoken_kind:
            return
        self._shown_kind = kind
        self.query_one("#meeting-caption", Static).update(Text(text, style="italic"))

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
