"""The eyes-closed reveal (6-10 players): one key, then hands-free.

The person who pressed the key has their eyes closed too, so once started the
screen needs nobody: captions follow the voice, a big countdown shows the
eyes-open window, and the table screen follows by itself at the end.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Digits, Footer, Header, Static

from moderator.tui.messages import (
    NarrationAmbience,
    NarrationCountedDown,
    NarrationFinished,
    NarrationLineStarted,
    NarrationNoticed,
)
from moderator.tui.screens.base import SessionScreen
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.bigtext import BigText

_READY = "Press Enter (or space) to start the reveal, then close your eyes."


class RevealScreen(SessionScreen):
    """Captions and a countdown in step with the reveal script."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "play", "Start reveal", id="reveal-play", tooltip="Run the reveal"),
        Binding("escape", "abort", "Abort", id="reveal-abort", tooltip="Stop the reveal at once"),
        Binding("t", "to_table", "To the table", id="reveal-skip", tooltip="Start the turns"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The playback whose messages this screen follows (0: none).
        self.playback = 0
        #: Whether the reveal is running now.
        self.running = False

    def compose(self) -> ComposeResult:
        """Caption, countdown, and a status line."""
        yield Header()
        with Vertical(id="reveal-box"):
            yield BigText("EYES CLOSED REVEAL", id="reveal-caption")
            yield Digits("", id="reveal-countdown")
            yield Static(_READY, id="reveal-status", markup=False)
            yield AmbienceMarker(id="reveal-ambience")
        yield Footer()

    def action_play(self) -> None:
        """Start (or replay) the reveal."""
        seconds = self.session.settings.reveal_seconds
        self.running = True
        self.query_one("#reveal-countdown", Digits).update("")
        self.query_one("#reveal-status", Static).update("Reveal running. Esc stops it.")
        self.playback = self.session.speak("reveal", {"seconds": seconds}, self)

    def action_abort(self) -> None:
        """Silence at once; the table can replay or go on."""
        if not self.running:
            self.table_app.back_to_start()
            return
        self.running = False
        self.playback = 0
        self.session.silence()
        self._stopped("Reveal stopped. Enter plays it again; t goes to the table.")

    def action_to_table(self) -> None:
        """Start the turns (the reveal is silenced if still running)."""
        from moderator.tui.screens.table import TableScreen

        self.session.silence()
        self.running = False
        self.playback = 0  # the cancelled playback's last messages are not ours any more
        self.table_app.show_screen(TableScreen())

    def _stopped(self, status: str) -> None:
        self.query_one(AmbienceMarker).follow(started=False, audible=False)
        self.query_one("#reveal-countdown", Digits).update("")
        self.query_one("#reveal-status", Static).update(status)

    def on_narration_line_started(self, message: NarrationLineStarted) -> None:
        """The caption follows the voice."""
        if message.playback == self.playback:
            self.query_one("#reveal-caption", BigText).text = message.text

    def on_narration_counted_down(self, message: NarrationCountedDown) -> None:
        """The eyes-open window, second by second."""
        if message.playback == self.playback:
            self.query_one("#reveal-countdown", Digits).update(str(message.seconds_left))

    def on_narration_ambience(self, message: NarrationAmbience) -> None:
        """The bed under the eyes-closed span: playing, or would play (captions only)."""
        if message.playback == self.playback:
            self.query_one(AmbienceMarker).follow(message.started, message.audible)

    def on_narration_noticed(self, message: NarrationNoticed) -> None:
        """A missing part of the script, for instance."""
        if message.playback == self.playback:
            self.say(message.message, severity="warning")

    def on_narration_finished(self, message: NarrationFinished) -> None:
        """At the end the turns begin by themselves; a cancel leaves the choice."""
        if message.playback != self.playback:
            return
        self.running = False
        if message.cancelled:
            self._stopped("Reveal stopped. Enter plays it again; t goes to the table.")
        else:
            self.action_to_table()
