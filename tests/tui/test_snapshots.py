"""SVG snapshots of the screens the table looks at, at 80x24 and 120x40.

Each snapshot runs the real app on fresh temp folders with fixed names and a
muted narrator whose playbacks are waited for (`settle`), so captions and the
finale count are final; notifications are cleared and text cursors do not
blink. Regenerate after a deliberate change with
`pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs.

A scenario's two sizes share one app run (`tests.tui.sized_shots`): it reaches
the screen at 120x40, shoots it, and shoots it again after resizing to 80x24.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import (
    accepted,
    controller_of,
    declared,
    knocked_out,
    next_started,
    show,
    started,
)
from driving import press, seat_players, shown, until
from textual.pilot import Pilot
from textual.widgets import Static

from moderator.domain import GameState
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import Scenario, TrackedNarrator
from tests.tui.sized_shots import SizedShots, shots

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


def game_state(pilot: Pilot[None]) -> GameState:
    """The open game's saved state."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    return app.controller.state


def sitting_out(pilot: Pilot[None]) -> frozenset[int]:
    """The seats sitting out the open Meeting (none when there is no Meeting)."""
    meeting = game_state(pilot).meeting
    return meeting.sitting_out if meeting is not None else frozenset()


def winner_line(screen: ResultScreen) -> str:
    """The result screen's preview of who wins and the points."""
    return str(screen.query_one("#result-winner", Static).render())


async def setup_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Seven names typed, Cy (seat 3) chosen as the first player."""
    await press(pilot, "n")
    await seat_players(pilot, SEVEN, first=2)
    assert isinstance(pilot.app.screen, SetupScreen)


async def table_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Seven players, turn 4: one Meeting resolved, Fay knocked out, Gus to play."""
    controller = controller_of(pilot)
    started(controller, SEVEN, first=2)
    accepted(controller.finish_reveal())  # straight to the table (reveal skipped)
    accepted(controller.pass_turn())  # Cy passes
    accepted(controller.draw_meeting())  # Dee's Meeting card
    accepted(controller.resolve_meeting())
    knocked_out(controller, 5)
    await show(pilot, accepted(controller.pass_turn()), TableScreen)
    state = game_state(pilot)
    assert (state.turn, state.current, state.meetings_resolved) == (4, 6, 1)
    assert state.knocked_out == frozenset({5})


async def meeting_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Meeting 2 of 3: Fay knocked out, Bob sits out, the passing chart shown."""
    await table_screen(pilot, narrator)
    await press(pilot, "m")
    await shown(pilot, MeetingScreen)
    await press(pilot, "2")
    await until(pilot, lambda: sitting_out(pilot) == frozenset({1}), "Bob sits out")
    meeting = game_state(pilot).meeting
    assert meeting is not None and meeting.number == 2
    assert meeting.sitting_out == frozenset({1})


async def finale_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Four players; two knocked out end the game; the count to 3 has run."""
    controller = controller_of(pilot)
    started(controller, FOUR)
    accepted(controller.pass_turn())
    await show(pilot, knocked_out(controller, 2, 3), FinaleScreen)
    assert game_state(pilot).in_play == (0, 1)


async def result_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """After that finale: Cy growled, Bob holds 2 Waffles; the preview shows points."""
    await finale_screen(pilot, narrator)
    await press(pilot, "enter")
    screen = await shown(pilot, ResultScreen)
    screen.query_one("#possessed-2").value = True  # type: ignore[attr-defined]
    screen.query_one("#waffles-1").value = "2"  # type: ignore[attr-defined]
    await until(pilot, lambda: "Bob 3" in winner_line(screen), "the points previewed")


async def series_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """A complete 3-game series of four: Ann and Dee share the win on 3 points."""
    controller = controller_of(pilot)
    started(controller, FOUR)
    games = ((0, (2, 3), {}), (1, (2, 3), {}), (2, (0, 1), {0: 1}))
    for number, (possessed, out, waffles) in enumerate(games):
        if number:
            next_started(controller)  # the same roster, as the setup screen offers it
        knocked_out(controller, *out)
        outcome = declared(controller, [possessed], waffles)
    await show(pilot, outcome, SeriesScreen)
    assert [game.points for game in controller.series_games()][-1] == {
        "Ann": 2,
        "Bob": 1,
        "Cy": 0,
        "Dee": 1,
    }


SCENARIOS: dict[str, Scenario] = {
    "setup": setup_screen,
    "table": table_screen,
    "meeting": meeting_screen,
    "finale": finale_screen,
    "result": result_screen,
    "series": series_screen,
}


#: The shots of each scenario, taken by the first of its tests on a worker: at 120x40
#: first (a screen grown after it was drawn left its table's rows 80 columns wide).
SHOTS = SizedShots([(120, 40), (80, 24)])

#: Every (screen, size), named as before (`setup-80x24`); a scenario's sizes in one
#: `xdist_group`, so the worker that took its shots runs them all.
CASES = [
    pytest.param(
        screen,
        size,
        id=f"{screen}-{size_id}",
        marks=pytest.mark.xdist_group(f"snapshots-{screen}"),
    )
    for screen in SCENARIOS
    for size_id, size in SIZES.items()
]


@pytest.mark.parametrize(("screen", "size"), CASES)
def test_screen_snapshot(
    shot_compare: Callable[[str], bool],
    folders: dict[str, Path],
    screen: str,
    size: tuple[int, int],
) -> None:
    def take() -> dict[tuple[int, int], str]:
        return shots(folders, SCENARIOS[screen], SHOTS.sizes)

    assert shot_compare(SHOTS.of(screen, take)[size])
