"""The public snapshot: what the phones see is what the laptop's screen shows, never more."""

from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.board.snapshot import BoardSnapshot, build_snapshot, series_view
from moderator.domain import (
    GameState,
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    SitOutToggled,
    TurnPassed,
    apply,
    new_game,
)

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def test_the_start_and_setup_screens_show_no_game() -> None:
    state = new_game(SIX, 2)
    for phase in ("start", "setup"):
        snapshot = build_snapshot(3, phase, state, game_number=1)
        assert snapshot == BoardSnapshot(3, phase)
        assert "Ann" not in snapshot.to_json()


def test_the_table_shows_turn_whose_turn_meetings_and_seats() -> None:
    state = apply(apply(new_game(SIX, 2), TurnPassed()), PlayerKnockedOut(4))
    snapshot = build_snapshot(1, "table", state, game_number=2)
    assert (snapshot.turn, snapshot.current, snapshot.game_number) == (2, "Dee", 2)
    assert [seat.name for seat in snapshot.seats] == list(SIX)
    assert [seat.in_play for seat in snapshot.seats] == [True, True, True, True, False, True]
    assert [seat.current for seat in snapshot.seats].index(True) == 3
    assert snapshot.meeting is None and snapshot.over is None
    assert snapshot.series.rows == ()


def test_a_meeting_shows_who_sits_out_and_the_passing_chart() -> None:
    state = apply(new_game(SIX, 0), PlayerKnockedOut(5))
    state = apply(apply(state, MeetingStarted()), SitOutToggled(1))
    meeting = build_snapshot(1, "meeting", state).meeting
    assert meeting is not None
    assert meeting.number == 1
    # Knocked-out Fay is out of the game, not "sitting out" (as the laptop says it).
    assert meeting.sitting_out == ("Bob",)
    assert [(p.giver, p.left, p.right) for p in meeting.chart] == [
        ("Ann", "Cy", "Eve"),
        ("Cy", "Dee", "Ann"),
        ("Dee", "Eve", "Cy"),
        ("Eve", "Ann", "Dee"),
    ]
    assert not any(seat.current for seat in build_snapshot(1, "meeting", state).seats)


def test_teams_never_appear_before_the_results_and_then_only_the_winning_team() -> None:
    state = new_game(SIX, 0)
    for _ in range(3):
        state = apply(apply(state, MeetingStarted()), MeetingResolved())
    finale = build_snapshot(1, "finale", state)
    assert finale.over == "third_meeting" and finale.current is None
    declared = apply(state, ResultsDeclared((1, 4), (1, 0, 0, 2, 0, 0)))
    assert declared.result is not None
    points = dict(zip(SIX, declared.result.points, strict=True))
    board = build_snapshot(
        2, "series", declared, series=series_view([points], declared.result.winner.value)
    )
    text = board.to_json()
    assert "possessed" not in text.replace('"last_winner":"possessed"', "")
    assert "waffle" not in text.casefold()
    assert board.series.last_winner == declared.result.winner.value
    # Before the series phase (the result form), the series board is not shown.
    assert build_snapshot(3, "result", declared, series=board.series).series.rows == ()


def test_the_series_board_adds_points_and_names_co_winners() -> None:
    games = [{"Ann": 2, "Bob": 0}, {"Ann": 0, "Bob": 1}, {"Ann": 1, "Bob": 2, "Cy": 3}]
    view = series_view(games, "sane")
    assert [(r.name, r.points, r.total, r.leading) for r in view.rows] == [
        ("Ann", (2, 0, 1), 3, True),
        ("Bob", (0, 1, 2), 3, True),
        ("Cy", (None, None, 3), 3, True),
    ]
    assert view.winners == ("Ann", "Bob", "Cy")
    assert series_view(games[:1]).winners == ()


def test_eyes_closed_only_during_the_reveal() -> None:
    state = new_game(SIX, 0)
    assert build_snapshot(1, "reveal", state, eyes_closed=True).eyes_closed
    assert not build_snapshot(1, "table", state, eyes_closed=True).eyes_closed


def test_same_view_ignores_only_the_sequence_number() -> None:
    state = new_game(SIX, 0)
    assert build_snapshot(1, "table", state).same_view(build_snapshot(9, "table", state))
    assert not build_snapshot(1, "table", state).same_view(
        build_snapshot(2, "table", apply(state, TurnPassed()))
    )


def test_names_travel_as_data() -> None:
    state = new_game(("<script>", "[/]", 'a"b', "Ünï 🙂"), 0)
    data = json.loads(build_snapshot(1, "table", state).to_json())
    assert [seat["name"] for seat in data["seats"]] == ["<script>", "[/]", 'a"b', "Ünï 🙂"]


events = st.one_of(
    st.just(TurnPassed()),
    st.just(MeetingStarted()),
    st.just(MeetingResolved()),
    st.builds(PlayerKnockedOut, st.integers(0, 5)),
    st.builds(SitOutToggled, st.integers(0, 5)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(events, max_size=40), st.sampled_from(["table", "meeting", "finale", "reveal"]))
def test_any_game_gives_a_json_snapshot_of_public_state_only(
    moves: list[object], phase: str
) -> None:
    state: GameState = new_game(SIX, 0)
    for move in moves:
        try:
            state = apply(state, move)  # type: ignore[arg-type]
        except IllegalAction:
            continue
    data = json.loads(build_snapshot(1, phase, state).to_json())
    assert data["turn"] == state.turn
    assert [s["in_play"] for s in data["seats"]] == [
        seat not in state.knocked_out for seat in range(len(SIX))
    ]
    assert data["series"]["rows"] == [] and data["series"]["last_winner"] == ""
    assert set(data) == {
        "seq", "phase", "lang", "game_number", "turn", "current", "meetings_done",
        "meetings_total", "seats", "meeting", "over", "eyes_closed", "series", "bgstats_link",
        "leaderboard",
    }  # fmt: skip
    assert data["leaderboard"] is None  # tonight's leaderboard: between games only


def test_the_board_layer_imports_no_textual_and_no_tui() -> None:
    code = (
        "import sys, moderator.board.snapshot, moderator.board.server; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'sqlite3') "
        "or m.startswith('moderator.tui')]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
