"""The table app: wiring only (bindings, phase screens, navigation, the factory).

Navigation belongs to the app. Each phase of the night (`moderator.tui.phases`)
has one screen, created the first time the table gets there and kept for the
whole run: it is a Textual mode, so changing phase never mounts or removes a
screen. Screens post intents (`moderator.tui.messages`); the app hands each to
the table controller and shows the `Outcome`: its notice, then the screen of
its phase, refreshed from the state.

`make_app` is shared by `run_app` and the tests: it injects the store, the
narrator and the folders, so a test runs the real app on temp folders.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import on, work
from textual.app import App, SystemCommand, UnknownModeError
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.message import Message
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen
from textual.theme import ThemeProvider

from moderator.storage import Store
from moderator.tui import compat
from moderator.tui.board_host import BoardHost
from moderator.tui.compat_screens import DropsInputAfterClose, TablePalette
from moderator.tui.config import load_settings
from moderator.tui.controller import TableController
from moderator.tui.database_check import check_after_start_up
from moderator.tui.keymap import load_keymap
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
    Intent,
    Menu,
    NarrationAmbience,
    NarrationCountedDown,
    NarrationFinished,
    NarrationLineStarted,
    NarrationNoticed,
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
from moderator.tui.outcomes import Outcome
from moderator.tui.phases import Phase
from moderator.tui.ports import NarratorLike, StoreLike
from moderator.tui.screens.base import PhaseScreen
from moderator.tui.set_aside import ANSWERS, KEEP, SET_ASIDE
from moderator.tui.snapshot import snapshot_of
from moderator.tui.voice import DeferredNarrator, build_narrator
from moderator.tui.widgets.voice_state import VoiceFaulted, VoiceState

if TYPE_CHECKING:
    from moderator.tui.screens.help import HelpScreen
    from moderator.tui.screens.history import HistoryScreen
    from moderator.tui.screens.pick_player import PickPlayerScreen
    from moderator.tui.screens.settings import SettingsScreen

CSS_DIR = Path(__file__).parent

#: Where the screen class of each phase is ("module:Class").
#:
#: A screen's module is imported the first time the table reaches its phase,
#: not with the app: the first frame needs only the start screen. Measured
#: (12 alternated runs, medians, one machine): importing the app with every
#: screen module took 903 ms, against 743 ms for what the start screen needs.
PHASE_SCREENS: dict[Phase, str] = {
    Phase.START: "moderator.tui.screens.start:StartScreen",
    Phase.SETUP: "moderator.tui.screens.setup:SetupScreen",
    Phase.REVEAL: "moderator.tui.screens.reveal:RevealScreen",
    Phase.TABLE: "moderator.tui.screens.table:TableScreen",
    Phase.MEETING: "moderator.tui.screens.meeting:MeetingScreen",
    Phase.FINALE: "moderator.tui.screens.finale:FinaleScreen",
    Phase.RESULT: "moderator.tui.screens.result:ResultScreen",
    Phase.SERIES: "moderator.tui.screens.series:SeriesScreen",
}

#: Seconds between the first frame and what the start-up defers: the database's
#: integrity check, building the voice (scripts, speech engine) and resuming the
#: garbage collector. Each, started on the first refresh, shared the two cores with
#: the start screen settling: the voice's imports and checks (about 60 ms of CPU)
#: made the first frame 0.26x of a bare Textual app later (bench/bench_tui.py
#: --startup-only, docs/startup.md); the check, which reads the whole file (about
#: 0.5 s of CPU at 20,000 games, on its own thread), made it 1.52x of an empty
#: database's (bench/bench_history.py). Any earlier use (a key that speaks) builds
#: the voice at once.
SETTLE_DELAY = 0.5

#: The dialogs, loaded on first use for the same reason.
_DIALOGS = {
    "help": "moderator.tui.screens.help:HelpScreen",
    "history": "moderator.tui.screens.history:HistoryScreen",
    "pick": "moderator.tui.screens.pick_player:PickPlayerScreen",
    "settings": "moderator.tui.screens.settings:SettingsScreen",
}


class ErrorToast(Message):
    """An error toast to show on the app's loop (see `MindFlayerApp.notify`)."""

    def __init__(self, message: str, title: str, timeout: float | None, markup: bool) -> None:
        super().__init__()
        self.message = message
        self.title = title
        self.timeout = timeout
        self.markup = markup


def load_class(where: str) -> type[Screen[Any]]:
    """The screen class at "module:Class" (its module imported now if not yet)."""
    module, _, name = where.partition(":")
    found = getattr(importlib.import_module(module), name)
    assert isinstance(found, type) and issubclass(found, Screen), where
    return found


