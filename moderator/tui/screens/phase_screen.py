"""What every phase screen shares: its controller, its snapshot, notices, undo keys.

A phase screen is created once (it is a Textual mode of the app) and bound to
one snapshot of the table's public state (`snapshot`, a `TableSnapshot`), which
the app sets whenever the table enters its phase or acts in it. The screen
turns it into its own reactives in `show`, and its widgets are `data_bind`-ed
to those: nothing redraws a widget by hand, and a widget repaints only when
its value changed. It never shows another screen: it posts an intent
(`moderator.tui.messages`) and the app does the rest. The app also hands it the narration of the
playbacks started for its phase (`show_line`, `show_countdown`,
`narration_finished`), only once it is mounted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ClassVar

from textual import events, on
from textual.binding import Binding, BindingType
from textual.reactive import var

from moderator.domain import GameState, rules
from moderator.i18n import N_, NP_, _
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import Intent, Menu, RedoLast, UndoLast
from moderator.tui.notices import show_notices
from moderator.tui.textual_fixes.screens import FocusRepaintsItsWidgets, RestylesWhenStale
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.notice_strip import NoticeStrip
from moderator.tui.widgets.picker import Picker
from moderator.tui.widgets.tables_language import follow_the_language

#: The rules of every screen but the start screen. Each of those screens names it
#: as its `CSS_PATH`, so Textual reads it when the first of them is shown: the
#: first frame does not parse it (docs/startup.md). The app's own CSS is app.tcss.
SCREENS_CSS = Path(__file__).resolve().parent.parent / "screens.tcss"

#: The Help key of every phase screen (and of a widget whose keys lead its footer).
HELP_KEY = Binding(
    "question_mark,f1",
    "help",
    N_("Help"),
    id="help",
    tooltip=N_("Keys and rulebook panels"),
)


def progress_words(game_number: int | None, state: GameState | None) -> str:
    """Where the game is, in words: "Game 2 of 3 · Meeting 1 of 3" ("" with no game open).

    In a Meeting it names that Meeting; between Meetings the next one to come,
    and once all are done, that they are.
    """
    if game_number is None or state is None:
        return ""
    game = _("Game {game} of {games}").format(game=game_number, games=rules.GAMES_PER_SERIES)
    meetings = rules.MEETINGS_PER_GAME
    if state.meeting is not None:
        meeting = _("Meeting {meeting} of {meetings}")
        return f"{game} · " + meeting.format(meeting=state.meeting.number, meetings=meetings)
    done = state.meetings_resolved
    if done < meetings and not state.is_over:
        upcoming = _("next: Meeting {meeting} of {meetings}")
        return f"{game} · " + upcoming.format(meeting=done + 1, meetings=meetings)
    resolved = _("Meetings done: {done} of {meetings}")
    return f"{game} · " + resolved.format(done=done, meetings=meetings)


#: Shorter footer words for the app's own keys on every game screen. The English
#: is the full word (an English footer is unchanged); a long language says it
#: shorter where the line is tight ("Couper la voix" is "Muet" there).
APP_FOOTER_SHORT: Mapping[str, str] = {
    "mute": NP_("footer", "Mute"),
    "settings": NP_("footer", "Settings"),
}


class PhaseScreen(FocusRepaintsItsWidgets[None], RestylesWhenStale[None]):
    """The one screen of a phase."""

    CSS_PATH: ClassVar[Path | None] = SCREENS_CSS

    #: The table's public state this screen shows (set by the app after every action).
    #: Shown again even when equal: the start screen and the series board draw from
    #: the store too. The widgets' own reactives keep the repaint to what changed.
    snapshot: var[TableSnapshot | None] = var(None, always_update=True, init=False)
    #: The phase this screen shows.
    PHASE: ClassVar[Phase]
    #: The footer's binding ids by importance: a narrow line leaves the others out first.
    FOOTER_KEEP: ClassVar[tuple[str, ...]] = ()
    #: Shorter words for some keys of the footer, used when the full ones do not fit.
    FOOTER_SHORT: ClassVar[Mapping[str, str]] = {}
    #: Keys a tight footer leaves out before it closes the gaps between the others.
    FOOTER_EXTRA: ClassVar[tuple[str, ...]] = ()
    #: The app's Help key, repeated here so the footer lists it first: a narrow
    #: footer (80 columns) drops its last keys, and Help must never be one of them.
    #: Same id and action as the app's binding, so a keymap moves both.
    BINDINGS: ClassVar[list[BindingType]] = [HELP_KEY]

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        #: The table controller: read state here; act by posting intents.
        self.controller = controller
        #: A caption that arrived before the screen was mounted (shown once it is).
        self.early_line: str | None = None

    def key_bar(self) -> KeyBar:
        """The footer: the screen's keys on one line, the most important kept whole."""
        return KeyBar(
            first=("help",),
            keep=self.FOOTER_KEEP,
            short={**APP_FOOTER_SHORT, **self.FOOTER_SHORT},
            extra=self.FOOTER_EXTRA,
        )

    def notice_strip(self) -> NoticeStrip:
        """The notices' own rows above the footer (a game screen draws no toast)."""
        return NoticeStrip(id="notices")

    @on(events.ScreenResume)
    def _show_notices(self) -> None:
        """Shown again (a phase change, a dialog closed): the notices still running."""
        show_notices(self.app)

    def _language_switched(self) -> None:
        """The table chose another language: every word this screen drew follows, now.

        A phase screen is composed once and redraws only what its snapshot
        changes, so the words it drew stay until it is told, shown or not (the
        screen under the Settings, a phase's screen kept for later): its own
        once-set words (`language_changed`), the snapshot shown again (its
        progress words and reactives) and the key bar's words.
        """
        self.language_changed()
        if self.snapshot is not None:
            self.snapshot = self.snapshot  # always_update: shown again
        self.refresh_bindings()

    def language_changed(self) -> None:
        """The table chose another language: redraw the words `show` does not set again."""

    async def action_help(self) -> None:
        """Keys and the rulebook's reference panels (the app's help)."""
        await self.app.run_action("app.help")

    def on_mount(self) -> None:
        """The first time the screen is shown, draw what the table is at.

        The first line of the phase's narration can start before this screen's
        first mount (its voice starts as the table arrives): it is shown now.
        Nothing is drawn when the app is already shutting down (keys in a burst
        can reach a phase just before the app closes): its widgets are being removed.
        """
        if not self.app.is_running:
            return
        follow_the_language(self, self._language_switched)
        self.entered()
        if self.early_line is not None:
            self.show_line(self.early_line)
            self.early_line = None

    def entered(self) -> None:
        """The table arrives in this phase: start from the current state."""
        self.snapshot = self.controller.snapshot()

    def watch_snapshot(self, snapshot: TableSnapshot | None) -> None:
        """A new snapshot: the header and the screen's reactives follow it.

        It is set once the screen is composed: on every arrival in the phase
        (`entered`) and after every action answered in it. The header's words
        are a reactive too (`sub_title`): the same words repaint nothing.
        """
        if snapshot is None:
            return
        words = self.progress(snapshot)
        if words is not None:
            self.sub_title = words
        self.show(snapshot)

    def progress(self, snapshot: TableSnapshot) -> str | None:
        """The words the header shows after the title (None: the screen sets its own)."""
        return None

    def show(self, snapshot: TableSnapshot) -> None:
        """Set this screen's reactives from `snapshot` (each screen fills this in)."""

    def refused(self, sentence: str) -> None:
        """An action asked for here was refused (the app already notified it)."""

    def show_line(self, text: str) -> None:
        """A line of this phase's narration started: show it as the caption."""

    def show_countdown(self, seconds_left: int) -> None:
        """One second of a timed pause of this phase's narration went by."""

    def narration_finished(self, cancelled: bool) -> None:
        """This phase's narration ended (or was cancelled)."""

    def show_ambience(self, started: bool, audible: bool) -> None:
        """The sound bed of this phase's narration began or ended (`audible`: heard)."""

    def ask(self, intent: Intent) -> None:
        """Post an intent to the app, marked as asked from this phase."""
        intent.origin = self.PHASE
        self.post_message(intent)

    def say(self, message: str, *, severity: str = "information") -> None:
        """A notification that shows `message` literally (names are never markup).

        Routine notices go away quickly so they never pile up over the table;
        errors and warnings stay longer.
        """
        if severity == "error":
            self.notify(message, severity="error", markup=False, timeout=8)
        elif severity == "warning":
            self.notify(message, severity="warning", markup=False, timeout=8)
        else:
            self.notify(message, markup=False, timeout=3)


