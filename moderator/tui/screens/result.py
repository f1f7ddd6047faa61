"""Results: who growled, Waffles in hand, the winning team and points.

The winner and points are the domain's rules (`winning_team`, `points`),
previewed as the table ticks boxes, and saved through `ResultsDeclared`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Header, Input, Static

from moderator.domain import IllegalAction, ResultsDeclared, Team, rules
from moderator.tui.screens.base import PlayScreen


class ResultScreen(PlayScreen):
    """Mark the Possessed, count the winners' Waffles, save."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save result", id="save-result", priority=True),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape", "menu", "Menu", id="result-menu", tooltip="Back to the start screen (saved)"
        ),
    ]

    def compose(self) -> ComposeResult:
        """One row per player: growled?, Waffles."""
        state = self.session.state
        yield Header()
        yield Static(
            "Tick everyone who growled (Possessed). Enter each winner's Waffle cards.",
            id="result-help",
            markup=False,
        )
        with VerticalScroll(id="result-rows"):
            for seat, name in enumerate(state.players):
                with Horizontal(classes="result-row"):
                    label = Text(name)
                    if seat in state.knocked_out:
                        label.append("  (knocked out)", style="dim")
                    yield Checkbox(label, id=f"possessed-{seat}", compact=True)
                    yield Static("Waffles:", classes="waffle-label", markup=False)
                    yield Input(
                        "0",
                        restrict=r"\d{0,2}",
                        max_length=2,
                        id=f"waffles-{seat}",
                        compact=True,
                        classes="waffles",
                    )
        yield Static("", id="result-winner", markup=False)
        yield Static("", id="result-error", markup=False)
        yield Button("Save result (^S)", id="result-save", variant="success", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Show the preview for nobody ticked (Tab reaches the first box)."""
        self._preview()

    def refresh_state(self) -> None:
        """The roster cannot change here; keep what was typed."""
        self._preview()

    def _possessed(self) -> tuple[int, ...]:
        state = self.session.state
        return tuple(
            seat
            for seat in range(state.count)
            if self.query_one(f"#possessed-{seat}", Checkbox).value
        )

    def _waffles(self) -> tuple[int, ...]:
        state = self.session.state
        counts: list[int] = []
        for seat in range(state.count):
            raw = self.query_one(f"#waffles-{seat}", Input).value.strip() or "0"
            try:
                counts.append(int(raw))
            except ValueError:
                raise IllegalAction(
                    f"{state.players[seat]}'s Waffle cards must be a whole number."
                ) from None
        return tuple(counts)

    def _preview(self) -> None:
        state = self.session.state
        possessed = self._possessed()
        winner = rules.winning_team(possessed, state.in_play)
        text = Text("If that is right: ", style="")
        text.append("the SANE win" if winner is Team.SANE else "the POSSESSED win", style="bold")
        try:
            scores = rules.points(state.count, possessed, self._waffles(), winner)
        except IllegalAction as error:
            text.append(f". {error}")
        else:
            text.append(". Points: ")
            text.append(
                ", ".join(
                    f"{name} {score}" for name, score in zip(state.players, scores, strict=True)
                )
            )
        self.query_one("#result-winner", Static).update(text)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Preview the winner as boxes are ticked."""
        self._preview()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Preview the points as Waffles are typed."""
        self._preview()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The save button."""
        if event.button.id == "result-save":
            self.action_save()

    def action_save(self) -> None:
        """Save the result (the domain checks it) and show the series board."""
        error_label = self.query_one("#result-error", Static)
        game = self.session.game
        try:
            event = ResultsDeclared(self._possessed(), self._waffles())
            if game is not None:
                game.timeline.check(event)
        except IllegalAction as error:
            error_label.update(str(error))
            self.say(str(error), severity="error")
            return
        error_label.update("")
        self.act(event)