def phase_screen_class(phase: Phase) -> type[PhaseScreen]:
    """The screen class of `phase`."""
    return cast("type[PhaseScreen]", load_class(PHASE_SCREENS[phase]))


class MindFlayerApp(DropsInputAfterClose):
    """Moderates one game night: setup, reveal, turns, Meetings, finale, series."""

    TITLE = "Mind Flayer moderator"
    #: The start screen's rules; the other screens read screens.tcss when first shown.
    CSS_PATH = CSS_DIR / "app.tcss"
    DEFAULT_MODE = Phase.START.value
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "v", "toggle_mute", "Mute", id="mute", tooltip="Silence the voice or bring it back"
        ),
        Binding("f1,question_mark", "help", "Help", id="help", tooltip="Keys and rulebook panels"),
        Binding("f2", "settings", "Settings", id="settings", tooltip="Voice and reveal settings"),
    ]

    def __init__(self, controller: TableController, notices: Iterable[str] = ()) -> None:
        compat.apply()  # before any toast: see the module for the freeze it fixes
        super().__init__()
        self.controller = controller
        self._notices = list(notices)
        #: Error toasts on screen by (title, sentence): the toast and how many times.
        self._error_toasts: dict[tuple[str, str], tuple[Notification, int]] = {}
        #: The screen of each phase the table has been in (created on first use, kept).
        self._screens: dict[Phase, PhaseScreen] = {}
        for phase in Phase:
            self.add_mode(phase.value, self._factory(phase))
        controller.attach(self.post_message)
        #: The phone board (nothing listens until the table starts it).
        self.board = BoardHost(controller)
        #: The table's keymap (binding id -> keys) from keymap.toml; the help shows it.
        self.keymap: Mapping[str, str] = {}

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
            return
        self.post_message(ErrorToast(message, title, timeout, markup))

    def on_error_toast(self, toast: ErrorToast) -> None:
        """Show an error toast, folding it into the same one still on screen."""
        key = (toast.title, toast.message)
        count = 1
        shown = self._error_toasts.get(key)
        if shown is not None and compat.toast_shown(self, shown[0]):
            count = shown[1] + 1
            compat.withdraw_toast(self, shown[0])
        text = toast.message if count == 1 else f"{toast.message} (×{count})"
        timeout = self.NOTIFICATION_TIMEOUT if toast.timeout is None else toast.timeout
        notification = Notification(text, toast.title, "error", timeout, markup=toast.markup)
        self._error_toasts[key] = (notification, count)
        compat.show_toast(self, notification)

    def _factory(self, phase: Phase) -> Callable[[], Screen[None]]:
        def build() -> Screen[None]:
            screen = phase_screen_class(phase)(self.controller)
            self._screens[phase] = screen
            return screen

        return build

    def use_keymap(self, keymap: Mapping[str, str]) -> None:
        """Apply the table's keys (see `moderator.tui.keymap`) with Textual's `set_keymap`."""
        self.keymap = dict(keymap)
        self.set_keymap(self.keymap)

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
        """The first frame is drawn: settle the start-up a moment later."""
        self.set_timer(SETTLE_DELAY, self._after_start_up)

    def _after_start_up(self) -> None:
        """Start the database check, resume the collector (if paused), build the voice.

        `moderator.cli.pause_collector_for_start_up` pauses it while the app
        loads. Resumed here, half a second after the first frame, with one
        collection (about 20 ms: the ~1,500 objects of start-up garbage) and a
        freeze: the ~75,000 objects loaded at start-up are then never scanned
        again, so no later collection of a long game night rescans them. A
        collector that was not paused (tests) is left as it is.
        """
        if not gc.isenabled():
            gc.collect()
            gc.freeze()
            gc.enable()
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
        screen.snapshot = snapshot_of(self.controller, outcome)

    def _accepts(self, intent: Intent) -> bool:
        """Whether the table is still in the phase whose screen asked."""
        return intent.origin is None or intent.origin is self.controller.phase

    @on(Intent)
    def _intent(self, intent: Intent) -> None:
        """Every intent of a screen: the controller acts, the app shows the outcome."""
        intent.stop()
        if not self.is_running:
            return  # shutting down: the screens are being removed
        if not self._accepts(intent):
            self.log.warning(f"Dropped {intent!r}: the table left {intent.origin}.")
            return
        controller = self.controller
        outcome: Outcome | None
        match intent:
            case Resume():
                outcome = controller.resume()
            case NewSeries():
                outcome = None
                self._new_series()
            case NextGame():
                outcome = controller.next_game()
            case GoHome():
                outcome = controller.go_home()
            case Menu():
                outcome = controller.menu()
            case StartGame(players=players, first_player=first):
                outcome = None
                self._start_game(players, first)
            case ReadSetupAloud(players=count):
                outcome = controller.read_setup(count)
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
                self._pick("Who is knocked out?", highlight, controller.knock_out)
            case AskSitOut():
                outcome = None
                self._pick(
                    "Who sits out (or comes back)?",
                    None,
                    controller.toggle_sit_out,
                    marked=self._sitting_out(),
                )
            case ExportPlay():
                outcome = controller.export_play()
                export = controller.play_export()
                if export is not None and not outcome.refused:
                    self.copy_to_clipboard(export.link)  # where the terminal allows it (OSC 52)
            case OpenHistory():
                outcome = None
                history = cast("type[HistoryScreen]", load_class(_DIALOGS["history"]))
                self.push_screen(history(controller))
            case _:  # pragma: no cover - every intent is listed above
                raise TypeError(f"Unknown intent {intent!r}")
        if outcome is not None:
            self.settle(outcome)

    def _new_series(self) -> None:
        """A new series; a started one is set aside only on the table's yes (Esc keeps it)."""
        question = self.controller.set_aside_question()
        if question is None:
            self.settle(self.controller.new_series())
            return
        phase = self.controller.phase

        def answered(answer: int | None) -> None:
            if answer == SET_ASIDE and self.controller.phase is phase:
                self.settle(self.controller.new_series())
            else:
                self.notify("Kept: the series goes on.", markup=False)

        pick = cast("type[PickPlayerScreen]", load_class(_DIALOGS["pick"]))
        self.push_screen(pick(question, ANSWERS, KEEP), answered)

    def _start_game(self, players: tuple[str, ...], first: int) -> None:
        """Start the game; first ask whether each new name is an earlier player renamed.

        A name fixed between games ("Noah" -> "Noah B") would split the player's
        series total; the table answers one question per new name (Esc: not now,
        nothing is saved) and the start carries the points of those it names.
        """
        questions = self.controller.rename_questions(players)
        if not questions:
            self.settle(self.controller.start_game(players, first))
            return
        phase = self.controller.phase
        renames: dict[str, str] = {}
        new_names = list(questions.new)
        pick = cast("type[PickPlayerScreen]", load_class(_DIALOGS["pick"]))

        def ask() -> None:
            missing = [name for name in questions.missing if name not in renames]
            if not new_names or not missing:
                self.settle(self.controller.start_game(players, first, renames))
                return
            name = new_names.pop(0)
            choices = [*enumerate(missing), (len(missing), "No: a new player")]

            def answered(index: int | None) -> None:
                if index is None or self.controller.phase is not phase:
                    self.notify("Not started: the roster is as it was.", markup=False)
                    return
                if index < len(missing):
                    renames[missing[index]] = name
                ask()

            self.push_screen(
                pick(f"Is {name} an earlier player (points carry over)?", choices, 0),
                answered,
            )

        ask()

    def _sitting_out(self) -> frozenset[int]:
        """The seats that sit out the open Meeting (none outside a Meeting)."""
        state = self.controller.game_state
        meeting = state.meeting if state is not None else None
        return frozenset(meeting.sitting_out) if meeting is not None else frozenset()

    def _pick(
        self,
        question: str,
        highlight: int | None,
        act: Callable[[int], Outcome],
        *,
        marked: frozenset[int] = frozenset(),
    ) -> None:
        """Ask for a seat in play; the answer acts only if the table is still in this phase.

        A seat in `marked` is listed with "(sits out)", so the table sees who
        already does before toggling.
        """
        state = self.controller.game_state
        if state is None:
            return
        phase = self.controller.phase
        choices = [
            (seat, state.players[seat] + ("  (sits out)" if seat in marked else ""))
            for seat in state.in_play
        ]

        def picked(seat: int | None) -> None:
            if seat is not None and self.controller.phase is phase:
                self.settle(act(seat))

        pick = cast("type[PickPlayerScreen]", load_class(_DIALOGS["pick"]))
        self.push_screen(pick(question, choices, highlight), picked)

    # --- narration: the latest playback, to the screen of the phase that started it ---------

    def _narrated(self, playback: int) -> PhaseScreen | None:
        """The mounted screen for `playback`'s phase; None once the app is shutting down.

        Textual sets `is_running` false before it removes the screens, and narration
        can still report from its thread meanwhile.
        """
        if not self.is_running:
            return None
        phase = self.controller.playback_phase(playback)
        screen = self._screens.get(phase) if phase is not None else None
        return screen if screen is not None and screen.is_mounted else None

    def on_narration_line_started(self, message: NarrationLineStarted) -> None:
        """Captions follow the voice (kept for a screen that is not mounted yet)."""
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.show_line(message.text)
            return
        phase = self.controller.playback_phase(message.playback)
        waiting = self._screens.get(phase) if phase is not None else None
        if waiting is not None and not waiting.is_mounted:
            waiting.early_line = message.text

    def on_narration_counted_down(self, message: NarrationCountedDown) -> None:
        """A timed pause, second by second."""
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.show_countdown(message.seconds_left)

    def on_narration_ambience(self, message: NarrationAmbience) -> None:
        """The sound bed under an eyes-closed span began or ended."""
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.show_ambience(message.started, message.audible)

    def on_narration_noticed(self, message: NarrationNoticed) -> None:
        """A missing part of a script, for instance.

        A speech fault also arrives here as a playback notice; the app reports those
        once, app-wide (`VoiceState`), so only the other notices are shown.
        """
        if self.voice_state.is_fault(message.message):
            return
        if self.controller.playback_phase(message.playback) is not None:
            self.notify(message.message, severity="warning", markup=False, timeout=8)

    def on_narration_finished(self, message: NarrationFinished) -> None:
        """The script ended or was cancelled."""
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.narration_finished(message.cancelled)

    # --- app-wide actions --------------------------------------------------------------

    def action_toggle_mute(self) -> None:
        """Silence at once (or bring the voice back)."""
        muted = self.controller.toggle_mute()
        self.notify("Voice muted." if muted else "Voice on.", markup=False)

    def action_help(self) -> None:
        """Keys and the rulebook's reference panels."""
        help_screen = cast("type[HelpScreen]", load_class(_DIALOGS["help"]))
        if not isinstance(self.screen, help_screen):
            self.push_screen(help_screen())

    def action_settings(self) -> None:
        """Voice, language, reveal time."""
        settings = cast("type[SettingsScreen]", load_class(_DIALOGS["settings"]))
        if not isinstance(self.screen, settings):
            self.push_screen(settings(self.controller))

    def action_command_palette(self) -> None:
        """Textual's command palette, in a version that a late Enter cannot break."""
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(TablePalette(id="--command-palette"))

    def search_themes(self) -> None:
        """The theme picker (the palette's "Theme" command), in the same safe palette."""
        self.push_screen(TablePalette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Every key of the current screen is also a command in the palette."""
        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for _key, binding in screen.active_bindings.items():
            bound = binding.binding
            if not bound.description or bound.action in seen:
                continue
            seen.add(bound.action)
            node = binding.node

            async def run(action: str = bound.action, target: object = node) -> None:
                await self.run_action(action, target)  # type: ignore[arg-type]

            yield SystemCommand(bound.description, bound.tooltip or bound.description, run)


def make_app(
    data_dir: Path,
    config_dir: Path,
    cache_dir: Path,
    voice_scripts_dir: Path | None,
    narrator: NarratorLike | None = None,
    store: StoreLike | None = None,
) -> MindFlayerApp:
    """Build the app on these folders; raises StorageError if the database can't open.

    Args:
        data_dir: folder of the score database.
        config_dir: folder of settings.json.
        cache_dir: folder of synthesized speech.
        voice_scripts_dir: user voice scripts overriding the shipped ones, if any.
        narrator: a ready narrator (tests pass one with a small time scale).
        store: a ready store (otherwise `Store.open(data_dir)`).
    """
    settings, settings_notice = load_settings(config_dir)
    keymap, keymap_notice = load_keymap(config_dir, MindFlayerApp)
    if store is None:
        # Its integrity check runs once the start-up settled (`moderator.tui.database_check`).
        store = Store.open(data_dir, check_integrity=False)
    if narrator is None:
        # Built after the first frame, off the UI thread (see `DeferredNarrator`).
        narrator = DeferredNarrator(lambda: build_narrator(settings, voice_scripts_dir, cache_dir))
    notices = list(store.notices)
    notices += [notice for notice in (settings_notice, keymap_notice) if notice]
    controller = TableController(store, narrator, settings, config_dir, data_dir)
    app = MindFlayerApp(controller, notices)
    app.use_keymap(keymap)
    return app
