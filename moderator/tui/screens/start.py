"""The first screen: resume, a new series, history, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Footer, Header, Static

from moderator.tui.messages import NewSeries, OpenHistory, Resume
from moderator.tui.phases import Phase
from moderator.tui.ports import ACTION_ERRORS
from moderator.tui.screens.base import PhaseScreen
from moderator.tui.widgets.bigtext import BigText


class StartScreen(PhaseScreen):
    """Where the night starts and where "back to start" lands."""

    PHASE = Phase.START
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "resume", "Resume", id="resume", tooltip="Continue the unfinished game"),
        Binding("n", "new_series", "New series", id="new-series", tooltip="Start a new series"),
        Binding("h", "history", "History", id="history", tooltip="Past games and series"),
        Binding("q", "app.quit", "Quit", id="quit", tooltip="Close the app (all is saved)"),
    ]

    #: Whether there is an unfinished series (the footer offers Resume only then).
    resumable = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Resume with nothing to resume is hidden from the footer (and does nothing)."""
        return self.resumable or action != "resume"

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
        if self.is_mounted and self.app.is_running:
            self.refresh_state()

    def refresh_state(self) -> None:
        """Offer the unfinished series, if any (focus on Resume, else New series)."""
        try:
            found, summary = self.controller.unfinished_summary()
        except ACTION_ERRORS as error:
            self.say(str(error), severity="error")
            found, summary = False, ""
        self.query_one("#start-unfinished", Static).update(summary)
        resume = self.query_one("#start-resume", Button)
        resume.display = found
        if self.resumable != found:
            self.resumable = found
            self.refresh_bindings()
        if found:
            resume.focus()
        else:
            self.query_one("#start-new", Button).focus()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Each button runs the matching key's action."""
        actions = {
            "start-resume": "resume",
            "start-new": "new_series",
            "start-history": "history",
            "start-settings": "app.settings",
            "start-help": "app.help",
            "start-quit": "app.quit",
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            await self.run_action(action)

    def action_resume(self) -> None:
        """Bring the table back exactly where it was."""
        self.ask(Resume())

    def action_new_series(self) -> None:
        """A new series (an unfinished one is set aside), starting with setup."""
        self.ask(NewSeries())

    def action_history(self) -> None:
        """Past series and games."""
        self.ask(OpenHistory())
