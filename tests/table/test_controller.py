"""The table controller on the real store: outcomes, phases, refusals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator.domain import ResultsDeclared
from moderator.narration import SilentSpeaker, VoiceSettings, make_narrator
from moderator.storage import Store
from moderator.table.config import TableSettings
from moderator.table.controller import TableController
from moderator.table.cues import FinaleCue, KnockoutCue, MeetingCue
from moderator.table.phases import Phase
from tests.storage.test_storage_faults import FailingCommit

FOUR = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def controller(tmp_path: Path) -> Iterator[TableController]:
    FailingCommit.fail = False
    store = Store.open(tmp_path / "data", connection_factory=FailingCommit)
    narrator = make_narrator(
        VoiceSettings(enabled=False), None, tmp_path / "cache", SilentSpeaker(), time_scale=0.01
    )
    table = TableController(store, narrator, TableSettings(), tmp_path / "config")
    yield table
    FailingCommit.fail = False
    table.close()


def test_a_game_from_setup_to_the_series_board(controller: TableController) -> None:
    assert controller.phase is Phase.START
    assert controller.new_series().phase is Phase.SETUP
    started = controller.start_game(FOUR, 0)
    assert started.phase is Phase.TABLE and started.state is not None
    meeting = controller.draw_meeting()
    assert meeting.phase is Phase.MEETING and meeting.cues == (MeetingCue(1, taking_part=4),)
    assert controller.resolve_meeting().phase is Phase.TABLE
    controller.knock_out(2)
    ended = controller.knock_out(3)
    assert ended.notice == "Dee is knocked out."
    assert ended.phase is Phase.FINALE and ended.cues == (KnockoutCue("Dee"), FinaleCue())
    assert controller.enter_results().phase is Phase.RESULT
    board = controller.declare(ResultsDeclared((0,), (0, 0, 0, 0)))
    assert board.phase is Phase.SERIES and not board.refused
    back = controller.undo()
    assert back.phase is Phase.RESULT, "undoing the results goes back to entering them"
    assert back.notice == "Undone: the results."


def test_a_failed_save_is_refused_and_changes_nothing(controller: TableController) -> None:
    controller.new_series()
    controller.start_game(FOUR, 0)
    before = controller.state
    FailingCommit.fail = True
    refused = controller.pass_turn()
    assert refused.refused and refused.notice and "disk is full" in refused.notice
    assert refused.state == before and refused.phase is Phase.TABLE and not refused.cues


def test_an_illegal_action_is_refused_with_the_domains_sentence(
    controller: TableController,
) -> None:
    controller.new_series()
    controller.start_game(FOUR, 0)
    refused = controller.redo()
    assert refused.refused and refused.notice == "There is nothing to redo."
    assert controller.start_game(("Ann", "Bob"), 0).refused  # too few players
