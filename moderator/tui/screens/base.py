"""What every screen of a running game shares: acting, undo and redo.

Every table action goes through `act`, which saves before anything is shown
(the store commits first); a refused action shows the layer's sentence and
changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from moderator.domain import Redo, Undo
from moderator.domain.timeline import LogEntry
from moderator.tui.describe import describe
from moderator.tui.messages import (
    NarrationAmbience,
    NarrationCountedDown,
    NarrationFinished,
    NarrationLineStarted,
    NarrationNoticed,
)
from moderator.tui.ports import ACTION_ERRORS
from moderator.tui.session import Session

if TYPE_CHECKING:
    from moderator.tui.app import MindFlayerApp


NARRATION_MESSAGES = (
    NarrationLineStarted,
    NarrationCountedDown,
    NarrationNoticed,
    NarrationFinished,
    NarrationAmbience,
)


class SessionScreen(Screen[None]):
    """A screen that can reach the app's session."""

    async def _on_message(self, message: Message) -> None:
        """Drop narration progress that reaches a screen with nothing to show it on.

        Narration runs on its own thread and posts progress whenever it likes;
        under a burst of keys a screen can be left (its widgets pruned) while
        its script's messages are still queued. Showing them there is
        pointless and would fail to find the caption widgets.
        """
        if isinstance(message, NARRATION_MESSAGES) and not self._can_show():
            return
        await super()._on_message(message)

    def _can_show(self) -> bool:
        return self.is_attached and not self._pruning and not self._closing and bool(self.children)

    @property
    def table_app(self) -> MindFlayerApp:
        """The app, typed."""
        from moderator.tui.app import MindFlayerApp

        return cast(MindFlayerApp, self.app)

    @property
    def session(self) -> Session:
        """The game night's store, game and narrator."""
        return self.table_app.session

    def say(self, message: str, *, severity: str = "information") -> None:
        """A notification that shows `message` literally (names are never markup).

        Routine notices go away quickly so they never pile up over the table;
        errors stay longer.
        """
        if severity == "error":
            self.notify(message, severity="error", markup=False, timeout=8)
        elif severity == "warning":
            self.notify(message, severity="warning", markup=False, timeout=8)
        else:
            self.notify(message, markup=False, timeout=3)

    def begin_new_series(self) -> None:
        """A new series (an unfinished one is set aside), starting with setup.

        The roster of the last game is offered again, so the same table only
        confirms its seating.
        """
        from moderator.tui.screens.setup import SetupScreen

        plan = self.session.next_plan()
        try:
            set_aside = self.session.new_series()
        except ACTION_ERRORS as error:
            self.say(str(error), severity="error")
            return
        if set_aside:
            self.say("The unfinished series was set aside; a new one starts.")
        self.session.silence()
        self.table_app.show_screen(SetupScreen(plan))


class PlayScreen(SessionScreen):
    """A screen showing the open game; it redraws from the game's state."""

    #: Added at the end of each game screen's own bindings (so they come last in the Footer).
    UNDO_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "Undo", id="undo", tooltip="Take back the last table action"),
        Binding("r", "redo", "Redo", id="redo", tooltip="Do again what was just undone"),
    ]

    def refresh_state(self) -> None:
        """Redraw from `self.session.state` (each screen fills this in)."""

    def on_screen_resume(self) -> None:
        """Coming back from a dialog: the state may have changed meanwhile."""
        if self.session.game is not None:
            self.refresh_state()

    def act(self, entry: LogEntry, done: str | None = None) -> bool:
        """Save and apply an entry, then show the screen the new state calls for."""
        try:
            self.session.record(entry)
        except ACTION_ERRORS as error:
            self.say(str(error), severity="error")
            return False
        if done:
            self.say(done)
        self.table_app.route()
        return True

    def action_menu(self) -> None:
        """Esc: silence the voice at once if it is speaking, else back to the start screen.

        The game is saved and can be resumed from the start screen.
        """
        if self.session.speaking:
            self.session.silence()
            self.say("Silenced. Esc again: start screen.")
            return
        self.table_app.back_to_start()

    def action_undo(self) -> None:
        """Take back the last action, saying what it was."""
        self._step(Undo())

    def action_redo(self) -> None:
        """Apply again what was just undone."""
        self._step(Redo())

    def _step(self, entry: Undo | Redo) -> None:
        """Undo or redo through `act`, with a notice naming the event it moves."""
        game = self.session.game
        if game is None:
            return
        timeline = game.timeline
        if isinstance(entry, Undo):
            verb, event = "Undone", timeline.events[-1] if timeline.can_undo else None
        else:
            verb, event = "Redone", timeline.redo_stack[-1] if timeline.can_redo else None
        notice = f"{verb}: {describe(event, game.state)}." if event is not None else None
        self.act(entry, notice)
