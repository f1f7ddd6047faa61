"""The table read aloud on demand: where the game stands, as a cue for the voice.

A player who cannot see the laptop (across a ten-player table, low vision, or
eyes just closed) asks with one key; the app speaks and shows the same
sentence. It is made here from the table's public state alone: whose turn and
the turn number, the Meetings done, who is knocked out, who sits out this
Meeting, and between games the series score. The state holds no role (the app
never knows one), so nothing secret can reach the sentence. While eyes are
closed (the reveal) there is no cue: the controller says why instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.domain import GameState, rules
from moderator.table.cues import TableStateCue
from moderator.table.phases import Phase


def table_state_cue(
    phase: Phase,
    state: GameState | None,
    game_number: int | None,
    series_points: Sequence[Mapping[str, int]],
) -> TableStateCue | None:
    """The cue that says where the table is (None during the eyes-closed reveal).

    Args:
        phase: the table's phase now.
        state: the open game's public state (None between games).
        game_number: the open game's number in its series.
        series_points: each finished game's points of the series (name -> points).
    """
    if phase is Phase.REVEAL:
        return None
    if state is not None and state.result is None and game_number is not None:
        return _in_game(state, game_number)
    if series_points:
        return TableStateCue(
            "between_games", played=len(series_points), score=score_words(series_points)
        )
    return TableStateCue("no_game")


def _in_game(state: GameState, game_number: int) -> TableStateCue:
    """The open game: its turn, the Meetings, the knock-outs and who sits out."""
    meeting = state.meeting
    if state.is_over:
        situation = "game_over"
    elif meeting is not None:
        situation = "in_meeting"
    else:
        situation = "turns"
    in_meeting = meeting is not None and not state.is_over
    return TableStateCue(
        situation,
        game=game_number,
        turn=state.turn,
        player=state.players[state.current] if situation == "turns" else "",
        meeting=meeting.number if meeting is not None else 0,
        meetings_done=state.meetings_resolved,
        knocked_out=tuple(state.players[seat] for seat in sorted(state.knocked_out)),
        sitting_out=tuple(state.players[seat] for seat in sorted(meeting.sitting_out))
        if meeting is not None and in_meeting
        else (),
    )


def score_words(series_points: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """Each player's series total, highest first ("Ann 7"), in the standings' order."""
    return tuple(f"{standing.name} {standing.total}" for standing in rules.standings(series_points))
