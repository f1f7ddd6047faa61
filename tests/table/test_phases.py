"""The phase is a pure function of the state (`phase_for`): which screen the table shows
follows the game, whatever happened before."""

from __future__ import annotations

from moderator.domain import (
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    RevealFinished,
    Timeline,
    TurnPassed,
)
from moderator.table.phases import Flags, Phase, phase_for

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
PLAYING = Flags(at_start=False)


def over(timeline: Timeline) -> Timeline:
    """Knock out all but two players: the game ends."""
    for seat in (2, 3, 4, 5):
        timeline = timeline.after(PlayerKnockedOut(seat))
    return timeline


def test_the_start_screen_wins_whatever_the_state() -> None:
    state = Timeline.start(SIX).state
    assert phase_for(state, 0, Flags()) is Phase.START
    assert phase_for(None, 2, Flags()) is Phase.START


def test_between_games_the_board_or_the_seating() -> None:
    assert phase_for(None, 0, PLAYING) is Phase.SETUP
    assert phase_for(None, 1, PLAYING) is Phase.SERIES
    assert phase_for(None, 1, Flags(at_start=False, seating=True)) is Phase.SETUP


def test_the_phase_follows_the_game() -> None:
    timeline = Timeline.start(SIX)
    assert phase_for(timeline.state, 0, PLAYING) is Phase.REVEAL, "6 players: the reveal first"
    timeline = timeline.after(RevealFinished())
    assert phase_for(timeline.state, 0, PLAYING) is Phase.TABLE
    meeting = timeline.after(TurnPassed()).after(MeetingStarted())
    assert phase_for(meeting.state, 0, PLAYING) is Phase.MEETING
    ended = over(timeline)
    assert phase_for(ended.state, 0, PLAYING) is Phase.FINALE
    entering = Flags(at_start=False, entering_results=True)
    assert phase_for(ended.state, 0, entering) is Phase.RESULT
    declared = ended.after(ResultsDeclared((0, 2), (0,) * 6))
    assert phase_for(declared.state, 0, entering) is Phase.SERIES
