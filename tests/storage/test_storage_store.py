"""Series, games, the write-ahead log, undo across restarts and resume."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from storage_play import random_entry, random_results, random_roster

from moderator.domain import (
    GameStarted,
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    Team,
    Timeline,
    TurnPassed,
)
from moderator.domain.timeline import Redo, Undo, entry_from_json
from moderator.storage import DATABASE_NAME, SavedGame, StorageError, Store, Unfinished

PLAYERS = ["Ann", "Bob", "Cyd", "Dee"]


def disk_log(data_dir: Path, game_id: int) -> list[object]:
    """The game's log as another process would read it: a separate connection."""
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        rows = conn.execute(
            "SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
    return [entry_from_json(json.loads(text)) for _, text in rows]


def finish_quickly(game: SavedGame, possessed: tuple[int, ...] = (0,)) -> None:
    """Knock out all but two players of a 4-player game, then declare results."""
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    game.record(ResultsDeclared(possessed, (0, 0, 0, 0)))


def test_open_creates_folder_and_database_with_durable_settings(data_dir: Path) -> None:
    with Store.open(data_dir / "nested") as store:
        assert store.path == data_dir / "nested" / DATABASE_NAME
        assert store.path.exists()
        assert store.notices == []
        conn = store.journal.conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_every_action_is_on_disk_before_record_returns(store: Store, data_dir: Path) -> None:
    series = store.new_series()
    game = store.new_game(series, PLAYERS, 2)
    assert disk_log(data_dir, game.game_id) == [GameStarted(tuple(PLAYERS), 2)]
    for entry in (TurnPassed(), MeetingStarted((1,)), Undo(), Redo(), MeetingResolved()):
        game.record(entry)
        assert disk_log(data_dir, game.game_id) == game.timeline.log
    assert game.state.meetings_resolved == 1


def test_illegal_action_writes_nothing(store: Store, data_dir: Path) -> None:
    game = store.new_game(store.new_series(), PLAYERS, 0)
    before = game.state
    with pytest.raises(IllegalAction):
        game.record(MeetingResolved())
    with pytest.raises(IllegalAction):
        game.record(Undo())
    assert game.state == before
    assert (
        disk_log(data_dir, game.game_id)
        == game.timeline.log
        == [GameStarted(("Ann", "Bob", "Cyd", "Dee"), 0)]
    )


def test_restart_restores_state_and_undo_history(open_store: Callable[[], Store]) -> None:
    store = open_store()
    series = store.new_series()
    game = store.new_game(series, PLAYERS, 0)
    for entry in (TurnPassed(), TurnPassed(), PlayerKnockedOut(3), Undo(), Undo()):
        game.record(entry)
    expected_state, expected_redo = game.state, list(game.timeline.redo_stack)
    store.close()

    again = open_store()
    resumed = again.unfinished()
    assert resumed is not None and resumed.series_id == series
    assert resumed.game is not None
    assert resumed.game.game_id == game.game_id and resumed.game.number == 1
    assert resumed.game.state == expected_state
    assert resumed.game.timeline.redo_stack == expected_redo
    assert resumed.game.record(Redo()) == Timeline.from_log([*game.timeline.log, Redo()]).state
    assert resumed.game.record(Redo()).knocked_out == frozenset({3})


def test_random_play_survives_restarts(open_store: Callable[[], Store]) -> None:
    rng = random.Random(7)
    store = open_store()
    series = store.new_series()
    game = store.new_game(series, *random_roster(rng))
    for step in range(400):
        entry = random_entry(game.timeline, rng)
        if entry is None:
            break
        game.record(entry)
        if step % 50 == 0:
            log = list(game.timeline.log)
            store.close()
            store = open_store()
            game = store.load_game(game.game_id)
            assert game.timeline.log == log
            assert game.state == Timeline.from_log(log).state


def test_unfinished_walks_through_a_series(store: Store) -> None:
    assert store.unfinished() is None
    series = store.new_series()
    assert store.unfinished() == Unfinished(series, None)
    for number in (1, 2, 3):
        game = store.new_game(series, PLAYERS, 0)
        assert game.number == number
        resumed = store.unfinished()
        assert resumed is not None and resumed.game is game
        finish_quickly(game)
        if number < 3:
            between = store.unfinished()
            assert between is not None and between.series_id == series and between.game is None
    assert store.unfinished() is None
    assert [g.number for g in store.series_games(series)] == [1, 2, 3]


def test_unfinished_skips_abandoned_and_picks_the_newest(store: Store) -> None:
    old = store.new_series()
    store.new_game(old, PLAYERS, 0)
    newer = store.new_series()
    assert store.unfinished().series_id == newer  # type: ignore[union-attr]
    store.abandon_series(newer)
    resumed = store.unfinished()
    assert resumed is not None and resumed.series_id == old and resumed.game is not None
    store.abandon_series(old)
    assert store.unfinished() is None
    with pytest.raises(IllegalAction, match="abandoned"):
        store.new_game(old, PLAYERS, 0)
    with pytest.raises(IllegalAction, match="no series 99"):
        store.abandon_series(99)


def test_new_game_rules(store: Store, data_dir: Path) -> None:
    series = store.new_series()
    with pytest.raises(IllegalAction, match="4 to 10"):
        store.new_game(series, ["Ann", "Bob"], 0)
    with pytest.raises(IllegalAction, match="called"):
        store.new_game(series, ["Ann", "ann", "Cyd", "Dee"], 0)
    with pytest.raises(IllegalAction, match="first player"):
        store.new_game(series, PLAYERS, 9)
    with pytest.raises(IllegalAction, match="no series"):
        store.new_game(series + 1, PLAYERS, 0)
    assert store.journal.query("SELECT count(*) FROM games") == [(0,)]
    first = store.new_game(series, ["  Ann ", "Bob", "Cyd", "Dee"], 1)
    assert first.state.players == ("Ann", "Bob", "Cyd", "Dee")
    with pytest.raises(IllegalAction, match="Game 1 of this series has no results yet"):
        store.new_game(series, PLAYERS, 0)
    finish_quickly(first)
    finish_quickly(store.new_game(series, PLAYERS, 0))
    finish_quickly(store.new_game(series, PLAYERS, 0))
    with pytest.raises(IllegalAction, match="3 games"):
        store.new_game(series, PLAYERS, 0)
    assert store.journal.query("SELECT count(*) FROM games") == [(3,)]


def test_undone_results_are_not_a_finished_game(open_store: Callable[[], Store]) -> None:
    store = open_store()
    series = store.new_series()
    game = store.new_game(series, PLAYERS, 0)
    finish_quickly(game)
    assert [g.game_id for g in store.series_games(series)] == [game.game_id]
    game.record(Undo())
    assert store.series_games(series) == []
    assert store.journal.query("SELECT finished_at FROM games") == [(None,)]
    with pytest.raises(IllegalAction, match="no results yet"):
        store.new_game(series, PLAYERS, 0)
    store.close()

    again = open_store()
    resumed = again.unfinished()
    assert resumed is not None and resumed.game is not None
    assert resumed.game.state.result is None and resumed.game.state.is_over
    resumed.game.record(Redo())
    assert [g.winner for g in again.series_games(series)] == [Team.SANE]


def test_results_cannot_be_undone_once_the_next_game_started(store: Store) -> None:
    series = store.new_series()
    first = store.new_game(series, PLAYERS, 0)
    finish_quickly(first)
    store.new_game(series, PLAYERS, 0)
    with pytest.raises(IllegalAction, match="can no longer be undone"):
        first.record(Undo())
    assert first.state.result is not None


def test_results_cannot_be_undone_once_a_new_series_started(store: Store) -> None:
    series = store.new_series()
    games = []
    for _ in range(3):
        games.append(store.new_game(series, PLAYERS, 0))
        finish_quickly(games[-1])
    store.new_game(store.new_series(), PLAYERS, 0)
    with pytest.raises(IllegalAction, match="can no longer be undone"):
        games[-1].record(Undo())
    assert len(store.history()) == 1


def test_third_game_results_undone_reopens_the_series(store: Store) -> None:
    series = store.new_series()
    games = []
    for _ in range(3):
        games.append(store.new_game(series, PLAYERS, 0))
        finish_quickly(games[-1])
    assert store.unfinished() is None and len(store.history()) == 1
    games[-1].record(Undo())
    resumed = store.unfinished()
    assert resumed is not None and resumed.game is games[-1]
    assert store.history() == []


def test_load_game_returns_one_object_per_game(store: Store) -> None:
    game = store.new_game(store.new_series(), PLAYERS, 0)
    assert store.load_game(game.game_id) is game
    with pytest.raises(StorageError, match="no game 42"):
        store.load_game(42)


def test_the_log_is_append_only(store: Store) -> None:
    store.new_game(store.new_series(), PLAYERS, 0)
    conn = store.journal.conn
    for sql in ("UPDATE log SET entry = '{}'", "DELETE FROM log"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)


def test_a_damaged_log_is_reported_not_guessed(store: Store, data_dir: Path) -> None:
    game_id = store.new_game(store.new_series(), PLAYERS, 0).game_id
    store.close()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute(
        "INSERT INTO log (game_id, seq, at, entry) VALUES (?, 2, 'x', ?)",
        (game_id, json.dumps({"type": "Nonsense"})),
    )
    conn.commit()
    conn.close()
    with Store.open(data_dir) as again, pytest.raises(StorageError, match="cannot be rebuilt"):
        again.load_game(game_id)


def test_closed_store_says_so(store: Store) -> None:
    store.close()
    store.close()
    with pytest.raises(StorageError, match="closed"):
        store.new_series()


def test_known_players_most_recent_first(store: Store) -> None:
    series = store.new_series()
    finish_quickly(store.new_game(series, PLAYERS, 0))
    store.new_game(series, ["Eli", "Bob", "Fay", "Gus"], 0)
    assert store.known_players()[:4] == ["Bob", "Eli", "Fay", "Gus"]
    assert set(store.known_players()) == {"Ann", "Bob", "Cyd", "Dee", "Eli", "Fay", "Gus"}


def test_random_results_helper_is_legal() -> None:
    rng = random.Random(1)
    timeline = Timeline.start(PLAYERS, 0)
    for entry in (PlayerKnockedOut(1), PlayerKnockedOut(2)):
        timeline.record(entry)
    for _ in range(50):
        timeline.check(random_results(timeline, rng))
