"""A tied series, played through the app: its voice congratulates both winners, joined by
the script's own word for "and"."""

from __future__ import annotations

from pathlib import Path

from controller_shortcuts import controller_of, declared, knocked_out, next_started, show, started
from driving import FOUR

from moderator.tui.screens.series import SeriesScreen
from tests.tui.app_driver import narration_over, tracked_app


async def test_a_tied_series_announces_both_winners_with_and(folders: dict[str, Path]) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        # Cy and Dee knocked out end each game; who growled and the Waffles by seat.
        knocked_out(controller, 2, 3)
        declared(controller, [0])  # Bob, Cy, Dee +1
        for possessed, waffles in ((1, {}), (2, {0: 1})):
            next_started(controller)
            knocked_out(controller, 2, 3)
            outcome = declared(controller, [possessed], waffles)
        await show(pilot, outcome, SeriesScreen)
        await narration_over(pilot, narrator)
    assert narrator.played[-1] == "series_winner"
    winners = narrator.contexts[-1]
    assert winners == {"players": ("Ann", "Dee")}
    assert narrator.lines("series_winner", winners)[-1] == "Congratulations to Ann and Dee!"
