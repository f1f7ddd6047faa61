"""The table app: wiring only (bindings, phase screens, navigation, the factory).

Navigation belongs to the app. Each phase of the night (`moderator.table.phases`)
has one screen, created the first time the table gets there and kept for the
whole run: it is a Textual mode, so changing phase never mounts or removes a
screen. Screens post intents (`moderator.tui.messages`); the app hands each to
the table controller and shows the `Outcome`: its notice, then the screen of
its phase, given the table's snapshot (`moderator.table.snapshot`).

Beside it: the toast folding (`toasts`), the questions asked before acting
(`questions`), where each screen class lives (`screen_classes`), and `make_app`
(`run`), which builds the app on its folders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on, work
from textual.app import App, SystemCommand, UnknownModeError
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen
from textual.theme import ThemeProvider

from moderator.i18n import N_, _
from moderator.table.board_host import BoardHost
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.table.phases import Phase
from moderator.tui import compat
from moderator.tui.app_keys import APP_BINDINGS, key_commands
from moderator.tui.collector import freeze_kept, resume_after_start_up
from moderator.tui.compat_screens import TablePalette
from moderator.tui.database_check import check_after_start_up
from moderator.tui.literal import visible
from moderator.tui.messages import (
    AskKnockOut,
    AskSitOut,
    CountAgain,
    DeclareResults,
    DrawMeeting,
    EnterResults,
    ExportPlay,
    FinishReveal,
    GoHome,
    HowToPlay,
    Intent,
    KnockOut,
    Menu,
    NewSeries,
    NextGame,
    OpenHistory,
    PassTurn,
    PlayReveal,
    ReadSetupAloud,
    RedoLast,
    ResolveMeeting,
    Resume,
    StartGame,
    StopVoice,
    ToggleSitOut,
    UndoLast,
)
from moderator.tui.narrated import NarratedApp
from moderator.tui.questions import ask_new_series, ask_seat, sitting_out, start_with_renames
from moderator.tui.screen_classes import DIALOGS, load_class, phase_screen_class
from moderator.tui.screens.base import PhaseScreen
from moderator.tui.toasts import ErrorToast, NoticesChanged, fold_error_toast, show_notices
from moderator.tui.widgets.title_bar import fitted_title
from moderator.tui.widgets.voice_state import VoiceFaulted, VoiceState

if TYPE_CHECKING:
    from moderator.tui.dialogs.help import HelpScreen
    from moderator.tui.dialogs.history import HistoryScreen
    from moderator.tui.dialogs.settings import SettingsScreen

CSS_DIR = Path(__file__).parent

#: Seconds between the first frame and what the start-up defers: the database's
#: integrity check, building the voice (scripts, speech engine) and resuming the
#: garbage collector. Started on the first refresh, each shared the cores with the
#: start screen settling and delayed it (docs/measurements.md). Any earlier use (a
#: key that speaks) builds the voice at once.
SETTLE_DELAY = 0.5


class MindFlayerApp(NarratedApp):
    """Moderates one game night: setup, reveal, turns, Meetings, finale, series."""

    #: The header's title (a msgid: shown in the table's language, again after a change).
    TITLE = N_("Mind Flayer moderator")
    #: The start screen's rules; the other screens read screens.tcss when first shown.
    CSS_PATH = CSS_DIR / "app.tcss"
    DEFAULT_MODE = Phase.START.value
    BINDINGS: ClassVar[list[BindingType]] = list(APP_BINDINGS)

    def __init__(self, controller: TableController, notices: Iterable[str] = ()) -> None:
        compat.apply()  # before any toast: see the module for the freeze it fixes
        super().__init__()
        self.title = _(self.TITLE)
        self.controller = controller
        self._notices = list(notices)
        #: Error toasts on screen by (title, sentence): the toast and how many times.
        self._error_toasts: dict[tuple[str, str], tuple[Notification, int]] = {}
        #: The screen of each phase the table has been in (created on first use, kept).
        self._screens: dict[Phase, PhaseScreen] = {}
        #: Whether the start-up froze its objects for the collector (`tui.collector`).
        self.froze_start_up = False
        for phase in Phase:
            self.add_mode(phase.value, self._factory(phase))
        controller.attach(self._narration_event)
        #: The phone board (nothing listens until the table starts it).
        self.board = BoardHost(controller)
        #: The table's keymap (binding id -> keys) from keymap.toml; the help shows it.
        self.keymap: Mapping[str, str] = {}
        #: Called once the first frame is drawn (a hook: what tests and benches see then).
        self.first_frame_observers: list[Callable[[], None]] = []

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's toast, except that an error already on screen is counted, not stacked.

        Keys in a burst (or a held key) can be refused many times in a row; ten
        identical red toasts hide the table. The same sentence again replaces its
        toast with one that says how many times ("… (×3)"). Thread-safe like
        `App.notify`: the counting happens on the app's loop. Sentences quote
        files and parsers, so control characters are removed (`literal.visible`):
        an ESC in a toast would reach the real terminal.
        """
        message, title = visible(message), visible(title)
        if severity != "error":
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
            self.post_message(NoticesChanged())  # handled after Textual's Notify
            return
        self.post_message(ErrorToast(message, title, timeout, markup))

    def on_error_toast(self, toast: ErrorToast) -> None:
        """Show an error toast, folding it into the same one still on screen."""
        fold_error_toast(self, toast, self._error_toasts)

    def on_notices_changed(self, _changed: NoticesChanged) -> None:
        """A notice was raised: a game screen shows it in its own rows (`toasts`)."""
        show_notices(self)

    def clear_notifications(self) -> None:
        """Textual's, and the game screen's notice strip empties too."""
        super().clear_notifications()
        show_notices(self)

    def _factory(self, phase: Phase) -> Callable[[], Screen[None]]:
        def build() -> Screen[None]:
            screen = phase_screen_class(phase)(self.controller)
            self._screens[phase] = screen
            self.set_timer(SETTLE_DELAY, self._freeze_kept)  # kept all evening: frozen
            return screen

        return build

    def _freeze_kept(self) -> None:
        freeze_kept(self.froze_start_up)

    def use_keymap(self, keymap: Mapping[str, str]) -> None:
        """Apply the table's keys (see `moderator.tui.keymap`) with Textual's `set_keymap`."""
        self.keymap = dict(keymap)
        self.set_keymap(self.keymap)

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's line; the game's state whole before the app's name (`fitted_title`)."""
        title, sub_title = fitted_title(title, sub_title, _(self.TITLE or ""), self.size.width)
        if not title:
            return Content(sub_title).stylize("dim")
        return super().format_title(title, sub_title)

    def on_mount(self) -> None:
        """Show what the layers had to say (the start screen is the default mode).

        The database check and the voice start `SETTLE_DELAY` after the first
        frame, off the UI thread; the voice's warnings (broken user scripts, no
        speech engine) follow when it is ready.
        """
        for notice in self._notices:
            self.notify(notice, severity="warning", markup=False, timeout=10)
        self.voice_state = VoiceState(self, self._notices)  # speech faults, on every screen
        self.controller.watch_faults(self.voice_state.on_fault)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        """The first frame is drawn: settle the start-up a moment later, tell the observers."""
        self.set_timer(SETTLE_DELAY, self._after_start_up)
        for observer in self.first_frame_observers:
            observer()

    def _after_start_up(self) -> None:
        """Start the database check, resume the collector (if paused), build the voice.

        The collector is resumed with one collection and a freeze (`collector`).
        """
        self.froze_start_up = resume_after_start_up()
        check_after_start_up(self)
        self._start_voice()

    @work(thread=True, exit_on_error=False)
    def _start_voice(self) -> None:
        """Build the narrator (loads the scripts, starts the speech engine) and report."""
        warnings = self.controller.voice_warnings()
        self.call_from_thread(self._warn, warnings)

    def _warn(self, warnings: list[str]) -> None:
        """The voice's start-up warnings, but not a speech fault already toasted.

        A key that speaks before `SETTLE_DELAY` builds the voice at once; a
        fault of that first line is toasted by `VoiceState` and is also among
        the narrator's warnings by the time they are read here.
        """
        for warning in warnings:
            if not self.voice_state.is_fault(warning):
                self.notify(warning, severity="warning", markup=False, timeout=10)

    def on_voice_faulted(self, message: VoiceFaulted) -> None:
        """A speech part failed for the first time: toast it, mark it in the header."""
        self.voice_state.show(message)

    async def on_unmount(self) -> None:
        """Close the phone board, silence the voice and close the database on the way out."""
        try:
            await self.board.stop()
        finally:
            self.controller.close()

    # --- navigation ------------------------------------------------------------------

    def settle(self, outcome: Outcome) -> None:
        """Show an outcome: its notice, then its phase's screen, given the table's snapshot."""
        if outcome.notice:
            self.notify(
                outcome.notice,
                severity="error" if outcome.refused else "information",
                markup=False,
                timeout=8 if outcome.refused else 3,
            )
        phase = outcome.phase
        if phase.value != self.current_mode:
            if not self.screen_stack:
                return  # the app is closing (its screens are gone): nothing to show
            # A dialog left open over the old screen (help, a player picker) closes first:
            # it belongs to the phase the table left.
            while len(self.screen_stack) > 1:
                self.pop_screen()
            try:
                self.switch_mode(phase.value)
            except UnknownModeError:
                return  # the app is closing: Textual has already dropped its modes
            screen = self._screens.get(phase)
            if screen is not None and screen.is_mounted:
                screen.entered()
            return
        screen = self._screens.get(phase)
        if screen is None or not screen.is_mounted:
            return
        if outcome.refused and outcome.notice:
            screen.refused(outcome.notice)
        screen.snapshot = self.controller.snapshot(outcome)

    def phase_screen(self, phase: Phase) -> PhaseScreen | None:
        """The screen of `phase`, once it was shown (None before)."""
        return self._screens.get(phase)

    def _accepts(self, intent: Intent) -> bool:
        """Whether the table is still in the phase whose screen asked (and as the asker saw it)."""
        return intent.still_meant() and intent.origin in (None, self.controller.phase)

    @on(Intent)
    def _intent(self, intent: Intent) -> None:
        """Every intent of a screen: the controller acts, the app shows the outcome."""
        intent.stop()
        if not self.is_running:
            return  # shutting down: the screens are being removed
        if not self._accepts(intent):
            self.log.warning(f"Dropped {intent!r}: the table left {intent.origin}.")
            return intent.answered(None)  # a phone's press is told it was dropped
        controller = self.controller
        outcome: Outcome | None
        match intent:
            case Resume():
                outcome = controller.resume()
            case NewSeries():
                outcome = None
                ask_new_series(self)
            case NextGame():
                outcome = controller.next_game()
            case GoHome():
                outcome = controller.go_home()
            case Menu():
                outcome = controller.menu()
            case StartGame(players=players, first_player=first, said_as=said_as):
                outcome = None
                start_with_renames(self, players, first, said_as)
            case ReadSetupAloud(players=count):
                outcome = controller.read_setup(count)
            case HowToPlay(from_line=line):
                outcome = controller.how_to_play(line)
            case PlayReveal():
                outcome = controller.play_reveal()
            case StopVoice():
                outcome = controller.stop_voice()
            case FinishReveal():
                outcome = controller.finish_reveal()
            case PassTurn():
                outcome = controller.pass_turn()
            case DrawMeeting():
                outcome = controller.draw_meeting()
            case ToggleSitOut(seat=seat):
                outcome = controller.toggle_sit_out(seat)
            case KnockOut(seat=seat):
                outcome = controller.knock_out(seat)
            case ResolveMeeting():
                outcome = controller.resolve_meeting()
            case CountAgain():
                outcome = controller.count_again()
            case EnterResults():
                outcome = controller.enter_results()
            case DeclareResults(event=event):
                outcome = controller.declare(event)
            case UndoLast():
                outcome = controller.undo()
            case RedoLast():
                outcome = controller.redo()
            case AskKnockOut(highlight=highlight):
                outcome = None
                ask_seat(self, _("Who is knocked out?"), highlight, controller.knock_out)
            case AskSitOut():
                outcome = None
                ask_seat(
                    self,
                    _("Who sits out (or comes back)?"),
                    None,
                    controller.toggle_sit_out,
                    marked=sitting_out(controller),
                )
            case ExportPlay():
                outcome = controller.export_play()
                export = controller.play_export()
                if export is not None and not outcome.refused:
                    self.copy_to_clipboard(export.link)  # where the terminal allows it (OSC 52)
            case OpenHistory():
                outcome = None
                history = cast("type[HistoryScreen]", load_class(DIALOGS["history"]))
                self.push_screen(history(controller))
            case _:  # pragma: no cover - every intent is listed above
                raise TypeError(f"Unknown intent {intent!r}")
        if outcome is not None:
            self.settle(outcome)
        intent.answered(outcome)

    # --- app-wide actions --------------------------------------------------------------

    def action_toggle_mute(self) -> None:
        """Silence at once (or bring the voice back)."""
        muted = self.controller.toggle_mute()
        self.notify(_("Voice muted.") if muted else _("Voice on."), markup=False)

    def action_help(self) -> None:
        """Keys and the rulebook's reference panels."""
        help_screen = cast("type[HelpScreen]", load_class(DIALOGS["help"]))
        if not isinstance(self.screen, help_screen):
            self.push_screen(help_screen())

    def action_settings(self) -> None:
        """Voice, language, reveal time."""
        settings = cast("type[SettingsScreen]", load_class(DIALOGS["settings"]))
        if not isinstance(self.screen, settings):
            self.push_screen(settings(self.controller))

    def action_command_palette(self) -> None:
        """Textual's command palette, in a version that a late Enter cannot break."""
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(TablePalette(id="--command-palette"))

    def search_themes(self) -> None:
        """The theme picker (the palette's "Theme" command), in the same safe palette."""
        self.push_screen(
            TablePalette(providers=[ThemeProvider], placeholder=_("Search for themes…"))
        )

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Every key of the current screen is also a command in the palette."""
        yield from super().get_system_commands(screen)
        yield from key_commands(self, screen)
