"""Narration to the screens: the latest playback's progress, to the screen of its phase.

The narrator reports from its own thread; `NarrationRouter.report` turns each
event into a message (`moderator.tui.messages.translate`) and posts it to the
app, so the routing below runs on the UI thread like any event. A replaced
playback's tail is dropped (`TableController.playback_phase`).

A collaborator of the app, not a base class of it: it is handed the app (as
Textual's `App`), the controller, the phase screens made so far and how to tell
a speech fault already reported, and it knows nothing else of the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from textual.app import App

from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.tui.messages import (
    Narration,
    NarrationAmbience,
    NarrationCountedDown,
    NarrationFinished,
    NarrationLineStarted,
    NarrationNoticed,
    translate,
)
from moderator.tui.screens.phase_screen import PhaseScreen


@runtime_checkable
class FollowsNarration(Protocol):
    """A dialog on top that shows the narration it started (How to play) instead of its screen."""

    def follow_line(self, text: str) -> None:
        """A line of the dialog's script started."""

    def follow_finished(self, cancelled: bool) -> None:
        """The dialog's script ended (or was cancelled)."""


class NarrationRouter:
    """Hands each narration message to the screen (or dialog) showing its playback."""

    def __init__(
        self,
        app: App[Any],
        controller: TableController,
        screens: Mapping[Phase, PhaseScreen],
        is_fault: Callable[[str], bool],
    ) -> None:
        """`screens`: the app's phase screens (read live); `is_fault`: a fault already toasted."""
        self._app = app
        self._controller = controller
        self._screens = screens
        self._is_fault = is_fault

    def report(self, playback: int, event: object) -> None:
        """A narration event (on the narration thread) becomes a message to the app."""
        message = translate(playback, event)
        if message is not None:
            self._app.post_message(message)

    def route(self, message: Narration) -> None:
        """On the UI thread: the message to whoever shows its playback."""
        match message:
            case NarrationLineStarted():
                self._line_started(message)
            case NarrationCountedDown():
                if (screen := self._narrated(message.playback)) is not None:
                    screen.show_countdown(message.seconds_left)
            case NarrationAmbience():
                if (screen := self._narrated(message.playback)) is not None:
                    screen.show_ambience(message.started, message.audible)
            case NarrationNoticed():
                self._noticed(message)
            case NarrationFinished():
                self._finished(message)

    def _narrated(self, playback: int) -> PhaseScreen | None:
        """The mounted screen for `playback`'s phase; None once the app is shutting down.

        Textual sets `is_running` false before it removes the screens, and narration
        can still report from its thread meanwhile.
        """
        if not self._app.is_running:
            return None
        phase = self._controller.playback_phase(playback)
        screen = self._screens.get(phase) if phase is not None else None
        return screen if screen is not None and screen.is_mounted else None

    def _follower(self, playback: int) -> FollowsNarration | None:
        """The dialog on top that follows the latest playback, if one does."""
        app = self._app
        if not app.is_running or not app.screen_stack:
            return None
        top = app.screen
        if (
            isinstance(top, FollowsNarration)
            and self._controller.playback_phase(playback) is not None
        ):
            return top
        return None

    def _line_started(self, message: NarrationLineStarted) -> None:
        """Captions follow the voice (kept for a screen that is not mounted yet)."""
        follower = self._follower(message.playback)
        if follower is not None:
            follower.follow_line(message.text)
            return
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.show_line(message.text)
            return
        phase = self._controller.playback_phase(message.playback)
        waiting = self._screens.get(phase) if phase is not None else None
        if waiting is not None and not waiting.is_mounted:
            waiting.early_line = message.text

    def _noticed(self, message: NarrationNoticed) -> None:
        """A missing part of a script, for instance.

        A speech fault also arrives here as a playback notice; the app reports those
        once, app-wide (`VoiceState`), so only the other notices are shown.
        """
        if self._is_fault(message.message):
            return
        if self._controller.playback_phase(message.playback) is not None:
            self._app.notify(message.message, severity="warning", markup=False, timeout=8)

    def _finished(self, message: NarrationFinished) -> None:
        """The script ended or was cancelled."""
        follower = self._follower(message.playback)
        if follower is not None:
            follower.follow_finished(message.cancelled)
            return
        screen = self._narrated(message.playback)
        if screen is not None:
            screen.narration_finished(message.cancelled)
