"""The first screen: resume, a new series, history, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Footer, Header, Static

from moderator.tui.ports import ACTION_ERRORS
from moderator.tui.screens.base import SessionScreen
from moderator.tui.widgets.bigtext import BigText


class StartScreen(SessionScreen):
    """Where the night starts and where "back to start" lands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "resume", "Resume", id="resume", tooltip="Continue the unfinished game"),
        Binding("n", "new_series", "New series", id="new-series", tooltip="Start a new series"),
        Binding("h", "history", "History", id="history", tooltip="Past games and series"),
        Binding("q", "app.quit", "Quit", id="quit", tooltip="Close the app (all is saved)"),
    ]

    def compose(self) -> ComposeResult:
        """Title, what can be resumed, and the choices."""
        yield Header()
        with Vertical(id="start-box"):
            yield BigText("MIND FLAYER", id="start-title")
            yield Static("", id="start-unfinished", markup=False)
            yield Button("Resume (c)", id="start-resume", variant="success", compact=True)
            yield Button("New series (n)", id="start-new", variant="primary", compact=True)
            yield Button("History (h)", id="start-history", compact=True)
            yield Button("Settings (F2)", id="start-settings", compact=True)
            yield Button("Help (F1)", id="start-help", compact=True)
            yield Button("Quit (q)", id="start-quit", variant="error", compact=True)
        yield Footer()

    def on_screen_resume(self) -> None:
        """Offer the unfinished series whenever this screen shows."""
        self._offer_resume()

    def on_mount(self) -> None:
        """Offer the unfinished series at start."""
        self._offer_resume()

    def _offer_resume(self) -> None:
        try:
            unfinished = self.session.store.unfinished()
        except ACTION_ERRORS as error:
            self.say(str(error), severity="error")
            unfinished = None
        label = self.query_one("#start-unfinished", Static)
        resume = self.query_one("#start-resume", Button)
        resume.display = unfinished is not None
        if unfinished is None:
            label.update("")
        elif unfinished.game is None:
            label.update("An unfinished series is waiting for its next game.")
        else:
            state = unfinished.game.state
            label.update(
                f"Game {unfinished.game.number} is unfinished: "
                f"{len(state.players)} players, turn {state.turn}."
            )
        if unfinished is not None:
            resume.focus()
        else:
            self.query_one("#start-new", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Each button runs the matching key's action."""
        actions = {
            "start-resume": self.action_resume,
            "start-new": self.action_new_series,
            "start-history": self.action_history,
            "start-settings": self.table_app.action_settings,
            "start-help": self.table_app.action_help,
            "start-quit": self.app.exit,
        }
        handler = actions.get(event.button.id or "")
        if handler is not None:
            handler()

    def action_resume(self) -> None:
        """Bring the table back exactly where it was."""
        try:
            found = self.session.resume()
        except ACTION_ERRORS as error:
            self.say(str(error), severity="error")
            return
        if not found:
            self.say("There is no unfinished game to resume.")
            return
        self.table_app.route()

    def action_new_series(self) -> None:
        """A new series (an unfinished one is set aside), starting with setup."""
        self.begin_new_series()

    def action_history(self) -> None:
        """Past series and games."""
        from moderator.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen())
