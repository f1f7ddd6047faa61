"""The database schema, its version number and the forward migrations.

`PRAGMA user_version` holds the schema version. A fresh database is built by
running every migration from version 1, so new installs and old databases go
through the same, tested code. Each migration runs in one transaction that also
bumps `user_version`, so a crash mid-migration leaves the previous version intact.

Tables (version 2):

- `meta(key, value)`: `app_version` = the app that last migrated the schema, so an
  older app can say which version it would need.
- `series(id, started_at, abandoned_at)`.
- `players(id, name)`: every name ever seated, exactly as typed (unique).
- `games(id, series_id, number, started_at, finished_at)`: `number` is 1..3 in its
  series; `finished_at` (v2) caches "the replayed log has results" and is updated in
  the same transaction as the log entry that changes it.
- `game_players(game_id, seat, player_id)`: the clockwise seating.
- `log(game_id, seq, at, entry)`: the append-only game log; `entry` is the domain's
  `entry_to_json` as JSON text, `seq` counts from 1 (the `GameStarted` entry).
  Triggers refuse UPDATE and DELETE on it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable

import moderator
from moderator.domain.errors import IllegalAction
from moderator.domain.timeline import Timeline, entry_from_json

#: Marks the file as ours in the SQLite header ("MFLY").
APPLICATION_ID = 0x4D464C59

Migration = Callable[[sqlite3.Connection], None]


def _v1_initial(conn: sqlite3.Connection) -> None:
    """Series → games → append-only log, and players by name."""
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        "CREATE TABLE series ( id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, abandoned_at TEXT)"
    )
    conn.execute("CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    conn.execute(
        "CREATE TABLE games ("
        " id INTEGER PRIMARY KEY,"
        " series_id INTEGER NOT NULL REFERENCES series(id),"
        " number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 3),"
        " started_at TEXT NOT NULL,"
        " UNIQUE (series_id, number))"
    )
    conn.execute(
        "CREATE TABLE game_players ("
        " game_id INTEGER NOT NULL REFERENCES games(id),"
        " seat INTEGER NOT NULL CHECK (seat >= 0),"
        " player_id INTEGER NOT NULL REFERENCES players(id),"
        " PRIMARY KEY (game_id, seat))"
    )
    conn.execute(
        "CREATE TABLE log ("
        " game_id INTEGER NOT NULL REFERENCES games(id),"
        " seq INTEGER NOT NULL CHECK (seq >= 1),"
        " at TEXT NOT NULL,"
        " entry TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
    )
    for verb in ("UPDATE", "DELETE"):
        conn.execute(
            f"CREATE TRIGGER log_no_{verb.lower()} BEFORE {verb} ON log "
            "BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END"
        )


def _v2_finished_cache(conn: sqlite3.Connection) -> None:
    """Cache whether each game has results, so resuming does not replay every game.

    Existing games are replayed once to fill it: the log stays the only truth.
    """
    conn.execute("ALTER TABLE games ADD COLUMN finished_at TEXT")
    game_ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
    for game_id in game_ids:
        rows = conn.execute(
            "SELECT at, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        if not rows:
            continue
        try:
            timeline = Timeline.from_log(entry_from_json(json.loads(entry)) for _, entry in rows)
        except (IllegalAction, ValueError):
            continue  # An unreadable log is reported when the game is loaded.
        if timeline.state.result is not None:
            conn.execute(
                "UPDATE games SET finished_at = ? WHERE id = ?", (_finished_at(rows), game_id)
            )
    conn.execute("CREATE INDEX games_unfinished ON games (series_id) WHERE finished_at IS NULL")


def _finished_at(rows: list[tuple[str, str]]) -> str:
    """The time of the entry that (re)declared the results still standing: the last one."""
    return rows[-1][0]


#: MIGRATIONS[i] takes the schema from version i to version i + 1.
MIGRATIONS: list[Migration] = [_v1_initial, _v2_finished_cache]
SCHEMA_VERSION = len(MIGRATIONS)


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version stored in the database header (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def recorded_app_version(conn: sqlite3.Connection) -> str | None:
    """The app version that last migrated this database, if it says so (read-only)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'app_version'").fetchone()
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None


def rollback_quietly(conn: sqlite3.Connection) -> None:
    """End a failed transaction; SQLite may already have rolled it back itself."""
    if conn.in_transaction:
        # If even that fails, nothing more can be done: the transaction never committed.
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema forward to `target`, one transaction per step.

    Returns the number of steps run. The connection must be in autocommit mode
    (`isolation_level=None`) so the explicit transactions here are the only ones.
    """
    steps = 0
    current = user_version(conn)
    while current < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[current](conn)
            current += 1
            conn.execute(f"PRAGMA user_version = {current}")
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('app_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (moderator.__version__,),
            )
            conn.execute("COMMIT")
        except BaseException:
            rollback_quietly(conn)
            raise
        steps += 1
    return steps
