"""Results: who growled, Waffles in hand, the winning team and points.

The winner and points are the domain's rules, previewed through the game's
timeline as the table ticks boxes (`Timeline.preview` of `ResultsDeclared`),
and saved through the same event: the preview never shows points that saving
would refuse, and every refusal is the domain's own sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.style import Style
from textual.widgets import Button, Checkbox, Footer, Header, Input, Static

from moderator.domain import IllegalAction, ResultsDeclared, Team, rules
from moderator.tui.screens.base import PlayScreen

#: What a Waffle field holds that the domain can judge as a number (sign included,
#: so "-1" gets the domain's range sentence rather than a vaguer one).
_NUMBER = re.compile(r"-?[0-9]+")


def waffle_count(raw: str) -> int | str:
    """A Waffle field's text as the domain should see it.

    Empty means none. Anything else not written as a whole number in plain
    digits (spaces, "+1", "1.5") stays a string, so the domain refuses it in its
    own words ("must be a whole number").
    """
    if not raw:
        return 0
    return int(raw) if _NUMBER.fullmatch(raw) else raw


class GrowledBox(Checkbox):
    """A "who growled" box whose mark, not only its colour, says ticked or not.

    Textual's Checkbox draws the same "X" either way and changes its colour,
    which a table cannot tell apart across the room or in a monochrome
    terminal; here an unticked box is empty.
    """

    @property
    def _button(self) -> Content:
        """Textual's box (same cells and styles) with an X when ticked, blank when not."""
        button_style = self.get_visual_style("toggle--button")
        side_style = Style(foreground=button_style.background, background=self.background_colors[1])
        return Content.assemble(
            (self.BUTTON_LEFT, side_style),
            (self.BUTTON_INNER if self.value else " ", button_style),
            (self.BUTTON_RIGHT, side_style),
        )


