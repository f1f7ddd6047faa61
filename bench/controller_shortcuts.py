"""Reaching a screen by the table's own controller, then showing it: for tests of a screen.

Why: a test of a screen's words, footer or picture needs the game's state, not
the keys that led there. Played key by key through the app, every step waits
for the app to settle and draws the screens in between: the series board of a
3-game series took 13-18 s to reach, a result screen ~3 s. Here the running
app's own controller (the real one, on the test's store) plays the game, as
the screens' intents would have it do, and the app then shows the outcome as
it shows any (`MindFlayerApp.settle`): one screen switch. The flow tests
(tests/tui/test_flow.py and the other play-throughs) still press every key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from driving import FOUR, shown
from textual.pilot import Pilot
from textual.screen import Screen

from moderator.domain import ResultsDeclared, rules
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.table import TableScreen

ScreenT = TypeVar("ScreenT", bound=Screen[object])


def controller_of(pilot: Pilot[None]) -> TableController:
    """The running app's table controller."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    return app.controller


def accepted(outcome: Outcome) -> Outcome:
    """The outcome of an action the table's rules took (a refusal fails the test here)."""
    assert not outcome.refused, outcome.notice
    return outcome


def started(controller: TableController, names: Sequence[str], first: int = 0) -> Outcome:
    """A new series and its first game, seated in `names`' order, `first` to play."""
    accepted(controller.new_series())
    return accepted(controller.start_game(names, first))


def knocked_out(controller: TableController, *seats: int) -> Outcome:
    """Each of `seats` knocked out, in order (the last one's outcome)."""
    outcome = None
    for seat in seats:
        outcome = accepted(controller.knock_out(seat))
    assert outcome is not None
    return outcome


def declared(
    controller: TableController, possessed: Sequence[int], waffles: dict[int, int] | None = None
) -> Outcome:
    """The finale done and the results saved: who growled, the Waffles in hand by seat."""
    accepted(controller.enter_results())
    count = controller.state.count
    by_seat = tuple((waffles or {}).get(seat, 0) for seat in range(count))
    return accepted(controller.declare(ResultsDeclared(tuple(possessed), by_seat)))


async def show(pilot: Pilot[None], outcome: Outcome, kind: type[ScreenT]) -> ScreenT:
    """The app shows `outcome` as it shows any action's; the `kind` screen, mounted."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    app.show_outcome(outcome)
    return await shown(pilot, kind)


async def seated(pilot: Pilot[None], names: Sequence[str], first: int = 0) -> Screen[object]:
    """A new series' first game of `names`, shown: the reveal (6 and more) or the table."""
    outcome = started(controller_of(pilot), names, first)
    kind = RevealScreen if rules.setup_for(len(names)).reveal else TableScreen
    return await show(pilot, outcome, kind)


def next_started(controller: TableController) -> Outcome:
    """The series' next game, seated as the setup screen offers it (the last game's roster)."""
    accepted(controller.next_game())
    plan = controller.seating_plan()
    assert plan is not None, "no roster to seat again"
    return accepted(controller.start_game(plan.players, plan.first_player, said_as=plan.said_as))


async def to_results(pilot: Pilot[None]) -> ResultScreen:
    """Four players; Cy and Dee knocked out end the game; on to the result screen."""
    controller = controller_of(pilot)
    started(controller, FOUR)
    accepted(controller.pass_turn())
    knocked_out(controller, 2, 3)
    return await show(pilot, accepted(controller.enter_results()), ResultScreen)
