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


def test_a_six_player_game_owes_its_reveal_until_it_is_recorded() -> None:
    from moderator.domain import RevealFinished, TurnPassed

    six = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    timeline = Timeline.start(six)
    assert timeline.state.reveal_pending and timeline.just_started
    timeline.record(RevealFinished())
    assert not timeline.state.reveal_pending
    with pytest.raises(IllegalAction, match="The reveal is over"):
        timeline.check(RevealFinished())
    timeline.record(Undo())
    assert timeline.state.reveal_pending, "undo at the table brings the reveal back"
    assert timeline.just_started, "the reveal's end alone is no play: undo takes the start back"
    timeline.record(Redo())
    timeline.record(TurnPassed())
    timeline.record(Undo())
    assert not timeline.just_started and not timeline.state.reveal_pending


def test_an_old_log_without_reveal_finished_owes_no_reveal_once_played() -> None:
    from moderator.domain import TurnPassed

    six = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    old = Timeline.from_log(
        entry_from_json(data)
        for data in (
            {"type": "GameStarted", "players": list(six), "first_player": 0},
            {"type": "TurnPassed"},
        )
    )
    assert not old.state.reveal_pending
    assert old.state == Timeline.start(six).after(TurnPassed()).state


def test_four_players_have_no_reveal_to_finish() -> None:
    from moderator.domain import RevealFinished

    timeline = Timeline.start(("Ann", "Bob", "Cy", "Dee"))
    assert not timeline.state.reveal_pending
    with pytest.raises(IllegalAction, match="no eyes-closed reveal with 4 players"):
        timeline.check(RevealFinished())
