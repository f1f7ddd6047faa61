"""Schema versions: every old version migrates forward, one transaction per step."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import moderator
from moderator.domain import PlayerKnockedOut, ResultsDeclared, Timeline, TurnPassed
from moderator.domain.timeline import LogEntry, Undo, entry_to_json
from moderator.storage import DATABASE_NAME, Store, schema
from moderator.storage.database import connect

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")


def build_v1(path: Path) -> None:
    """A version-1 database as the first release wrote it: two games, one finished."""
    conn = connect(path)
    schema.migrate(conn, target=1)
    assert schema.user_version(conn) == 1
    finished: list[LogEntry] = [
        Timeline.start(PLAYERS, 0).log[0],
        PlayerKnockedOut(1),
        PlayerKnockedOut(2),
        ResultsDeclared((3,), (1, 0, 0, 2)),
    ]
    in_progress: list[LogEntry] = [Timeline.start(PLAYERS, 1).log[0], TurnPassed(), Undo()]
    conn.execute("BEGIN")
    conn.execute("INSERT INTO series (id, started_at) VALUES (1, '2025-01-01T20:00:00+00:00')")
    for name in PLAYERS:
        conn.execute("INSERT INTO players (name) VALUES (?)", (name,))
    for game_id, log in ((1, finished), (2, in_progress)):
        conn.execute(
            "INSERT INTO games (id, series_id, number, started_at) VALUES (?, 1, ?, ?)",
            (game_id, game_id, f"2025-01-01T2{game_id}:00:00+00:00"),
        )
        for seat, name in enumerate(PLAYERS):
            conn.execute(
                "INSERT INTO game_players SELECT ?, ?, id FROM players WHERE name = ?",
                (game_id, seat, name),
            )
        for seq, entry in enumerate(log, start=1):
            conn.execute(
                "INSERT INTO log VALUES (?, ?, ?, ?)",
                (
                    game_id,
                    seq,
                    f"2025-01-01T2{game_id}:{seq:02d}:00+00:00",
                    json.dumps(entry_to_json(entry)),
                ),
            )
    conn.execute("COMMIT")
    conn.close()


def test_fresh_database_is_at_the_current_version(data_dir: Path) -> None:
    with Store.open(data_dir) as store:
        conn = store.journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION == 5
        assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
        assert schema.recorded_app_version(conn) == moderator.__version__


def test_version_1_database_migrates_and_keeps_its_games(data_dir: Path) -> None:
    data_dir.mkdir()
    build_v1(data_dir / DATABASE_NAME)
    with Store.open(data_dir) as store:
        conn = store.journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION
        assert conn.execute("SELECT id, finished_at FROM games ORDER BY id").fetchall() == [
            (1, "2025-01-01T21:04:00+00:00"),
            (2, None),
        ]
        (score,) = store.series_games(1)
        assert score.points == {"Ann": 2, "Bob": 1, "Cyd": 1, "Dee": 0}
        resumed = store.unfinished()
        assert resumed is not None and resumed.game is not None
        assert resumed.game.number == 2 and resumed.game.timeline.can_redo
        assert resumed.game.state.turn == 1
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


@pytest.mark.parametrize("start", range(schema.SCHEMA_VERSION))
def test_every_version_reaches_the_current_one(data_dir: Path, start: int) -> None:
    data_dir.mkdir()
    conn = connect(data_dir / DATABASE_NAME)
    assert schema.migrate(conn, target=start) == start
    conn.close()
    with Store.open(data_dir) as store:
        assert schema.user_version(store.journal.conn) == schema.SCHEMA_VERSION
        store.new_game(store.new_series(), PLAYERS, 0).record(TurnPassed())


def test_a_failed_migration_step_leaves_the_previous_version(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir.mkdir()
    build_v1(data_dir / DATABASE_NAME)
    original = schema.MIGRATIONS
    real_step = original[1]

    def crashing_step(conn: sqlite3.Connection) -> None:
        real_step(conn)
        raise RuntimeError("power cut")

    monkeypatch.setattr(schema, "MIGRATIONS", [schema.MIGRATIONS[0], crashing_step])
    with pytest.raises(RuntimeError, match="power cut"):
        Store.open(data_dir)
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    assert schema.user_version(conn) == 1
    columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    assert "finished_at" not in columns
    conn.close()
    monkeypatch.setattr(schema, "MIGRATIONS", original)
    with Store.open(data_dir) as store:
        assert len(store.series_games(1)) == 1
