"""The database schema, its version number and the forward migrations.

`PRAGMA user_version` holds the schema version. A fresh database is built by
running every migration from version 1, so new installs and old databases go
through the same, tested code. Each migration runs in one transaction that also
bumps `user_version`, so a crash mid-migration leaves the previous version intact.

Tables (version 5):

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
- (v3) `games.withdrawn_at`: a game taken back right after its start (an accidental
  start). Its row, seating and log stay (the log is append-only), but it counts for
  nothing: not in the series, its number free again (`(series_id, number)` is unique
  among the games not withdrawn).
- (v3) `renames(game_id, old_name, new_name)`: at the setup of `game_id` the table said
  that `new_name` is the same player as `old_name` of the series' earlier games, so the
  series totals carry the points over. Recorded with the game's start, ignored when
  that game is withdrawn.
- (v4) `games.score`: the finished game's score line (`moderator.storage.score_cache`),
  written with the log entry that changes the results, so the history needs no replay;
  index `games_series_finished(series_id, finished_at)`: counting a series' games with
  results (complete? resumable?) reads a few index entries instead of every game.
- (v5) index `game_players_player(player_id, game_id)`: the setup screen's known
  players (each name's latest game) read in index order instead of sorting every seat.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable

import moderator
from moderator.domain.errors import IllegalAction
from moderator.domain.timeline import Timeline, entry_from_json
from moderator.storage.score_cache import score_text

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


def _v3_withdrawn_and_renames(conn: sqlite3.Connection) -> None:
    """Games can be withdrawn (their number freed); names can be carried over in a series.

    SQLite cannot drop a table constraint, so `games` is rebuilt with the same rows
    (the documented way: foreign keys are off meanwhile, see `migrate`).
    """
    conn.execute(
        "CREATE TABLE games_v3 ("
        " id INTEGER PRIMARY KEY,"
        " series_id INTEGER NOT NULL REFERENCES series(id),"
        " number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 3),"
        " started_at TEXT NOT NULL,"
        " finished_at TEXT,"
        " withdrawn_at TEXT)"
    )
    conn.execute(
        "INSERT INTO games_v3 (id, series_id, number, started_at, finished_at) "
        "SELECT id, series_id, number, started_at, finished_at FROM games"
    )
    conn.execute("DROP TABLE games")
    conn.execute("ALTER TABLE games_v3 RENAME TO games")
    conn.execute(
        "CREATE UNIQUE INDEX games_number ON games (series_id, number) WHERE withdrawn_at IS NULL"
    )
    conn.execute(
        "CREATE INDEX games_unfinished ON games (series_id) "
        "WHERE finished_at IS NULL AND withdrawn_at IS NULL"
    )
    conn.execute(
        "CREATE TABLE renames ("
        " game_id INTEGER NOT NULL REFERENCES games(id),"
        " old_name TEXT NOT NULL,"
        " new_name TEXT NOT NULL,"
        " PRIMARY KEY (game_id, old_name))"
    )


def _v4_history_speed(conn: sqlite3.Connection) -> None:
    """Index the games by series and results, and cache each finished game's score.

    Without the index, "how many games of this series have results" scans every
    game, once per series: quadratic (2 s at 10,000 games, 9.5 s at 20,000). Without
    the cache, the history replays every game's log (seconds at 20,000 games).
    Existing finished games are replayed once to fill it: the log stays the only truth.
    """
    conn.execute("ALTER TABLE games ADD COLUMN score TEXT")
    game_ids = [
        row[0] for row in conn.execute("SELECT id FROM games WHERE finished_at IS NOT NULL")
    ]
    for game_id in game_ids:
        entries = [
            row[0]
            for row in conn.execute(
                "SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        try:
            timeline = Timeline.from_log(entry_from_json(json.loads(entry)) for entry in entries)
        except (IllegalAction, ValueError, TypeError):
            continue  # An unreadable log is reported when the game is loaded.
        conn.execute(
            "UPDATE games SET score = ? WHERE id = ?",
            (score_text(timeline.state, len(entries)), game_id),
        )
    conn.execute("CREATE INDEX games_series_finished ON games (series_id, finished_at)")


def _v5_known_players(conn: sqlite3.Connection) -> None:
    """Index the seating by player, for `Store.known_players` (the setup screen).

    Without it, "every name, most recently seated first" grouped and sorted every
    seat ever taken: 33-120 ms at 20,000 games, on the setup screen's way.
    """
    conn.execute("CREATE INDEX game_players_player ON game_players (player_id, game_id)")


#: MIGRATIONS[i] takes the schema from version i to version i + 1.
MIGRATIONS: list[Migration] = [
    _v1_initial,
    _v2_finished_cache,
    _v3_withdrawn_and_renames,
    _v4_history_speed,
    _v5_known_players,
]
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
    # A step may rebuild a table that others reference; SQLite's way is to switch
    # foreign keys off outside the transaction and check them before each commit.
    enforced = bool(conn.execute("PRAGMA foreign_keys").fetchone()[0])
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        steps = _run_steps(conn, current, target)
    finally:
        if enforced:
            conn.execute("PRAGMA foreign_keys = ON")
    return steps


def _run_steps(conn: sqlite3.Connection, current: int, target: int) -> int:
    """The migrations from `current` to `target`, one transaction each."""
    steps = 0
    while current < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[current](conn)
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise sqlite3.IntegrityError(f"foreign keys broken by migration: {broken[:3]}")
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
