"""The seat question over the table and the Meeting: it has the keys until it is answered.

It is no dialog screen (see `widgets/picker.py`), so what a dialog gave for free
is checked here: the screen's keys wait, a click on a tile neither answers nor
asks again, and a screen that covers the table drops the question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from controller_shortcuts import seated
from driving import key
from no_message_left import settled
from textual.pilot import Pilot
from textual.widgets import OptionList

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.picker import Picker
from tests.tui.app_driver import asked, seat_question

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


async def sit_out_question(pilot: Pilot[None]) -> Picker:
    """FIVE seated, a Meeting started (m) and its sit-out question open (o)."""
    await seated(pilot, FIVE)
    await key(pilot, "m")
    await key(pilot, "o")
    return await asked(pilot)


async def test_the_screens_and_the_apps_keys_wait_for_the_answer(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await seated(pilot, FIVE)
        state = app.controller.state
        await key(pilot, "k")
        await asked(pilot)
        await key(pilot, "n", "m", "u", "v", "question_mark", "f2")  # next, Meeting, undo, …
        assert app.controller.state == state, "a key behind the question acted"
        assert isinstance(app.screen, TableScreen) and seat_question(app) is not None
        assert not app.controller.muted
        await key(pilot, "escape")
        assert seat_question(app) is None
        await key(pilot, "n")
        assert app.controller.state.turn == state.turn + 1, "the keys are the table's again"


async def test_a_click_on_a_tile_neither_answers_nor_takes_the_keys(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """In a Meeting a click on a tile toggles sitting out, but not behind the question."""
    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await sit_out_question(pilot)
        options = picker.query_one("#pick-list", OptionList)
        await pilot.click("#seat-0")  # Ann's tile, outside the box
        await settled(pilot)
        meeting = app.controller.state.meeting
        assert meeting is not None and meeting.sitting_out == frozenset()
        assert seat_question(app) is picker
        assert app.screen.focused is options, "the focus stays in the question"
        await key(pilot, "2")
        meeting = app.controller.state.meeting
        assert meeting is not None and meeting.sitting_out == {1}


async def test_a_screen_over_the_table_drops_the_question(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """The Meeting's sit-out question, then the Settings over it: closed, the question is gone."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await sit_out_question(pilot)
        assert isinstance(app.screen, MeetingScreen)
        app.action_settings()  # what the palette's "Settings" command does
        await settled(pilot)
        await key(pilot, "escape")
        assert isinstance(app.screen, MeetingScreen) and seat_question(app) is None
        await key(pilot, "3")  # the Meeting's own digit again: Cy sits out
        meeting = app.controller.state.meeting
        assert meeting is not None and meeting.sitting_out == {2}


async def test_paging_the_question_before_it_is_laid_out(
    app_factory: Callable[[], MindFlayerApp],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Page Down in the frame the question opens, before its list has a size (fuzz seed
    20261129 had a key burst do it: KeyError): the last seat, then Page Up the first.

    Page Down's action runs inside `ask_seat`, right after the list is shown, as a key
    arriving in that frame would: no layout can come in between, whatever the load.
    """
    app = app_factory()
    sizes: list[int] = []

    def ask_and_page(screen: PlayScreen, *args: Any) -> None:
        ask_seat(screen, *args)
        options = screen.query_one("#pick-list", OptionList)
        sizes.append(options.size.height)
        options.action_page_down()

    ask_seat = PlayScreen.ask_seat
    monkeypatch.setattr(PlayScreen, "ask_seat", ask_and_page)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, FIVE)
        await key(pilot, "k")
        picker = await asked(pilot)
        assert sizes == [0], "the list was laid out already: the test pages too late"
        options = picker.query_one("#pick-list", OptionList)
        assert options.highlighted == len(FIVE) - 1
        await key(pilot, "pageup")
        assert options.highlighted == 0
        await key(pilot, "enter")
        assert app.controller.state.knocked_out == {0}, "the first seat was picked"
