"""Narration to the screens: the latest playback's progress, to the screen of its phase.

The narrator reports from its own thread; `_narration_event` turns each event
into a message (`moderator.tui.messages.translate`) and posts it, so the
handlers below run on the UI thread like any event. A replaced playback's
tail is dropped (`TableController.playback_phase`).
"""

from __future__ import annotations

from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.tui.compat_screens import DropsInputAfterClose
from moderator.tui.messages import (
    NarrationAmbience,
    NarrationCountedDown,
    NarrationFinished,
    NarrationLineStarted,
    NarrationNoticed,
    translate,
)
from moderator.tui.screens.base import PhaseScreen
from moderator.tui.widgets.voice_state import VoiceState


class NarratedApp(DropsInputAfterClose):
    """The app's base: routes narration messages to the phase screens (see the module)."""

    controller: TableController
    voice_state: VoiceState
    #: The screen of each phase the table has been in (created on first use, kept).
    _screens: dict[Phase, PhaseScreen]

    def _narration_event(self, playback: int, event: object) -> None:
        """A narration event (on the narration thread) becomes a message to the app."""
        message = translate(playback, event)
        if message is not None:
            self.post_message(message)

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
