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

from moderator.domain import GameState, passing_chart, rules
from moderator.i18n import N_, _, ngettext
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import KnockOut, ResolveMeeting, ToggleSitOut
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.caption import BoundDigits, Caption
from moderator.tui.widgets.game_header import GameHeader
from moderator.tui.widgets.table_picture import PictureView, TablePicture


def taking_part(state: GameState) -> Text:
    """Who takes part in the Meeting (names literal), and who sits out by a card effect.

    The knocked-out are not named: they are out of the game, not out of this Meeting.
    """
    meeting = state.meeting
    taking = [state.players[seat] for seat in state.participants()]
    count = len(taking)
    line = Text(ngettext("{count} takes part: ", "{count} take part: ", count).format(count=count))
    line.append(_(", ").join(taking) if taking else _("nobody"))
    away = sorted(meeting.sitting_out - state.knocked_out) if meeting is not None else []
    if away:
        line.append(_(". Sitting out: "))
        line.append(_(", ").join(state.players[seat] for seat in away))
    line.append(_(". The seat number keys (or a click) toggle who sits out."))
    return line


def passing_words(taking: int) -> str:
    """What the table does in a Meeting of `taking` players, in the voice script's words.

    As the tiles say it: from three players on, one card to the left and one to
    the right; with two, both go to the other; alone, the player keeps their cards.
    """
    if taking <= 1:
        return _("Only one player takes part in this meeting: they keep their cards.")
    if taking == 2:
        return _("No talking. Only two players take part: each gives both cards to the other.")
    return _("No talking. Give one card to the left (←) and one to the right (→).")


def taking_count(snapshot: TableSnapshot | None) -> int:
    """How many players take part in the snapshot's Meeting (0 with no game)."""
    state = snapshot.state if snapshot is not None else None
    return len(state.participants()) if state is not None else 0


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
    FOOTER_SHORT: ClassVar[dict[str, str]] = {"resolve": N_("Resolved")}
    FOOTER_EXTRA = ("undo", "redo")
    #: The Meeting's number, in big digits (bound to `#meeting-number`).
    number: var[str] = var("")
    #: "Meeting 2 of 3" above it (bound to `#meeting-number-label`).
    number_label: var[str] = var("Meeting")
    #: What the voice says, else the written instructions (bound to `#meeting-caption`).
    caption: var[str | Text] = var(passing_words(3))
    #: Who takes part and who sits out (bound to `#meeting-sitting-out`).
    taking: var[str | Text] = var("")
    #: The table with the passing chart (bound to `#meeting-picture`).
    picture: var[PictureView | None] = var(None)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "resolve",
            N_("Meeting resolved"),
            id="resolve",
            tooltip=N_("Everyone got 2 cards"),
        ),
        Binding(
            "o",
            "sit_out",
            N_("Sit out"),
            id="sit-out",
            tooltip=N_("A card effect: someone sits out"),
        ),
        *(
            # No id (not remapped one by one); one row in the help: "1–9, 0".
            Binding(
                str((seat + 1) % 10),
                f"toggle_seat({seat})",
                N_("That seat sits out or comes back"),
                show=False,
            )
            for seat in range(rules.MAX_PLAYERS)
        ),
        Binding("k", "knock_out", N_("Knock out"), id="meeting-knock-out"),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape",
            "menu",
            N_("Menu"),
            id="meeting-menu",
            tooltip=N_("Back to the start screen (saved)"),
        ),
    ]

    def compose(self) -> ComposeResult:
        """The Meeting's number, the instructions and the picture with the chart."""
        yield self.seat_picker()  # first (see `seat_picker`)
        yield GameHeader()
        with Horizontal(id="meeting-top"):
            with Vertical(id="meeting-number-box"):
                yield Caption(id="meeting-number-label", classes="caption").data_bind(
                    text=MeetingScreen.number_label
                )
                yield BoundDigits(id="meeting-number").data_bind(text=MeetingScreen.number)
            with Vertical(id="meeting-info"):
                yield Caption(id="meeting-caption").data_bind(text=MeetingScreen.caption)
                yield Caption(id="meeting-sitting-out").data_bind(text=MeetingScreen.taking)
                yield AmbienceMarker(id="meeting-ambience")
        yield TablePicture(id="meeting-picture").data_bind(view=MeetingScreen.picture)
        yield self.notice_strip()
        yield self.key_bar()

    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        #: The wording (`passing_kind`) the voice was started with, and the one shown.
        self._spoken_kind = 3
        self._shown_kind = 3

    def entered(self) -> None:
        """A new Meeting: the written instructions until the voice speaks.

        The voice starts as the table arrives, worded for who takes part now
        (`MeetingCue.taking_part`); the screen remembers that wording.
        """
        snapshot = self.controller.snapshot()
        taking = taking_count(snapshot)
        self._spoken_kind = self._shown_kind = passing_kind(taking)
        self.caption = passing_words(taking)
        self.snapshot = snapshot

    def show(self, snapshot: TableSnapshot) -> None:
        """The Meeting into the screen's reactives (nothing when no Meeting is open)."""
        state = snapshot.state
        meeting = state.meeting if state is not None else None
        if state is None or meeting is None:
            return
        self.number = str(meeting.number)
        self.number_label = _("Meeting {meeting} of {meetings}").format(
            meeting=meeting.number, meetings=rules.MEETINGS_PER_GAME
        )
        taking = len(state.participants())
        if passing_kind(taking) != self._shown_kind:
            # Someone sat out or came back: the instructions follow the count.
            self._shown_kind = passing_kind(taking)
            self.caption = passing_words(taking)
        self.taking = taking_part(state)
        self.picture = PictureView(state, passing_chart(state))

    def show_line(self, text: str) -> None:
        """Show what the voice says, while it is worded for who takes part now.

        A voice started before someone sat out speaks on in its first wording;
        the written instructions for the new count stay on screen instead.
        """
        kind = passing_kind(taking_count(self.snapshot))
        if kind != self._spoken_kind:
            return
        self._shown_kind = kind
        self.caption = Text(text, style="italic")

    def language_changed(self) -> None:
        """The written instructions, the tiles and the centre in the new language.

        A voice line shown in the old language gives way to the instructions too.
        """
        taking = taking_count(self.snapshot)
        self._shown_kind = passing_kind(taking)
        self.caption = passing_words(taking)
        self.picture = None  # the same state's view again would redraw nothing

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
        """Ask who sits out or comes back (those who do are marked)."""
        state = self.controller.game_state
        meeting = state.meeting if state is not None else None
        sitting_out = frozenset(meeting.sitting_out) if meeting is not None else frozenset()
        self.ask_seat(_("Who sits out (or comes back)?"), None, ToggleSitOut, marked=sitting_out)

    def on_table_picture_seat_chosen(self, message: TablePicture.SeatChosen) -> None:
        """A click on a tile toggles sitting out."""
        state = self.controller.game_state
        if state is not None and message.seat not in state.knocked_out and not self.asking:
            self.action_toggle_seat(message.seat)

    def action_knock_out(self) -> None:
        """A knock-out during the Meeting (a card effect): ask who."""
        self.ask_seat(_("Who is knocked out?"), None, KnockOut)
