"""Results: who growled, Waffles in hand, the winning team and points.

The winner and points are the domain's rules, previewed through the
controller as the table ticks boxes (`TableController.judge` of
`ResultsDeclared`), and saved through the same event: the preview never shows
points that saving would refuse, and every refusal is the domain's own sentence.

The screen is built once with a row for the most players a game can have; a
game shows the rows of its seats and hides the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Footer, Header, Input, Static

from moderator.domain import ResultsDeclared, Team, rules
from moderator.tui.messages import DeclareResults
from moderator.tui.phases import Phase
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
    terminal; here an unticked box is empty. The mark is the public
    `BUTTON_INNER`, set from the value (no private part of Textual is touched).
    """

    TICKED = "X"

    def __init__(self, label: Text, *, id: str | None = None, compact: bool = False) -> None:
        super().__init__(label, id=id, compact=compact)
        self.BUTTON_INNER = " "

    def watch_value(self) -> None:
        """The mark follows the value, then Textual's own reaction (class, Changed)."""
        self.BUTTON_INNER = self.TICKED if self.value else " "
        super().watch_value()


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

    PHASE = Phase.RESULT
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save result", id="save-result", priority=True),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape", "menu", "Menu", id="result-menu", tooltip="Back to the start screen (saved)"
        ),
    ]

    def compose(self) -> ComposeResult:
        """One row per seat: growled?, team, Waffles (rows beyond the roster hidden)."""
        yield Header()
        yield Static(
            "Tick everyone who growled: they are Possessed, the others Sane.\n"
            "Waffle cards count only for the winning team.",
            id="result-help",
            markup=False,
        )
        with VerticalScroll(id="result-rows"):
            for seat in range(rules.MAX_PLAYERS):
                with Horizontal(classes="result-row", id=f"result-row-{seat}"):
                    yield GrowledBox(Text(""), id=f"possessed-{seat}", compact=True)
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

    def entered(self) -> None:
        """A game to enter: its roster, nobody ticked, no Waffles (Tab reaches the first box)."""
        state = self.controller.game_state
        if state is None:
            return
        for seat in range(rules.MAX_PLAYERS):
            row = self.query_one(f"#result-row-{seat}", Horizontal)
            row.display = seat < state.count
            box = self.query_one(f"#possessed-{seat}", GrowledBox)
            waffles = self.query_one(f"#waffles-{seat}", WaffleInput)
            with self.prevent(Checkbox.Changed, Input.Changed):
                box.value = False
                waffles.value = "0"
            if seat < state.count:
                label = Text(state.players[seat])
                if seat in state.knocked_out:
                    label.append("  (knocked out)", style="dim")
                box.label = label
        self.query_one("#result-error", Static).update("")
        self._preview()

    def refresh_state(self) -> None:
        """The roster cannot change here; keep what was typed."""
        self._preview()

    def refused(self, sentence: str) -> None:
        """Saving was refused: the domain's sentence under the rows."""
        self.query_one("#result-error", Static).update(Text(sentence))

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
        state = self.controller.game_state
        if state is None:
            return None
        waffles: list[int | str] = [0] * state.count
        waffles[seat] = waffle_count(raw)
        trial = ResultsDeclared(tuple(range(state.count)), cast(tuple[int, ...], tuple(waffles)))
        judged = self.controller.judge(trial)
        return judged if isinstance(judged, str) else None

    def _possessed(self, count: int) -> tuple[int, ...]:
        return tuple(
            seat for seat in range(count) if self.query_one(f"#possessed-{seat}", Checkbox).value
        )

    def _event(self, count: int) -> ResultsDeclared:
        """The results as typed; the domain judges them (not-a-number included)."""
        waffles = tuple(
            waffle_count(self.query_one(f"#waffles-{seat}", Input).value) for seat in range(count)
        )
        # A field that is not a whole number reaches the domain as text on purpose:
        # the domain refuses it with its own sentence.
        return ResultsDeclared(self._possessed(count), cast(tuple[int, ...], waffles))

    def _show_teams(self, possessed: tuple[int, ...], in_play: tuple[int, ...], count: int) -> None:
        """Each row's team in words, and the losing team's Waffles marked as not counted."""
        winner = rules.winning_team(possessed, in_play)
        for seat in range(count):
            team = rules.team_of(seat, possessed)
            self.query_one(f"#team-{seat}", Static).update(
                Text("Possessed", style="bold") if team is Team.POSSESSED else Text("Sane")
            )
            losing = team is not winner
            self.query_one(f"#result-row-{seat}", Horizontal).set_class(losing, "-losing")
            self.query_one(f"#waffle-note-{seat}", Static).update("not counted" if losing else "")

    def _preview(self) -> None:
        """Winner and points if the domain would accept the entry, else its sentence."""
        state = self.controller.game_state
        if state is None or not state.is_over:
            return
        possessed = self._possessed(state.count)
        self._show_teams(possessed, state.in_play, state.count)
        preview = self.query_one("#result-winner", Static)
        result = self.controller.judge(self._event(state.count))
        if isinstance(result, str):
            preview.set_class(True, "-pending")
            preview.update(Text(result))
            return
        text = Text("If that is right: ")
        text.append(
            "the SANE win" if result.winner is Team.SANE else "the POSSESSED win", style="bold"
        )
        text.append(". Points: ")
        text.append(
            ", ".join(
                f"{name} {score}" for name, score in zip(state.players, result.points, strict=True)
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
        state = self.controller.game_state
        if state is None:
            return
        event = self._event(state.count)
        judged = self.controller.judge(event)
        if isinstance(judged, str):
            self.refused(judged)
            self.say(judged, severity="error")
            return
        self.query_one("#result-error", Static).update("")
        self.ask(DeclareResults(event))