class WaffleInput(Input):
    """A Waffle count that refuses, as it is typed, what the domain would refuse.

    A refused edit leaves the field as it was (what was typed before stays)
    and posts `Refused` with the domain's sentence for the screen to show.
    Deleting is always allowed, so a bad value set from elsewhere can be fixed.
    """

    class Refused(Message):
        """An edit was refused; `sentence` says why, for the table."""

        def __init__(self, field: WaffleInput, sentence: str) -> None:
            super().__init__()
            self.field = field
            self.sentence = sentence

    def __init__(
        self,
        check: Callable[[str], str | None],
        *,
        id: str | None = None,
        classes: str | None = None,
        compact: bool = False,
    ) -> None:
        """`check` returns the domain's sentence for a field text it refuses, else None."""
        super().__init__("0", id=id, classes=classes, compact=compact)
        self._check = check

    def replace(self, text: str, start: int, end: int) -> None:
        """Apply the edit only if the domain accepts the resulting count."""
        if text:
            value = self.value
            start, end = sorted((max(0, start), min(len(value), end)))
            sentence = self._check(f"{value[:start]}{text}{value[end:]}")
            if sentence is not None:
                self.restricted()
                self.post_message(self.Refused(self, sentence))
                return
        super().replace(text, start, end)


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
        """One row per player: growled?, team, Waffles."""
        state = self.session.state
        yield Header()
        yield Static(
            "Tick everyone who growled: they are Possessed, the others Sane.\n"
            "Waffle cards count only for the winning team.",
            id="result-help",
            markup=False,
        )
        with VerticalScroll(id="result-rows"):
            for seat, name in enumerate(state.players):
                with Horizontal(classes="result-row", id=f"result-row-{seat}"):
                    label = Text(name)
                    if seat in state.knocked_out:
                        label.append("  (knocked out)", style="dim")
                    yield GrowledBox(label, id=f"possessed-{seat}", compact=True)
                    yield Static("Sane", id=f"team-{seat}", classes="team", markup=False)
                    yield Static("Waffles:", classes="waffle-label", markup=False)
                    yield WaffleInput(
                        self._checker(seat),
                        id=f"waffles-{seat}",
                        compact=True,
                        classes="waffles",
                    )
                    yield Static("", id=f"waffle-note-{seat}", classes="waffle-note", markup=False)
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

    def _checker(self, seat: int) -> Callable[[str], str | None]:
        """The domain's judgement of one seat's Waffle field, for `WaffleInput`."""
        return lambda raw: self._waffle_refusal(seat, raw)

    def _waffle_refusal(self, seat: int, raw: str) -> str | None:
        """The domain's sentence if `raw` is no Waffle count for `seat`, else None.

        The domain is asked about this field alone: every seat is marked
        Possessed (so the number of ticks is never the complaint) and nobody
        else holds Waffles, so the only sentence it can give is about `raw`.
        The bounds (whole numbers, 0..12) stay the domain's.
        """
        game = self.session.game
        if game is None:
            return None
        state = game.state
        waffles: list[int | str] = [0] * state.count
        waffles[seat] = waffle_count(raw)
        trial = ResultsDeclared(tuple(range(state.count)), cast(tuple[int, ...], tuple(waffles)))
        try:
            game.timeline.check(trial)
        except IllegalAction as error:
            return str(error)
        return None

    def _possessed(self) -> tuple[int, ...]:
        state = self.session.state
        return tuple(
            seat
            for seat in range(state.count)
            if self.query_one(f"#possessed-{seat}", Checkbox).value
        )

    def _event(self) -> ResultsDeclared:
        """The results as typed; the domain judges them (not-a-number included)."""
        state = self.session.state
        waffles = tuple(
            waffle_count(self.query_one(f"#waffles-{seat}", Input).value)
            for seat in range(state.count)
        )
        # A field that is not a whole number reaches the domain as text on purpose:
        # the domain refuses it with its own sentence.
        return ResultsDeclared(self._possessed(), cast(tuple[int, ...], waffles))

    def _show_teams(self, possessed: tuple[int, ...]) -> None:
        """Each row's team in words, and the losing team's Waffles marked as not counted."""
        state = self.session.state
        winner = rules.winning_team(possessed, state.in_play)
        for seat in range(state.count):
            team = rules.team_of(seat, possessed)
            self.query_one(f"#team-{seat}", Static).update(
                Text("Possessed", style="bold") if team is Team.POSSESSED else Text("Sane")
            )
            losing = team is not winner
            self.query_one(f"#result-row-{seat}", Horizontal).set_class(losing, "-losing")
            self.query_one(f"#waffle-note-{seat}", Static).update("not counted" if losing else "")

    def _preview(self) -> None:
        """Winner and points if the domain would accept the entry, else its sentence."""
        game = self.session.game
        if game is None:
            return
        possessed = self._possessed()
        self._show_teams(possessed)
        preview = self.query_one("#result-winner", Static)
        try:
            result = game.timeline.preview(self._event()).result
        except IllegalAction as error:
            preview.set_class(True, "-pending")
            preview.update(Text(str(error)))
            return
        assert result is not None  # a declared result is the point of the event
        text = Text("If that is right: ")
        text.append(
            "the SANE win" if result.winner is Team.SANE else "the POSSESSED win", style="bold"
        )
        text.append(". Points: ")
        text.append(
            ", ".join(
                f"{name} {score}"
                for name, score in zip(game.state.players, result.points, strict=True)
            )
        )
        preview.set_class(False, "-pending")
        preview.update(text)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Preview the winner as boxes are ticked."""
        self.query_one("#result-error", Static).update("")
        self._preview()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Preview the points as Waffles are typed."""
        self.query_one("#result-error", Static).update("")
        self._preview()

    def on_waffle_input_refused(self, event: WaffleInput.Refused) -> None:
        """Say why a keystroke was not taken (the field keeps what it had)."""
        self.query_one("#result-error", Static).update(Text(event.sentence))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The save button."""
        if event.button.id == "result-save":
            self.action_save()

    def action_save(self) -> None:
        """Save the result (the domain checks it) and show the series board."""
        error_label = self.query_one("#result-error", Static)
        game = self.session.game
        event = self._event()
        try:
            if game is not None:
                game.timeline.check(event)
        except IllegalAction as error:
            error_label.update(Text(str(error)))
            self.say(str(error), severity="error")
            return
        error_label.update("")
        self.act(event)
