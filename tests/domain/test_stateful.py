"""Random legal and illegal table actions for 4..10 players, invariants after every step."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from moderator.domain import (
    Event,
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    RevealFinished,
    SitOutToggled,
    Timeline,
    TurnPassed,
    replay,
    rules,
)
from moderator.domain.timeline import LogEntry, Redo, Undo, entry_from_json, entry_to_json

#: Counted by the tests below so the closing note can say how much was explored.
STEPS_RUN = {"steps": 0, "illegal": 0, "games_over": 0}

seats = st.integers(min_value=-1, max_value=10)


class TableMachine(RuleBasedStateMachine):
    """Drives a Timeline the way a table (and a clumsy one) would."""

    timeline: Timeline

    @initialize(
        count=st.integers(min_value=rules.MIN_PLAYERS, max_value=rules.MAX_PLAYERS),
        first=st.integers(min_value=0, max_value=9),
    )
    def seat_players(self, count: int, first: int) -> None:
        names = [f"P{i}" for i in range(count)]
        self.timeline = Timeline.start(names, first % count)

    def _try(self, entry: LogEntry) -> None:
        STEPS_RUN["steps"] += 1
        before_state = self.timeline.state
        before_log = list(self.timeline.log)
        before_redo = list(self.timeline.redo_stack)
        try:
            self.timeline.record(entry)
        except IllegalAction as error:
            STEPS_RUN["illegal"] += 1
            assert str(error).strip(), "an illegal action explains itself"
            assert self.timeline.state == before_state
            assert self.timeline.log == before_log
            assert self.timeline.redo_stack == before_redo

    @rule()
    def finish_reveal(self) -> None:
        self._try(RevealFinished())

    @rule()
    def pass_turn(self) -> None:
        self._try(TurnPassed())

    @rule(seat=seats)
    def knock_out(self, seat: int) -> None:
        self._try(PlayerKnockedOut(seat))

    @rule(out=st.lists(seats, max_size=3))
    def start_meeting(self, out: list[int]) -> None:
        self._try(MeetingStarted(tuple(out)))

    @rule(seat=seats)
    def toggle_sit_out(self, seat: int) -> None:
        self._try(SitOutToggled(seat))

    @rule()
    def resolve_meeting(self) -> None:
        self._try(MeetingResolved())

    @rule(
        possessed=st.lists(st.integers(min_value=0, max_value=9), max_size=4, unique=True),
        waffles=st.lists(st.integers(min_value=-1, max_value=3), min_size=4, max_size=10),
    )
    def declare(self, possessed: list[int], waffles: list[int]) -> None:
        count = self.timeline.state.count
        fitted = (waffles * 3)[:count]
        self._try(ResultsDeclared(tuple(possessed), tuple(fitted)))

    @rule()
    def undo(self) -> None:
        self._try(Undo())

    @rule()
    def redo(self) -> None:
        self._try(Redo())

    @rule()
    def undo_then_redo_is_a_no_op(self) -> None:
        if not self.timeline.can_undo:
            return
        before = self.timeline.state
        self.timeline.undo()
        self.timeline.redo()
        assert self.timeline.state == before

    @invariant()
    def current_player_in_play_unless_over(self) -> None:
        state = self.timeline.state
        if not state.is_over:
            assert state.current not in state.knocked_out
            assert state.meetings_resolved < rules.MEETINGS_PER_GAME
        else:
            STEPS_RUN["games_over"] += 1

    @invariant()
    def a_reveal_is_owed_only_before_any_action(self) -> None:
        state = self.timeline.state
        if state.reveal_pending:
            assert rules.setup_for(state.count).reveal and state.turn == 1 and not state.is_over

    @invariant()
    def meetings_never_exceed_three(self) -> None:
        state = self.timeline.state
        assert 0 <= state.meetings_resolved <= rules.MEETINGS_PER_GAME
        if state.meeting is not None:
            assert state.meeting.number == state.meetings_resolved + 1
            assert not state.meeting.sitting_out & state.knocked_out

    @invariant()
    def over_exactly_when_the_rulebook_says(self) -> None:
        state = self.timeline.state
        should = rules.game_should_end(len(state.in_play), state.meetings_resolved)
        assert state.is_over == should
        if state.result is not None:
            assert state.is_over

    @invariant()
    def replay_rebuilds_the_state(self) -> None:
        events: list[Event] = list(self.timeline.events)
        assert replay(events) == self.timeline.state

    @invariant()
    def the_persisted_log_rebuilds_everything(self) -> None:
        restored = Timeline.from_log(entry_from_json(entry_to_json(e)) for e in self.timeline.log)
        assert restored.state == self.timeline.state
        assert restored.redo_stack == self.timeline.redo_stack


TableMachine.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
#: 300 walks of up to 60 steps: the longest test that starts no app (`make test` runs it).
TestTable = pytest.mark.slow(TableMachine.TestCase)


def test_the_machine_explored_finished_games() -> None:
    """Runs after TestTable (file order): the search reached the end of games."""
    print(f"stateful steps: {STEPS_RUN}")
    if STEPS_RUN["steps"]:
        assert STEPS_RUN["games_over"] > 0
        assert STEPS_RUN["illegal"] > 0
