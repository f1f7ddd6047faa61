"""The table app: wiring only (bindings, phase screens, navigation, the factory).

Navigation belongs to the app. Each phase of the night (`moderator.table.phases`)
has one screen, created the first time the table gets there and kept for the
whole run: it is a Textual mode, so changing phase never mounts or removes a
screen. Screens post intents (`moderator.tui.messages`); the app hands each to
the table controller and shows the `Outcome`: its notice, then the screen of
its phase, given the table's snapshot (`moderator.table.snapshot`).

The app is composed, not inherited: beside it, each in its own module and none
importing this one, the narration's routing to the screens (`narration_routing`),
what the start-up defers past the first frame (`start_up`), the notices
(`notices`), and the questions asked before a game (`before_a_game`). Each
intent carries its call (`messages`): the app checks where it came from, runs
it and shows the outcome (`show_outcome`); a new action needs no edit here.
`make_app` (`run`) builds the app on its folders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import App, SystemCommand, UnknownModeError
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.screen import Screen
from textual.theme import ThemeProvider

from moderator import i18n
from moderator.i18n import N_, _
from moderator.table.board_host import BoardHost
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.table.phases import Phase
from moderator.tui import textual_fixes
from moderator.tui.before_a_game import QuestionsBeforeAGame
from moderator.tui.messages import Intent, Narration, ReadTableAloud
from moderator.tui.narration_routing import NarrationRouter
from moderator.tui.notices import ErrorToast, Notices, NoticesChanged
from moderator.tui.screen_classes import DIALOGS, load_class, phase_screen_class
from moderator.tui.screens.phase_screen import PhaseScreen
from moderator.tui.start_up import StartUp
from moderator.tui.text_from_files import visible
from moderator.tui.textual_fixes.screens import DropsInputAfterClose, TablePalette
from moderator.tui.widgets.title_bar import fitted_title
from moderator.tui.widgets.voice_state import VoiceFaulted, VoiceState

if TYPE_CHECKING:
    from moderator.tui.dialogs.help import HelpScreen
    from moderator.tui.dialogs.settings import SettingsScreen

CSS_DIR = Path(__file__).parent

#: Mute, help, settings and the table read aloud: on every screen. The descriptions and tooltips are
#: msgids (`N_`): the key bar, the help and the palette translate them where they
#: draw them, in the language of that moment.
APP_BINDINGS = (
    Binding(
        "v", "toggle_mute", N_("Mute"), id="mute", tooltip=N_("Silence the voice or bring it back")
    ),
    Binding(
        "f1,question_mark", "help", N_("Help"), id="help", tooltip=N_("Keys and rulebook panels")
    ),
    Binding(
        "f2", "settings", N_("Settings"), id="settings", tooltip=N_("Voice and reveal settings")
    ),
    # A function key, so it works on the screens with a name or number field too.
    Binding(
        "f3",
        "read_table",
        N_("Where are we?"),
        id="read-table",
        tooltip=N_(
            "Say and show where the game stands: whose turn, Meetings, knock-outs, the score"
        ),
        show=False,  # the footers at 80 columns are full: the help lists it
    ),
)


class MindFlayerApp(DropsInputAfterClose):
    """Moderates one game night: setup, reveal, turns, Meetings, finale, series."""

    #: The header's title (a msgid: shown in the table's language, again after a change).
    TITLE = N_("Mind Flayer moderator")
    #: The start screen's rules; the other screens read screens.tcss when first shown.
    CSS_PATH = CSS_DIR / "app.tcss"
    DEFAULT_MODE = Phase.START.value
    BINDINGS: ClassVar[list[BindingType]] = list(APP_BINDINGS)
    #: The screen's language now ("en", "fr"...): every screen and widget that draws
    #: words follows it (`moderator.tui.widgets.tables_language`); set by `use_language`.
    language: var[str] = var(i18n.SOURCE_LANGUAGE, init=False)

    def __init__(self, controller: TableController, notices: Iterable[str] = ()) -> None:
        textual_fixes.apply()  # before any toast: see the module for the freeze it fixes
        super().__init__()
        self.title = _(self.TITLE)
        self.set_reactive(MindFlayerApp.language, i18n.active_language())
        self.controller = controller
        self._start_notices = list(notices)
        #: The screen of each phase the table has been in (created on first use, kept).
        self._screens: dict[Phase, PhaseScreen] = {}
        for phase in Phase:
            self.add_mode(phase.value, self._factory(phase))
        #: Speech faults, on every screen (made once the app is mounted).
        self.voice_state: VoiceState | None = None
        #: Error toasts folded, and the game screens' notice rows.
        self.notices = Notices(self)
        #: The questions asked before a game (set a series aside, a renamed player).
        self.questions = QuestionsBeforeAGame(self, controller)
        #: What the start-up defers past the first frame.
        self.start_up = StartUp(self, controller, self._is_fault)
        #: Narration to the screen of its playback's phase.
        self.narration = NarrationRouter(self, controller, self._screens, self._is_fault)
        controller.attach(self.narration.report)
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
        files and parsers, so control characters are removed (`text_from_files.visible`):
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
        self.notices.fold(toast)

    def on_notices_changed(self, _changed: NoticesChanged) -> None:
        """A notice was raised: a game screen shows it in its own rows (`notices`)."""
        self.notices.show()

    def clear_notifications(self) -> None:
        """Textual's, and the game screen's notice strip empties too."""
        super().clear_notifications()
        self.notices.show()

    def _factory(self, phase: Phase) -> Callable[[], Screen[None]]:
        def build() -> Screen[None]:
            screen = phase_screen_class(phase)(self.controller)
            self._screens[phase] = screen
            self.start_up.screen_kept()  # kept all evening: frozen for the collector
            return screen

        return build

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

        The database check and the voice start a moment after the first frame,
        off the UI thread (`start_up`); the voice's warnings (broken user
        scripts, no speech engine) follow when it is ready.
        """
        for notice in self._start_notices:
            self.notify(notice, severity="warning", markup=False, timeout=10)
        self.voice_state = VoiceState(self, self._start_notices)
        self.controller.watch_faults(self.voice_state.on_fault)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        """The first frame is drawn: the start-up's deferred parts follow, the observers learn."""
        self.start_up.first_frame_drawn()
        for observer in self.first_frame_observers:
            observer()

    def _is_fault(self, sentence: str) -> bool:
        """Whether `sentence` is a speech fault the header's voice state already told."""
        return self.voice_state is not None and self.voice_state.is_fault(sentence)

    def use_language(self, code: str) -> str:
        """Show every screen in `code` from now on, at once; the language now shown.

        A language without a screen translation shows English (`i18n.use_language`).
        """
        self.language = i18n.use_language(code)
        return self.language

    def watch_language(self) -> None:
        """The header's title in the new language (with the voice's fault markers)."""
        if self.voice_state is not None:
            self.voice_state.retitle()
        else:
            self.title = _(self.TITLE)

    def on_voice_faulted(self, message: VoiceFaulted) -> None:
        """A speech part failed for the first time: toast it, mark it in the header."""
        if self.voice_state is not None:
            self.voice_state.show(message)

    @on(Narration)
    def _narration(self, message: Narration) -> None:
        """Narration's progress, to the screen (or dialog) showing its playback."""
        self.narration.route(message)

    async def on_unmount(self) -> None:
        """Close the phone board, silence the voice and close the database on the way out."""
        try:
            await self.board.stop()
        finally:
            self.controller.close()

    # --- navigation ------------------------------------------------------------------

    def show_outcome(self, outcome: Outcome) -> None:
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

    def _accepts(self, intent: Intent) -> bool:
        """Whether the table is still in the phase whose screen asked (and as the asker saw it)."""
        return intent.still_meant() and intent.origin in (None, self.controller.phase)

    @on(Intent)
    def _intent(self, intent: Intent) -> None:
        """Every intent of a screen: checked against the phase, run, its outcome shown."""
        intent.stop()
        if not self.is_running:
            return  # shutting down: the screens are being removed
        if not self._accepts(intent):
            self.log.warning(f"Dropped {intent!r}: the table left {intent.origin}.")
            return intent.answered(None)  # a phone's press is told it was dropped
        outcome = intent.run(self.controller, self)
        if outcome is not None:
            self.show_outcome(outcome)
        intent.answered(outcome)

    # --- app-wide actions --------------------------------------------------------------

    def action_toggle_mute(self) -> None:
        """Silence at once (or bring the voice back)."""
        muted = self.controller.toggle_mute()
        self.notify(_("Voice muted.") if muted else _("Voice on."), markup=False)
        if self.voice_state is not None:
            self.voice_state.show_muted(muted)  # the header says it while it lasts
        self.screen.refresh_bindings()  # the footer's key says Unmute

    @property
    def muted(self) -> bool:
        """Whether the mute key silenced the voice (the key bar says Unmute then)."""
        return self.controller.muted

    def action_read_table(self) -> None:
        """Speak and show where the game stands (F3, on every screen)."""
        self.post_message(ReadTableAloud())

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
        yield from self._key_commands(screen)

    def _key_commands(self, screen: Screen[object]) -> Iterator[SystemCommand]:
        """Each key of `screen` (one per action) as a palette command, in the screen's language."""
        seen: set[str] = set()
        for _key, binding in screen.active_bindings.items():
            bound = binding.binding
            if not bound.description or bound.action in seen:
                continue
            seen.add(bound.action)
            node = binding.node

            async def run(action: str = bound.action, target: object = node) -> None:
                await self.run_action(action, target)  # type: ignore[arg-type]

            shown = _(bound.description)
            yield SystemCommand(shown, _(bound.tooltip) if bound.tooltip else shown, run)
