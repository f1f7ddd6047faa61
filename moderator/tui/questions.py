"""The questions the app asks before it acts: set a series aside, a renamed player, a seat.

Each asks through the player picker (`widgets/picker.py`), in a dialog before a
game and over the phase screen during one, and acts only on the table's answer,
and only if the table is still in the phase that asked (a late answer changes
nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from moderator.i18n import _
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.table.set_aside import ANSWERS, KEEP, SET_ASIDE
from moderator.tui.screen_classes import DIALOGS, load_class
from moderator.tui.screens.base import PlayScreen

if TYPE_CHECKING:
    from moderator.tui.app import MindFlayerApp
    from moderator.tui.dialogs.pick_player import PickPlayerScreen


def ask_new_series(app: MindFlayerApp) -> None:
    """A new series; a started one is set aside only on the table's yes (Esc keeps it)."""
    pick = cast("type[PickPlayerScreen]", load_class(DIALOGS["pick"]))
    if isinstance(app.screen, pick):
        return  # asked once, however many keys ask it (two people pressing at once)
    question = app.controller.set_aside_question()
    if question is None:
        app.settle(app.controller.new_series())
        return
    phase = app.controller.phase

    def answered(answer: int | None) -> None:
        if answer == SET_ASIDE and app.controller.phase is phase:
            app.settle(app.controller.new_series())
        else:
            app.notify(_("Kept: the series goes on."), markup=False)

    answers = [(answer, _(label)) for answer, label in ANSWERS]  # marked N_ where made
    app.push_screen(pick(question, answers, KEEP), answered)


def start_with_renames(
    app: MindFlayerApp, players: tuple[str, ...], first: int, said_as: tuple[str, ...] = ()
) -> None:
    """Start the game; first ask whether each new name is an earlier player renamed.

    A name fixed between games ("Noah" -> "Noah B") would split the player's
    series total; the table answers one question per new name (Esc: not now,
    nothing is saved) and the start carries the points of those it names.
    """
    pick = cast("type[PickPlayerScreen]", load_class(DIALOGS["pick"]))
    if isinstance(app.screen, pick):
        return  # the rename questions are being asked already: asked once
    questions = app.controller.rename_questions(players)
    if not questions:
        app.settle(app.controller.start_game(players, first, said_as=said_as))
        return
    phase = app.controller.phase
    renames: dict[str, str] = {}
    new_names = list(questions.new)

    def ask() -> None:
        missing = [name for name in questions.missing if name not in renames]
        if not new_names or not missing:
            app.settle(app.controller.start_game(players, first, renames, said_as))
            return
        name = new_names.pop(0)
        choices = [*enumerate(missing), (len(missing), _("No: a new player"))]

        def answered(index: int | None) -> None:
            if index is None or app.controller.phase is not phase:
                app.notify(_("Not started: the roster is as it was."), markup=False)
                return
            if index < len(missing):
                renames[missing[index]] = name
            ask()

        # The name is the table's, filled in literally after the translation.
        question = _("Is {name} an earlier player (points carry over)?").format(name=name)
        app.push_screen(pick(question, choices, 0), answered)

    ask()


def sitting_out(controller: TableController) -> frozenset[int]:
    """The seats that sit out the open Meeting (none outside a Meeting)."""
    state = controller.game_state
    meeting = state.meeting if state is not None else None
    return frozenset(meeting.sitting_out) if meeting is not None else frozenset()


def ask_seat(
    app: MindFlayerApp,
    question: str,
    highlight: int | None,
    act: Callable[[int], Outcome],
    *,
    marked: frozenset[int] = frozenset(),
) -> None:
    """Ask for a seat in play; the answer acts only if the table is still in this phase.

    A seat in `marked` is listed with "(sits out)", so the table sees who
    already does before toggling.
    """
    state = app.controller.game_state
    if state is None:
        return
    phase = app.controller.phase
    away = "  (" + _("sits out") + ")"  # the tiles' own words for it
    choices = [
        (seat, state.players[seat] + (away if seat in marked else "")) for seat in state.in_play
    ]

    def picked(seat: int | None) -> None:
        if seat is not None and app.controller.phase is phase:
            app.settle(act(seat))

    # Asked over the phase's own screen (no dialog pushed), and only while it is shown:
    # a key that reaches the app as another screen opens asks nothing.
    screen = app.phase_screen(phase)
    on_top = screen is not None and app.screen is screen
    if on_top and isinstance(screen, PlayScreen):
        screen.ask_seat(question, choices, highlight, picked)
