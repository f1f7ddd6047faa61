"""Turns, knock-outs, Meetings, the end of the game and results, from the rulebook."""

from __future__ import annotations

import json

import pytest

from moderator.domain import (
    GameOver,
    GameStarted,
    GameState,
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    Pass,
    PlayerKnockedOut,
    ResultsDeclared,
    SitOutToggled,
    Team,
    TurnPassed,
    apply,
    event_from_json,
    event_to_json,
    new_game,
    passing_chart,
    replay,
)

SEVEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def play(state: GameState, *events: object) -> GameState:
    for event in events:
        state = apply(state, event)  # type: ignore[arg-type]
    return state


def test_first_player_starts_and_turns_go_clockwise() -> None:
    state = new_game(SEVEN, first_player=5)
    assert (state.current, state.turn) == (5, 1)
    state = play(state, TurnPassed(), TurnPassed())
    assert (state.current, state.turn) == (0, 3)


def test_knocked_out_players_are_skipped() -> None:
    state = play(new_game(SEVEN, 0), PlayerKnockedOut(1), PlayerKnockedOut(2))
    state = play(state, TurnPassed())
    assert state.current == 3


def test_knocking_out_the_current_player_passes_the_turn() -> None:
    state = play(new_game(SEVEN, 2), PlayerKnockedOut(2))
    assert (state.current, state.turn) == (3, 2)


@pytest.mark.parametrize(
    "bad",
    [
        PlayerKnockedOut(7),
        PlayerKnockedOut(-1),
        MeetingResolved(),
        SitOutToggled(1),
        ResultsDeclared((0,), (0,) * 7),
        GameStarted(SEVEN, 0),
    ],
)
def test_illegal_actions_raise_and_change_nothing(bad: object) -> None:
    state = new_game(SEVEN, 0)
    before = state
    with pytest.raises(IllegalAction):
        apply(state, bad)  # type: ignore[arg-type]
    assert state == before


