"""Results: who growled, Waffles in hand, the winning team and points.

The winner and points are the domain's rules, previewed through the
controller as the table ticks boxes (`TableController.judge` of
`ResultsDeclared`), and saved through the same event: the preview never shows
points that saving would refuse, and every refusal is the domain's own sentence.

The screen is built once with a row for the most players a game can have; a
game shows the rows of its seats and hides the others.

A refused Waffle keystroke leaves its box as it was, and the box is marked
until it is edited again: while a box is marked, the preview counts no points
and saving is refused. "99" typed fast shows "9" with "cannot hold 99"; what
the table meant is not 9, so the screen never turns that leftover 9 into
points on its own. What is saved is always exactly what the boxes show, and
a number is saved only after the table has settled it.

Keys: the first row's box has the focus on arrival; Space ticks that row's
"growled" box from either column, a digit types that row's Waffles, Up and Down
move between rows (same column).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, cast

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Static

from moderator.domain import ResultsDeclared, Team, rules
from moderator.i18n import N_, NP_, _
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import DeclareResults
from moderator.tui.screens import drafted
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.widgets.game_header import GameHeader
from moderator.tui.widgets.result_fields import (
    GrowledBox,
    WaffleInput,
    keys_in_words,
    waffle_count,
)

#: The screen's own words drawn once (msgids, drawn through `_()`).
_HELP = N_(
    "Tick everyone who growled: they are Possessed, the others Sane.\n"
    "Waffle cards count only for the winning team."
)
#: How to tick and how to reach the Waffles: the footer has no room for these keys.
_KEYS = N_("Space: tick the row · Tab: its Waffles · ↑ ↓: other rows")
_WAFFLES = N_("Waffles:")
_SAVE = N_("Save result")


class ResultScreen(PlayScreen):
    """Mark the Possessed, count the winners' Waffles, save."""

    PHASE = Phase.RESULT
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP = ("save-result", "result-menu", "mute", "settings", "undo", "redo")
    FOOTER_SHORT: ClassVar[dict[str, str]] = {"save-result": NP_("footer", "Save result")}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", N_("Save result"), id="save-result", priority=True),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape",
            "menu",
            N_("Menu"),
            id="result-menu",
            tooltip=N_("Back to the start screen (saved)"),
        ),
        Binding("space", "tick", N_("Tick growled"), show=False, priority=True),
        Binding("up", "row(-1)", N_("Row above"), show=False, priority=True),
        Binding("down", "row(1)", N_("Row below"), show=False, priority=True),
        # Tab moves at once too: a plain Tab waits in the focused widget's queue, so the
        # digit after it in a burst (a priority binding) acted on the row Tab was leaving.
        Binding("tab", "app.focus_next", N_("Next box"), show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", N_("Previous box"), show=False, priority=True),
        *(
            Binding(
                str(n),
                f"type_waffles('{n}')",
                N_("Type that row's Waffles"),
                show=False,
                priority=True,
            )
            for n in range(10)
        ),
    ]

    def compose(self) -> ComposeResult:
        """One row per seat: growled?, team, Waffles (rows beyond the roster hidden)."""
        yield GameHeader()
        yield Static(_(_HELP), id="result-help", markup=False)
        yield Static(_(_KEYS), id="result-keys", markup=False)
        with VerticalScroll(id="result-rows"):
            for seat in range(rules.MAX_PLAYERS):
                with Horizontal(classes="result-row", id=f"result-row-{seat}"):
                    yield GrowledBox(Text(""), id=f"possessed-{seat}", compact=True)
                    yield Static(_("Sane"), id=f"team-{seat}", classes="team", markup=False)
                    yield Static(_(_WAFFLES), classes="waffle-label", markup=False)
                    yield WaffleInput(
                        self._checker(seat),
                        id=f"waffles-{seat}",
                        compact=True,
                        classes="waffles",
                    )
                    yield Static("", id=f"waffle-note-{seat}", classes="waffle-note", markup=False)
        yield Static("", id="result-winner", markup=False)
        yield Static("", id="result-error", markup=False)
        yield Button(self._save_label(), id="result-save", variant="success", compact=True)
        yield self.notice_strip()
        yield self.key_bar()

    @staticmethod
    def _save_label() -> str:
        """The save button's words, and its key (no language's word: out of the msgid)."""
        return _(_SAVE) + " (^S)"

    def language_changed(self) -> None:
        """The words drawn once in the new language; the rows and the preview follow.

        The "knocked out" marks and every team word are drawn again by `entered`'s
        labels and the preview (`show`); a refusal's line is cleared (said once, before).
        """
        self.query_one("#result-help", Static).update(_(_HELP))
        self.query_one("#result-keys", Static).update(_(_KEYS))
        for label in self.query(".waffle-label").results(Static):
            label.update(_(_WAFFLES))
        self.query_one("#result-save", Button).label = self._save_label()
        self._label_rows()

    def entered(self) -> None:
        """A game to enter: its roster, and the first row's box focused.

        The boxes start empty, or, when the results were just undone from the
        series board, as they were saved (so undo takes back the saving, not
        the typing). Then the table's snapshot: the header, and the preview.
        """
        snapshot = self.controller.snapshot()
        state = snapshot.state
        if state is None:
            return
        undone = self.controller.undone_results()
        possessed = set(undone.possessed) if undone is not None else set()
        counts: tuple[int | str, ...] = tuple(undone.waffles) if undone is not None else ()
        offered = drafted.offer_results(self, state.count) if undone is None else None
        if offered is not None:  # what was typed before a crash
            possessed, counts = offered
        for seat in range(rules.MAX_PLAYERS):
            row = self.query_one(f"#result-row-{seat}", Horizontal)
            row.display = seat < state.count
            box = self.query_one(f"#possessed-{seat}", GrowledBox)
            waffles = self.query_one(f"#waffles-{seat}", WaffleInput)
            with self.prevent(Checkbox.Changed, Input.Changed):
                box.value = seat in possessed
                waffles.value = str(counts[seat]) if seat < len(counts) else "0"
                waffles.clear_refused()
        self._label_rows()
        self.query_one("#result-error", Static).update("")
        self.snapshot = snapshot
        self.set_focus(self.query_one("#possessed-0", GrowledBox))

    def _label_rows(self) -> None:
        """Each seat's name (literal), and the knocked-out marked in the table's words."""
        state = self.controller.game_state
        if state is None:
            return
        for seat in range(state.count):
            mark = _("(knocked out)") if seat in state.knocked_out else ""
            self.query_one(f"#possessed-{seat}", GrowledBox).show_player(state.players[seat], mark)

    def show(self, snapshot: TableSnapshot) -> None:
        """The roster cannot change here; keep what was typed."""
        self._preview()

    def refused(self, sentence: str) -> None:
        """Saving was refused by the layers below: the app has toasted `sentence` already.

        The line under the rows says only "Not saved.", so the sentence is said once.
        """
        self.query_one("#result-error", Static).update(Text(_("Not saved.")))

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

    def _unsettled(self, count: int) -> WaffleInput | None:
        """The first Waffle box whose last keystroke was refused and not yet edited again."""
        for seat in range(count):
            field = self.query_one(f"#waffles-{seat}", WaffleInput)
            if field.refused_text is not None:
                return field
        return None

    def _unsettled_sentence(self, field: WaffleInput, state_players: tuple[str, ...]) -> str:
        """Why no points are counted while `field` holds a refused keystroke."""
        seat = int((field.id or "waffles-0").rsplit("-", 1)[1])
        shown = field.value or _("nothing")
        refused = field.refused_text or ""
        name = state_players[seat]
        if refused.isprintable() and not any(char.isspace() for char in refused):
            return _(
                "{name}'s box still shows {shown}, not {refused}: type the count again to go on."
            ).format(name=name, shown=shown, refused=refused)
        return _(
            "{name}'s box still shows {shown}: {typed} is no Waffle count;"
            " type the count again to go on."
        ).format(name=name, shown=shown, typed=keys_in_words(field.refused_keys))

    def _possessed(self, count: int) -> tuple[int, ...]:
        return tuple(
            seat for seat in range(count) if self.query_one(f"#possessed-{seat}", Checkbox).value
        )

    def _waffle_texts(self, count: int) -> tuple[str, ...]:
        return tuple(self.query_one(f"#waffles-{seat}", Input).value for seat in range(count))

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
                Text(_("Possessed"), style="bold") if team is Team.POSSESSED else Text(_("Sane"))
            )
            losing = team is not winner
            self.query_one(f"#result-row-{seat}", Horizontal).set_class(losing, "-losing")
            self.query_one(f"#waffle-note-{seat}", Static).update(
                _("not counted") if losing else ""
            )

    def _preview(self) -> None:
        """Winner and points if the domain would accept the entry, else its sentence."""
        state = self.controller.game_state
        if state is None or not state.is_over:
            return
        possessed = self._possessed(state.count)
        drafted.keep_results(self, possessed, self._waffle_texts(state.count))
        self._show_teams(possessed, state.in_play, state.count)
        preview = self.query_one("#result-winner", Static)
        unsettled = self._unsettled(state.count)
        if unsettled is not None:
            preview.set_class(True, "-pending")
            preview.update(Text(self._unsettled_sentence(unsettled, state.players)))
            return
        result = self.controller.judge(self._event(state.count))
        if isinstance(result, str):
            preview.set_class(True, "-pending")
            preview.update(Text(result))
            return
        text = Text(_("If that is right: "))
        text.append(
            _("the SANE win") if result.winner is Team.SANE else _("the POSSESSED win"),
            style="bold",
        )
        text.append(_(". Points: "))
        text.append(
            _(", ").join(
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
        """Preview the points as Waffles are typed.

        The sentence of a refused keystroke stays until its field is edited again.
        """
        if not (isinstance(event.input, WaffleInput) and event.input.refused_text is not None):
            self.query_one("#result-error", Static).update("")
        self._preview()

    def on_waffle_input_refused(self, event: WaffleInput.Refused) -> None:
        """Say why a keystroke was not taken (the field keeps what it had, no points yet)."""
        self.query_one("#result-error", Static).update(Text(event.sentence))
        self._preview()

    def _row_focus(self) -> tuple[str, int, int] | None:
        """(column, seat, players) of the focused row widget, if a row has the focus."""
        state = self.controller.game_state
        focused = self.focused
        if state is None or focused is None or not focused.id:
            return None
        parent = focused.parent
        if not isinstance(parent, Horizontal) or not parent.has_class("result-row"):
            return None
        column, _, number = focused.id.rpartition("-")
        return column, int(number), state.count

    def action_row(self, step: int) -> None:
        """Up or Down: the same column of the row above or below (round the ends).

        A priority binding, so it acts before the scrolling list's own Up and
        Down, and at once: the next key of a burst reaches the row it lands on.
        """
        where = self._row_focus()
        if where is None:
            raise SkipAction()
        column, seat, count = where
        self.set_focus(self.query_one(f"#{column}-{(seat + step) % count}", Widget))

    def action_tick(self) -> None:
        """Space: tick (or untick) that row's "growled" box, from either column.

        A priority binding, so a Space in a Waffle box ticks rather than types.
        """
        where = self._row_focus()
        if where is None:
            raise SkipAction()
        box = self.query_one(f"#possessed-{where[1]}", GrowledBox)
        box.value = not box.value

    def action_type_waffles(self, digit: str) -> None:
        """A digit on a row's box types that row's Waffles (over the count, as Tab does).

        Handled as a priority binding, in key order: the focus moves and the
        digit is handed to the field before the next key of a burst is read.
        """
        where = self._row_focus()
        if where is None or not isinstance(self.focused, GrowledBox):
            raise SkipAction()
        field = self.query_one(f"#waffles-{where[1]}", WaffleInput)
        self.set_focus(field)
        field.post_message(events.Key(digit, digit))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The save button."""
        if event.button.id == "result-save":
            self.action_save()

    def action_save(self) -> None:
        """Save the result (the domain checks it) and show the series board."""
        state = self.controller.game_state
        if state is None:
            return
        error = self.query_one("#result-error", Static)
        unsettled = self._unsettled(state.count)
        if unsettled is not None:
            # The preview says which box and why; saving the leftover would save
            # a number nobody meant.
            self.app.bell()
            error.update(Text(_("Not saved: fix the marked Waffle box first.")))
            unsettled.focus()
            return
        event = self._event(state.count)
        judged = self.controller.judge(event)
        if isinstance(judged, str):
            # The preview line above shows the domain's sentence already: said once.
            self.app.bell()
            error.update(Text(_("Not saved: see the line above.")))
            return
        self.query_one("#result-error", Static).update("")
        self.ask(DeclareResults(event))
