"""Schema v5: the known players (setup screen) read the `game_players_player` index.

A v4 file (tests/storage/v4_database.sql: the v3 fixture as the v4 app migrated it)
gains the index and keeps its history and its score cache.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from moderator.storage import DATABASE_NAME, Store, schema

V4_DUMP = Path(__file__).with_name("v4_database.sql")
KNOWN_PLAYERS_PLAN = (
    "EXPLAIN QUERY PLAN SELECT p.name FROM players p "
    "JOIN game_players gp ON gp.player_id = p.id "
    "GROUP BY p.id ORDER BY max(gp.game_id) DESC, p.name"
)


def test_the_known_players_read_the_player_index(store: Store) -> None:
    """Without it, grouping every seat by player sorted all of them (~0.1 s at 20,000)."""
    plan = store.journal.query(KNOWN_PLAYERS_PLAN)
    assert "game_players_player" in " ".join(str(row[-1]) for row in plan)


def test_a_version_4_file_gains_the_index_and_keeps_its_history(data_dir: Path) -> None:
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.executescript(V4_DUMP.read_text(encoding="utf-8"))
    assert schema.user_version(conn) == 4
    cache = conn.execute("SELECT id, score FROM games ORDER BY id").fetchall()
    conn.close()
    with Store.open(data_dir) as store:
        conn = store.journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION == 5
        assert conn.execute("SELECT id, score FROM games ORDER BY id").fetchall() == cache
        plan = store.journal.query(KNOWN_PLAYERS_PLAN)
        assert "game_players_player" in " ".join(str(row[-1]) for row in plan)
        (record,) = store.history()
        # As the version-4 app printed it (from its score cache, the rename carried over).
        assert record.totals == {"Ann": 3, "Bob": 2, "Cyd": 6, "Noah B": 5}
        assert record.winners == ("Cyd",)
        assert [g.first_player for g in record.games] == ["Cyd", "Ann", "Bob"]
        # Latest game first, then by name: game 4, game 3, then Noah (game 1 only).
        names = ["Eve", "Fay", "Gus", "Hal", "Ann", "Bob", "Cyd", "Noah B", "Noah"]
        assert store.known_players() == names
