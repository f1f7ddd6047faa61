"""The app's phase guard: an intent from a phase the table has left is dropped."""

from __future__ import annotations

from pathlib import Path

from driving import new_game
from no_message_left import settled

from moderator.table.phases import Phase
from moderator.tui.app import MindFlayerApp
from moderator.tui.messages import DrawMeeting
from tests.tui.app_driver import tracked_app

FOUR = ("Ann", "Bob", "Cy", "Dee")


async def test_an_intent_from_a_phase_the_table_left_is_dropped(folders: dict[str, Path]) -> None:
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app, MindFlayerApp)
        await new_game(pilot, FOUR)
        table = app.screen
        before = app.controller.state
        app.show_outcome(app.controller.go_home())  # Esc was handled first
        late = DrawMeeting()  # a key meant for the table, handled late
        late.origin = Phase.TABLE
        table.post_message(late)
        await settled(pilot)
        assert app.controller.phase is Phase.START
        assert app.controller.state.meeting is None
        assert app.controller.state == before
