"""Complete games through the real screens, the real store and a silent narrator."""

from __future__ import annotations

from collections.abc import Callable

from moderator.domain import GameOver, Team
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from tests.tui.helpers import key, new_game, state_of, wait_for

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


async def test_seven_player_game_with_reveal_meetings_and_knockouts(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SEVEN, first=2)
        assert isinstance(app.screen, RevealScreen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        state = state_of(app)
        assert state.current == 2
        assert app.screen.query_one("#table-current", BigText).text == "Cy"
        await key(pilot, "n", "n")
        assert state_of(app).current == 4 and state_of(app).turn == 3
        # Meeting 1 with Bob sitting out (number key 2 = seat 1).
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "2")
        assert state_of(app).meeting is not None
        assert state_of(app).meeting.sitting_out == frozenset({1})
        await key(pilot, "enter")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).meetings_resolved == 1
        # Knock out Fay (seat 5) from the table: k, pick her, Enter.
        await key(pilot, "k")
        app.screen.query_one("#pick-list").highlighted = 5  # type: ignore[attr-defined]
        await key(pilot, "enter")
        assert state_of(app).knocked_out == frozenset({5})
        for _ in range(2):
            await key(pilot, "n", "m")
            assert isinstance(app.screen, MeetingScreen)
            await key(pilot, "enter")
        assert isinstance(app.screen, FinaleScreen)
        assert state_of(app).over is GameOver.THIRD_MEETING
        await key(pilot, "enter")
        assert isinstance(app.screen, ResultScreen)
        app.screen.query_one("#possessed-0").value = True  # type: ignore[attr-defined]
        app.screen.query_one("#possessed-3").value = True  # type: ignore[attr-defined]
        app.screen.query_one("#waffles-1").value = "2"  # type: ignore[attr-defined]
        await pilot.pause()
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SeriesScreen)
        result = state_of(app).result
        assert result is not None and result.winner is Team.SANE
        assert result.points[1] == 3 and result.points[0] == 0
