"""Undo and redo of any number of steps, across every kind of action."""

from __future__ import annotations

import pytest

from moderator.domain import (
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    Redo,
    ResultsDeclared,
    Timeline,
    TurnPassed,
    Undo,
)
from moderator.domain.timeline import entry_from_json, entry_to_json

FOUR = ("Ann", "Bob", "Cy", "Dee")


def test_undo_and_redo_across_a_meeting_the_game_end_and_the_results() -> None:
    timeline = Timeline.start(FOUR, 0)
    actions = [
        TurnPassed(),
        MeetingStarted((2,)),
        MeetingResolved(),
        PlayerKnockedOut(1),
        PlayerKnockedOut(3),
        ResultsDeclared((0,), (1, 0, 0, 0)),
    ]
    states = [timeline.state]
    for action in actions:
        states.append(timeline.act(action))
    assert timeline.state.result is not None
    for expected in reversed(states[:-1]):
        timeline.undo()
        assert timeline.state == expected
    with pytest.raises(IllegalAction, match="nothing to undo"):
        timeline.undo()
    for expected in states[1:]:
        timeline.redo()
        assert timeline.state == expected
    with pytest.raises(IllegalAction, match="nothing to redo"):
        timeline.redo()


def test_a_new_action_clears_redo() -> None:
    timeline = Timeline.start(FOUR, 0)
    timeline.act(TurnPassed())
    timeline.undo()
    timeline.act(PlayerKnockedOut(2))
    assert not timeline.can_redo


def test_the_log_rebuilds_state_and_redo_stack() -> None:
    timeline = Timeline.start(FOUR, 0)
    for entry in (TurnPassed(), TurnPassed(), Undo(), PlayerKnockedOut(3), Undo(), Undo(), Redo()):
        timeline.record(entry)
    restored = Timeline.from_log(entry_from_json(entry_to_json(e)) for e in timeline.log)
    assert restored.state == timeline.state
    assert restored.redo_stack == timeline.redo_stack
    restored.redo()
    timeline.redo()
    assert restored.state == timeline.state


def test_check_refuses_without_changing_anything() -> None:
    timeline = Timeline.start(FOUR, 0)
    with pytest.raises(IllegalAction):
        timeline.check(Undo())
    with pytest.raises(IllegalAction):
        timeline.check(MeetingResolved())
    assert timeline.log == timeline.log[:1]


def test_after_gives_the_next_timeline_and_leaves_this_one_as_it_was() -> None:
    timeline = Timeline.start(FOUR, 0)
    timeline.record(TurnPassed())
    before = (timeline.state, list(timeline.events), list(timeline.log))
    undone = timeline.after(Undo())
    assert undone.state.turn == 1 and undone.redo_stack == [TurnPassed()]
    redone = undone.after(Redo())
    assert redone.state == timeline.state and redone.log[-2:] == [Undo(), Redo()]
    assert (timeline.state, timeline.events, timeline.log) == before
    assert undone.redo_stack == [TurnPassed()], "the next step did not change the one before"
    with pytest.raises(IllegalAction):
        timeline.after(MeetingResolved())
    assert (timeline.state, timeline.events, timeline.log) == before