def test_knocking_out_a_knocked_out_player_is_refused() -> None:
    state = play(new_game(SEVEN, 0), PlayerKnockedOut(3))
    with pytest.raises(IllegalAction, match="Dee is already knocked out"):
        apply(state, PlayerKnockedOut(3))


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (SEVEN[:3], "4 to 10"),
        ((*SEVEN, "H", "I", "J", "K"), "4 to 10"),
        (("A", "a", "B", "C"), "Two"),
    ],
)
def test_bad_rosters_are_refused(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        new_game(players)


def test_first_player_must_sit_at_the_table() -> None:
    with pytest.raises(IllegalAction, match="first player"):
        new_game(SEVEN, first_player=7)


def test_meeting_chart_skips_sit_outs_and_knocked_out_players() -> None:
    state = play(new_game(SEVEN[:5], 0), PlayerKnockedOut(4), MeetingStarted((1,)))
    # Participants clockwise: 0, 2, 3.
    assert passing_chart(state) == (
        Pass(giver=0, left=2, right=3),
        Pass(giver=2, left=3, right=0),
        Pass(giver=3, left=0, right=2),
    )


def test_two_participants_give_both_cards_to_each_other() -> None:
    state = play(new_game(SEVEN[:4], 0), MeetingStarted((1, 2)))
    assert passing_chart(state) == (Pass(0, 3, 3), Pass(3, 0, 0))


def test_one_participant_passes_nothing() -> None:
    state = play(new_game(SEVEN[:4], 0), MeetingStarted((1, 2, 3)))
    assert passing_chart(state) == ()


def test_sit_out_toggles_and_knocked_out_players_cannot_be_toggled() -> None:
    state = play(new_game(SEVEN, 0), PlayerKnockedOut(6), MeetingStarted())
    state = play(state, SitOutToggled(2))
    assert state.meeting is not None and state.meeting.sitting_out == {2}
    state = play(state, SitOutToggled(2))
    assert state.meeting is not None and state.meeting.sitting_out == frozenset()
    with pytest.raises(IllegalAction, match="knocked out"):
        apply(state, SitOutToggled(6))
    with pytest.raises(IllegalAction, match="knocked out"):
        apply(play(new_game(SEVEN, 0), PlayerKnockedOut(6)), MeetingStarted((6,)))


def test_turn_cannot_pass_during_a_meeting_and_meetings_do_not_nest() -> None:
    state = play(new_game(SEVEN, 0), MeetingStarted())
    with pytest.raises(IllegalAction, match="Finish the Meeting"):
        apply(state, TurnPassed())
    with pytest.raises(IllegalAction, match="already under way"):
        apply(state, MeetingStarted())


def test_resolving_a_meeting_ends_the_turn() -> None:
    state = play(new_game(SEVEN, 3), MeetingStarted(), MeetingResolved())
    assert (state.current, state.turn, state.meetings_resolved) == (4, 2, 1)


def test_current_player_knocked_out_during_a_meeting() -> None:
    state = play(new_game(SEVEN, 3), MeetingStarted(), PlayerKnockedOut(3))
    assert state.current == 4, "the turn leaves the knocked-out player at once"
    assert 3 not in state.participants()
    state = play(state, MeetingResolved())
    assert (state.current, state.turn) == (4, 2), "the turn does not move twice"


def test_game_ends_after_the_third_meeting_is_resolved() -> None:
    state = new_game(SEVEN, 0)
    for _ in range(2):
        state = play(state, MeetingStarted(), MeetingResolved())
    state = play(state, MeetingStarted())
    assert state.meeting is not None and state.meeting.number == 3
    assert not state.is_over
    state = play(state, MeetingResolved())
    assert state.over is GameOver.THIRD_MEETING
    for action in (TurnPassed(), MeetingStarted(), SitOutToggled(1)):
        with pytest.raises(IllegalAction, match="game is over"):
            apply(state, action)


def test_three_in_play_then_a_knock_out_ends_the_game() -> None:
    state = play(new_game(SEVEN[:4], 0), PlayerKnockedOut(1))
    assert not state.is_over
    state = play(state, PlayerKnockedOut(2))
    assert state.over is GameOver.FEW_IN_PLAY
    assert state.in_play == (0, 3)


def test_knock_out_during_a_meeting_can_end_the_game() -> None:
    state = play(new_game(SEVEN[:4], 0), PlayerKnockedOut(1), MeetingStarted())
    state = play(state, PlayerKnockedOut(3))
    assert state.over is GameOver.FEW_IN_PLAY
    assert state.meeting is None
    assert state.meetings_resolved == 0


def _ended_four_player_game() -> GameState:
    return play(new_game(("Ann", "Bob", "Cy", "Dee"), 0), PlayerKnockedOut(1), PlayerKnockedOut(2))


def test_results_before_the_end_are_refused() -> None:
    with pytest.raises(IllegalAction, match="once the game is over"):
        apply(new_game(SEVEN, 0), ResultsDeclared((0,), (0,) * 7))


def test_all_sane_knocked_out_means_possessed_win() -> None:
    # In play: Ann (0) and Dee (3); both Possessed.
    state = play(_ended_four_player_game(), ResultsDeclared((0, 3), (1, 0, 2, 0)))
    assert state.result is not None
    assert state.result.winner is Team.POSSESSED
    assert state.result.points == (2, 0, 0, 1)


def test_knock_outs_at_the_moment_the_game_ends_still_count() -> None:
    state = play(_ended_four_player_game(), PlayerKnockedOut(0))
    assert state.in_play == (3,)
    assert state.over is GameOver.FEW_IN_PLAY
    state = play(state, ResultsDeclared((3,), (0, 0, 0, 0)))
    with pytest.raises(IllegalAction, match="undo them first"):
        apply(state, PlayerKnockedOut(3))


def test_a_sane_player_alone_in_play_wins_for_all_sane() -> None:
    # Bob and Cy are knocked out, ending the game; Ann and Dee go out at that same moment.
    state = play(
        new_game(("Ann", "Bob", "Cy", "Dee"), 0), *(PlayerKnockedOut(s) for s in (1, 3, 0))
    )
    assert state.in_play == (2,)
    state = play(state, ResultsDeclared((0,), (0, 3, 0, 1)))
    assert state.result is not None
    assert state.result.winner is Team.SANE
    assert state.result.points == (0, 4, 1, 2), "knocked-out Sane players score too"


@pytest.mark.parametrize(
    ("possessed", "waffles", "message"),
    [
        ((), (0, 0, 0, 0), "at least 1"),
        ((0, 0), (0, 0, 0, 0), "twice"),
        ((0,), (0, 0, 0), "every player"),
        ((0,), (0, -1, 0, 0), "cannot hold -1"),
        ((0,), (0, 13, 0, 0), "cannot hold 13"),
        ((0,), (6, 7, 0, 0), "only 12"),
        ((9,), (0, 0, 0, 0), "no player at seat 9"),
    ],
)
def test_bad_results_are_refused(
    possessed: tuple[int, ...], waffles: tuple[int, ...], message: str
) -> None:
    state = _ended_four_player_game()
    with pytest.raises(IllegalAction, match=message):
        apply(state, ResultsDeclared(possessed, waffles))


def test_results_cannot_be_declared_twice() -> None:
    state = play(_ended_four_player_game(), ResultsDeclared((0,), (0, 0, 0, 0)))
    with pytest.raises(IllegalAction, match="already entered"):
        apply(state, ResultsDeclared((0,), (0, 0, 0, 0)))


def test_events_round_trip_through_json_and_replay() -> None:
    events = [
        GameStarted(SEVEN, 2),
        TurnPassed(),
        MeetingStarted((4,)),
        SitOutToggled(5),
        PlayerKnockedOut(1),
        MeetingResolved(),
    ]
    restored = [event_from_json(json.loads(json.dumps(event_to_json(e)))) for e in events]
    assert restored == events
    assert replay(restored) == replay(events)


@pytest.mark.parametrize("data", [{"type": "Nope"}, {}, {"type": "PlayerKnockedOut"}])
def test_unknown_or_incomplete_log_entries_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(IllegalAction):
        event_from_json(data)
