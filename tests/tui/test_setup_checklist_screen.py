"""The setup screen and the setup voice state the same counts (issue 18 item 3).

Both render the rules' one checklist (`domain.setup_checklist`): the screen in
its words, the voice script through placeholders. The real app, seated from 4
to 10 players: at each count the checklist on screen and the lines the voice
would say (the app's own script library) hold the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from driving import seat_players, to_setup
from textual.widgets import Static

from moderator.domain.rules import MAX_PLAYERS, MIN_PLAYERS
from moderator.domain.setup_checklist import setup_checklist
from moderator.table.cues import SetupCue
from moderator.tui.app import MindFlayerApp
from tests.stated_numbers import numbers

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


async def test_the_checklist_on_screen_and_the_spoken_setup_agree_at_every_count(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        shown = screen.query_one("#setup-checklist", Static)
        await seat_players(pilot, NAMES[: MIN_PLAYERS - 1])
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            await seat_players(pilot, [NAMES[players - 1]])
            assert len(screen.players) == players
            on_screen = str(shown.render())
            said = " ".join(app.controller.lines(SetupCue(players)))
            assert numbers(on_screen) == numbers(said), (on_screen, said)
            checklist = setup_checklist(players)
            assert f"{checklist.mind_flayer} Mind Flayer and {checklist.waffle} Waffle" in on_screen
