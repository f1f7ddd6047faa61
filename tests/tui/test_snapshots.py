"""SVG snapshots of the screens the table looks at, at 80x24 and 120x40.

Each snapshot runs the real app on fresh temp folders with fixed names and a
muted narrator whose playbacks are waited for (`settle`), so captions and the
finale count are final; notifications are cleared and text cursors do not
blink. Regenerate after a deliberate change with
`pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.helpers import key, knock_out, new_game, seat_players
from tests.tui.tracking import TrackedNarrator, settle, still_cursor, tracked_app

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

Scenario = Callable[[Pilot[None], TrackedNarrator], Awaitable[None]]


async def setup_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Seven names typed, Cy (seat 3) chosen as the first player."""
    await pilot.press("n")
    await seat_players(pilot, SEVEN, first=2)
    assert isinstance(pilot.app.screen, SetupScreen)


async def table_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Seven players, turn 5: one Meeting resolved, Fay knocked out, Eve to play."""
    await new_game(pilot, SEVEN, first=2)
    await key(pilot, "t")  # straight to the table (reveal skipped)
    await key(pilot, "n", "m", "enter")  # Cy passes, Dee's Meeting card, resolved
    await knock_out(pilot, 5)
    await key(pilot, "n")
    assert isinstance(pilot.app.screen, TableScreen)


async def meeting_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Meeting 2 of 3: Fay knocked out, Bob sits out, the passing chart shown."""
    await table_screen(pilot, narrator)
    await key(pilot, "m", "2")
    assert isinstance(pilot.app.screen, MeetingScreen)


async def finale_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """Four players; two knocked out end the game; the count to 3 has run."""
    await new_game(pilot, FOUR)
    await key(pilot, "n")
    await knock_out(pilot, 2)
    await knock_out(pilot, 3)
    assert isinstance(pilot.app.screen, FinaleScreen)


async def result_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """After that finale: Cy growled, Bob holds 2 Waffles; the preview shows points."""
    await finale_screen(pilot, narrator)
    await key(pilot, "enter")
    screen = pilot.app.screen
    assert isinstance(screen, ResultScreen)
    screen.query_one("#possessed-2").value = True  # type: ignore[attr-defined]
    screen.query_one("#waffles-1").value = "2"  # type: ignore[attr-defined]
    await pilot.pause()


async def _quick_game(pilot: Pilot[None], possessed: int, out: tuple[int, int]) -> None:
    for seat in out:
        await knock_out(pilot, seat)
    await key(pilot, "enter")
    screen = pilot.app.screen
    screen.query_one(f"#possessed-{possessed}").value = True  # type: ignore[attr-defined]
    await pilot.pause()
    await key(pilot, "ctrl+s")
    assert isinstance(pilot.app.screen, SeriesScreen)


async def series_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """A complete 3-game series of four: Ann and Dee share the win on 3 points."""
    await new_game(pilot, FOUR)
    for number, (possessed, out) in enumerate(((0, (2, 3)), (1, (2, 3)), (2, (0, 1)))):
        if number:
            await key(pilot, "n")
            await key(pilot, "ctrl+s")
        await _quick_game(pilot, possessed, out)


SCENARIOS: dict[str, Scenario] = {
    "setup": setup_screen,
    "table": table_screen,
    "meeting": meeting_screen,
    "finale": finale_screen,
    "result": result_screen,
    "series": series_screen,
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", list(SCENARIOS))
def test_screen_snapshot(
    snap_compare: Callable[..., bool],
    folders: dict[str, Path],
    screen: str,
    size: tuple[int, int],
) -> None:
    app, narrator = tracked_app(folders)
    scenario = SCENARIOS[screen]

    async def run_before(pilot: Pilot[None]) -> None:
        await scenario(pilot, narrator)
        await settle(pilot, narrator)
        pilot.app.clear_notifications()
        still_cursor(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