class PlayScreen(PhaseScreen):
    """A screen showing the open game: undo, redo and the Esc menu."""

    def progress(self, snapshot: TableSnapshot) -> str | None:
        """ "Game N of 3" and the Meeting, in words, on every game screen."""
        return progress_words(snapshot.game_number, snapshot.state)

    #: Added at the end of each game screen's own bindings (so they come last in the footer).
    UNDO_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", N_("Undo"), id="undo", tooltip=N_("Take back the last table action")),
        Binding("r", "redo", N_("Redo"), id="redo", tooltip=N_("Do again what was just undone")),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        #: The intent the open seat question's answer becomes (None: no question open).
        self._answer: Callable[[int], Intent] | None = None
        #: The question was answered; its box closes with the answer's outcome.
        self._awaiting_outcome = False
        #: The seat question's picker, made by `seat_picker` (the screens that ask compose it).
        self._seat_picker: Picker | None = None

    def seat_picker(self) -> Picker:
        """The seat question, hidden until asked (`ask_seat`); a screen that asks yields it first.

        Its own layer draws it on top wherever it is; as the screen's first child,
        showing and hiding it moves no other widget in Textual's drawing order, so
        closing it repaints its box alone (last, it repainted the whole screen).
        """
        picker = Picker(answered=self._answered)
        picker.add_class("seat-question")
        picker.display = False
        self._seat_picker = picker
        return picker

    @property
    def asking(self) -> bool:
        """Whether a seat question is open over this screen (its keys wait for the answer)."""
        return self._answer is not None or self._awaiting_outcome

    def ask_seat(
        self,
        question: str,
        highlight: int | None,
        answer: Callable[[int], Intent],
        *,
        marked: frozenset[int] = frozenset(),
    ) -> None:
        """Ask for a seat in play over this screen; the seat chosen is posted as `answer(seat)`.

        The answer is an intent stamped with this screen's phase, so one that
        comes after the table left it is dropped by the app. Asked only while
        the table is in this phase and this screen is shown: a key that reaches
        the screen as another opens asks nothing. A seat in `marked` is listed
        with "(sits out)", so the table sees who already does before toggling.

        The picker floats on its own layer: no screen is pushed or popped, so
        the answer repaints only the picker's box and what the action changed.
        A second question while one is open (a burst of keys) is not asked:
        the table answers the one shown.
        """
        state = self.controller.game_state
        if self.asking or state is None or self.controller.phase is not self.PHASE:
            return
        if self.app.screen is not self:
            return
        away = "  (" + _("sits out") + ")"  # the tiles' own words for it
        choices = [
            (seat, state.players[seat] + (away if seat in marked else "")) for seat in state.in_play
        ]
        picker = self._picker()
        self._answer = answer
        picker.display = True
        picker.ask(question, choices, highlight)

    def _answered(self, seat: int | None) -> None:
        """The table answered the seat question: post its intent, stamped with this phase.

        Esc closes the question and posts nothing.

        The box stays until the answer's outcome is shown (`watch_snapshot`), so
        the widgets the answer changes (the knocked-out tile) and the closed box
        are drawn in one frame; closed first, the box's frame went out alone and
        the tile waited for the next one (~17-33 ms later, measured by bench_tui.py).
        """
        answer = self._answer
        if answer is None:
            return  # answered already: its outcome is on its way
        self._answer = None
        if seat is None:
            self._close_question()
            return
        self._awaiting_outcome = True
        # Posted to the app itself, not bubbled through this screen's queue: acted on one
        # message sooner, as close as a message gets to the key (bubbled, a loaded run
        # drew a Meeting's tiles under the notice rows; docs/measurements.md).
        intent = answer(seat)
        intent.origin = self.PHASE
        self.app.post_message(intent)

    def watch_snapshot(self, snapshot: TableSnapshot | None) -> None:
        """As every phase screen; an answered seat question closes with its outcome."""
        super().watch_snapshot(snapshot)
        if self._awaiting_outcome:
            self._close_question()

    def _close_question(self) -> None:
        """Hide the seat question (nothing is answered); the focus leaves it.

        The screens that ask focus nothing else (the table and the Meeting hold
        no field), so the focus goes back to none.
        """
        self._answer = None
        self._awaiting_outcome = False
        if self._seat_picker is None or not self._seat_picker.display:
            return
        self._seat_picker.display = False
        self.set_focus(None)

    @on(events.ScreenSuspend)
    def _drop_the_question(self) -> None:
        """Another screen covers this one (a phase change, a dialog): the question is dropped.

        Its answer would no longer be the table's (the phase it asked in may be
        gone), as a dialog was closed when the table left its phase.
        """
        self._close_question()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """While a question is open, the focus stays in it (a click elsewhere cannot take it)."""
        if self.asking and (picker := self._picker()) not in event.widget.ancestors:
            picker.query_one("#pick-list").focus()

    def _picker(self) -> Picker:
        """The screen's seat picker (`seat_picker`, composed by the screens that ask)."""
        if self._seat_picker is None:
            raise LookupError(f"{type(self).__name__} composes no seat picker")
        return self._seat_picker

    def action_menu(self) -> None:
        """Esc: silence the voice at once if it is speaking, else back to the start screen.

        The game is saved and can be resumed from the start screen.
        """
        self.ask(Menu())

    def action_undo(self) -> None:
        """Take back the last action, saying what it was."""
        self.ask(UndoLast())

    def action_redo(self) -> None:
        """Apply again what was just undone."""
        self.ask(RedoLast())
