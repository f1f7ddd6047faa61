"""What the table typed survives a crash, offered back on Resume (issue 33 item 4).

The roster typed in setup and the result screen's ticks and Waffles are not
actions yet; the app used to keep them only in memory, so a crash lost them:
Resume showed "0 players seated", or the result screen with every box empty.
The first app here is left without quitting (its drafts file is all that
carries over, as after a crash); a second app on the same folders resumes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from controller_shortcuts import to_results
from driving import key, press, seat_players, shown, to_setup
from no_message_left import settled, toasts
from textual.widgets import Checkbox, Input, OptionList

from moderator.table.drafts import DRAFTS_FILE
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.widgets.choice import ChoiceList


async def test_a_roster_typed_in_setup_is_back_after_a_crash(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    first = app_factory()
    async with first.run_test(size=(100, 30)) as pilot:
        setup = await to_setup(pilot)
        await seat_players(pilot, ["Ann", "Bob", "Cy"], first=1)
        setup.query_one("#setup-roster", OptionList).highlighted = 2
        saying = setup.query_one("#setup-say-as", Input)
        saying.focus()
        saying.value = "Sigh"
        await press(pilot, "enter")  # Cy is said "Sigh"
        assert setup.said_as == {"Cy": "Sigh"}
        assert first.controller.drafts.flush()
    saved = json.loads((folders["data"] / DRAFTS_FILE).read_text("utf-8"))
    assert saved["roster"]["players"] == ["Ann", "Bob", "Cy"]
    second = app_factory()
    async with second.run_test(size=(100, 30)) as pilot:
        assert second.screen.query_one(ChoiceList).offers("start-resume")
        await key(pilot, "c")
        setup = await shown(pilot, SetupScreen)
        assert setup.players == ["Ann", "Bob", "Cy"], "not 0 players seated"
        assert setup.first_player == 1
        assert setup.said_as == {"Cy": "Sigh"}
        assert any("roster typed before the moderator stopped is back" in t for t in toasts(second))


async def test_ticks_and_waffles_on_the_result_screen_are_back_after_a_crash(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    first = app_factory()
    async with first.run_test(size=(100, 30)) as pilot:
        screen = await to_results(pilot)
        screen.query_one("#possessed-1", Checkbox).value = True
        screen.query_one("#waffles-1", Input).value = "3"
        screen.query_one("#waffles-2", Input).value = "2"
        await settled(pilot)
        assert first.controller.drafts.flush()
    second = app_factory()
    async with second.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")  # straight back to the result screen, not the finale again
        screen = await shown(pilot, ResultScreen)
        ticks = [screen.query_one(f"#possessed-{seat}", Checkbox).value for seat in range(4)]
        waffles = [screen.query_one(f"#waffles-{seat}", Input).value for seat in range(4)]
        assert ticks == [False, True, False, False]
        assert waffles == ["0", "3", "2", "0"]
        assert any("ticks and Waffles typed before" in t for t in toasts(second))


async def test_a_draft_is_never_offered_to_another_game(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    (folders["data"] / DRAFTS_FILE).write_text(
        json.dumps({"roster": {"key": "series 9 game 1", "players": ["Zed"], "first_player": 0}}),
        "utf-8",
    )
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await to_setup(pilot)
        assert setup.players == []
