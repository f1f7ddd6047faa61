"""Schema v5: each finished game's score in `game_scores` columns (no JSON per game).

The rows move with the results (undo, redo) in the same transaction, the v5
migration fills them from a v4 file by replaying the logs, and the setup screen's
known players read the `game_players_player` index.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_storage_history_speed import assert_the_fixture_history

from moderator.domain import PlayerKnockedOut, Redo, ResultsDeclared, Undo
from moderator.storage import DATABASE_NAME, Store, schema

FOUR = ("Ann", "Bob", "Cyd", "Dee")
V4_DUMP = Path(__file__).with_name("v4_database.sql")


def rows_of(store: Store, game_id: int) -> list[tuple[object, ...]]:
    return store._journal.query(
        "SELECT seat, player, points, possessed, first_player, winner, entries "
        "FROM game_scores WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )


def test_the_score_rows_follow_undo_and_redo_of_the_results(store: Store) -> None:
    series = store.new_series()
    game = store.new_game(series, FOUR, 1)
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    assert rows_of(store, game.game_id) == []
    result = game.record(ResultsDeclared((3,), (0, 2, 1, 0))).result
    assert result is not None
    declared = rows_of(store, game.game_id)
    assert declared == [
        (seat, name, result.points[seat], int(seat == 3), 1, result.winner.value, 4)
        for seat, name in enumerate(FOUR)
    ]
    game.record(Undo())
    assert rows_of(store, game.game_id) == []
    assert store.series_games(series) == []
    game.record(Redo())
    assert [row[:6] for row in rows_of(store, game.game_id)] == [row[:6] for row in declared]
    assert {row[6] for row in rows_of(store, game.game_id)} == {6}
    (line,) = store.series_games(series)
    assert line.points == dict(zip(FOUR, result.points, strict=True))
    assert line.possessed == frozenset({"Dee"}) and line.first_player == "Bob"


def test_a_version_4_file_gains_the_score_rows_and_keeps_its_history(data_dir: Path) -> None:
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.executescript(V4_DUMP.read_text(encoding="utf-8"))
    assert schema.user_version(conn) == 4
    conn.close()
    with Store.open(data_dir) as store:
        conn = store._journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION == 5
        assert conn.execute("SELECT count(*) FROM games WHERE score IS NOT NULL").fetchone() == (0,)
        # Replayed from the logs: the names as seated (the rename applies when read).
        assert rows_of(store, 2) == [
            (0, "Ann", 0, 1, 0, "sane", 5),
            (1, "Bob", 0, 1, 0, "sane", 5),
            (2, "Cyd", 2, 0, 0, "sane", 5),
            (3, "Noah B", 4, 0, 0, "sane", 5),
        ]
        assert rows_of(store, 4) == []
        assert_the_fixture_history(store)  # as the version-4 app printed it (its JSON cache)
        assert store.known_players()[:4] == ["Eve", "Fay", "Gus", "Hal"]


def test_the_known_players_read_the_player_index(store: Store) -> None:
    """Without it, grouping every seat by player sorted all of them (~0.1 s at 20,000)."""
    plan = store._journal.query(
        "EXPLAIN QUERY PLAN SELECT p.name FROM players p "
        "JOIN game_players gp ON gp.player_id = p.id "
        "GROUP BY p.id ORDER BY max(gp.game_id) DESC, p.name"
    )
    assert "game_players_player" in " ".join(str(row[-1]) for row in plan)
