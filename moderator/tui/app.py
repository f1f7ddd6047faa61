"""The table app: wiring only (bindings, screens, the factory).

`make_app` is shared by `run_app` and the tests: it injects the store, the
narrator and the folders, so a test runs the real app on temp folders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import ClassVar, cast

from textual import events
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.screen import ModalScreen, Screen

from moderator.tui import compat
from moderator.tui.config import load_settings
from moderator.tui.keymap import load_keymap
from moderator.tui.ports import NarratorLike, StoreLike
from moderator.tui.session import Session
from moderator.tui.widgets.voice_state import VoiceFaulted, VoiceState

CSS_DIR = Path(__file__).parent


class MindFlayerApp(App[None]):
    """Moderates one game night: setup, reveal, turns, Meetings, finale, series."""

    TITLE = "Mind Flayer moderator"
    CSS_PATH = [CSS_DIR / "app.tcss", CSS_DIR / "screens.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "v", "toggle_mute", "Mute", id="mute", tooltip="Silence the voice or bring it back"
        ),
        Binding("f1,question_mark", "help", "Help", id="help", tooltip="Keys and rulebook panels"),
        Binding("f2", "settings", "Settings", id="settings", tooltip="Voice and reveal settings"),
    ]

    def __init__(self, session: Session, notices: Iterable[str] = ()) -> None:
        compat.apply()  # before any toast: see the module for the freeze it fixes
        super().__init__()
        self.session = session
        self._notices = list(notices)
        #: The table's keymap (binding id -> keys) from keymap.toml; the help shows it.
        self.keymap: Mapping[str, str] = {}

    def use_keymap(self, keymap: Mapping[str, str]) -> None:
        """Apply the table's keys (see `moderator.tui.keymap`) with Textual's `set_keymap`."""
        self.keymap = dict(keymap)
        self.set_keymap(self.keymap)

    def on_mount(self) -> None:
        """Open on the start screen and show what the layers had to say."""
        from moderator.tui.screens.start import StartScreen

        self.push_screen(StartScreen())
        for notice in self._notices:
            self.notify(notice, severity="warning", markup=False, timeout=10)
        self.voice_state = VoiceState(self, self._notices)  # speech faults, on every screen
        self.voice_state.watch(self.session.narrator)

    def on_voice_faulted(self, message: VoiceFaulted) -> None:
        """A speech part failed for the first time: toast it, mark it in the header."""
        self.voice_state.show(message)

    def on_unmount(self) -> None:
        """Silence the voice and close the database on the way out."""
        self.session.close()

    # --- navigation ------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Input still queued when the app shuts down (the stack emptied) is dropped.

        Keys pressed in a burst just before quitting reached the app after its
        screens were gone, and Textual then failed looking for a screen.
        """
        if isinstance(event, events.InputEvent) and not self.screen_stack:
            return
        await super().on_event(event)

    def pop_screen(self) -> AwaitComplete:
        """Close the top screen, but never the start screen while the app runs.

        The start screen is the floor of the app: every "back" lands there and
        only quitting leaves it. A pop that would remove it (a late close of a
        dialog that was already closed) is refused, so the table can never be
        left with the blank default screen.
        """
        from moderator.tui.screens.dialog import nothing_to_await
        from moderator.tui.screens.start import StartScreen

        stack = self.screen_stack
        if len(stack) <= 2 or isinstance(stack[-1], StartScreen):
            self.log.warning(f"Refused to pop {stack[-1:]!r}: the start screen stays.")
            return nothing_to_await()
        return super().pop_screen()

    def action_command_palette(self) -> None:
        """Textual's command palette, in a version that a late Enter cannot break."""
        from moderator.tui.screens.dialog import TablePalette

        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(TablePalette(id="--command-palette"))

    def search_themes(self) -> None:
        """The theme picker (the palette's "Theme" command), in the same safe palette."""
        from textual.theme import ThemeProvider

        from moderator.tui.screens.dialog import TablePalette

        self.push_screen(TablePalette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def show_screen(self, screen: Screen[None]) -> None:
        """Show a game screen: above the start screen, or instead of the game screen."""
        from moderator.tui.screens.start import StartScreen

        if not any(isinstance(shown, StartScreen) for shown in self.screen_stack):
            # Shutting down (the stack is being emptied): a late action shows nothing.
            return
        # A dialog left open over the old screen (help, a player picker) would
        # otherwise be the one replaced: close it first.
        while isinstance(self.screen, ModalScreen) and len(self.screen_stack) > 2:
            self.pop_screen()
        if isinstance(self.screen, StartScreen):
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def back_to_start(self) -> None:
        """Leave the game screens (the game stays saved)."""
        from moderator.tui.screens.start import StartScreen

        self.session.silence()
        while len(self.screen_stack) > 2 and not isinstance(self.screen, StartScreen):
            self.pop_screen()

    def route(self) -> None:
        """Show the screen the open game's state calls for, or refresh it."""
        from moderator.tui.screens import routing

        target = routing.screen_for(self.session, self.screen)
        if target is None:
            refresh = getattr(self.screen, "refresh_state", None)
            if refresh is not None:
                refresh()
            return
        self.show_screen(target)

    # --- app-wide actions --------------------------------------------------------------

    def action_toggle_mute(self) -> None:
        """Silence at once (or bring the voice back)."""
        muted = self.session.toggle_mute()
        self.notify("Voice muted." if muted else "Voice on.", markup=False)

    def action_help(self) -> None:
        """Keys and the rulebook's reference panels."""
        from moderator.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        """Voice, language, reveal time."""
        from moderator.tui.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

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
        from moderator.storage import Store

        store = Store.open(data_dir)
    try:
        if narrator is None:
            from moderator.tui.voice import build_narrator

            narrator = build_narrator(settings, voice_scripts_dir, cache_dir)
    except BaseException:
        store.close()
        raise
    notices = [*store.notices, *narrator.warnings]
    notices += [notice for notice in (settings_notice, keymap_notice) if notice]
    app = MindFlayerApp(Session(store, narrator, settings, config_dir), notices)
    app.use_keymap(keymap)
    return app
