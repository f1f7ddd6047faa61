"""Giving back what a damaged score database still holds, row by row (issue 33).

A damaged page used to cost the whole history: the file was set aside and a
fresh, empty one started, although most of its rows still read. Now, when the
file fails to open or fails its integrity check (see `database.recover`):

1. What is repairable is repaired: damage to indexes alone is mended by
   `REINDEX` (an index holds nothing that is not also in its table), on a copy.
2. Otherwise every row that still reads is copied into a fresh database, in a
   way that survives errors in the middle of a table: a rowid table is read in
   order, and at a damaged stretch the reading jumps ahead (1, 2, 4, 8... rows)
   until it reads again, then the rows it jumped over are asked for one by one;
   the log is read game by game, each game's actions in order up to the first one
   that cannot be read (the later ones cannot be replayed without it). A game
   whose log kept only its first actions gets its cached results from that log.
   The seating is taken from each game's first log entry, which names the players.
3. One sentence says what came back and what did not: "6 of 8 games and 2
   complete series were recovered; games 4 and 5 could not be read."

The reading command (`mindflayer history`) uses step 2 into a database in
memory: it shows what still reads and changes nothing on disk.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from moderator.domain.errors import IllegalAction
from moderator.domain.rules import GAMES_PER_SERIES, MAX_PLAYERS
from moderator.domain.timeline import Timeline, entry_from_json
from moderator.domain.worded import N_
from moderator.storage import schema
from moderator.storage.errors import Notice
from moderator.storage.score_cache import score_text

#: SQLite result codes that mean "this file is damaged", as opposed to busy or I/O errors.
DAMAGE_CODES = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})
#: Rowid tables copied as they are (the log and the seating are rebuilt by game).
_ROW_TABLES = ("meta", "series", "games", "renames")
#: Past this rowid, jumping ahead stops: nothing the app writes comes near it.
_LAST_ROWID = 2**62
#: When a table's highest rowid cannot be read, the rows jumped over are asked for one
#: by one this far at most (the app's tables hold one row per game or series).
_MOST_PROBES = 2**16
#: A replay of a damaged game's log that fails for these is left to `set_aside`.
_REPLAY_ERRORS = (IllegalAction, ValueError, TypeError, KeyError, AttributeError)


def is_damage(error: BaseException | None) -> bool:
    """Whether `error` (or what caused it) is SQLite saying the file is damaged."""
    seen = 0
    while error is not None and seen < 10:
        if getattr(error, "sqlite_errorname", None) in DAMAGE_CODES:
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def rebuild_indexes(conn: sqlite3.Connection) -> bool:
    """`REINDEX` everything, then check; True when the file is then intact.

    Run on a copy: when the damage is elsewhere too, the copy is dropped.
    """
    try:
        conn.execute("REINDEX")
        return conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        return False


@dataclass
class Salvage:
    """What a salvage copied, to be told in one sentence."""

    #: Games known to have existed: ids are never reused, so every id up to the highest seen.
    total: int = 0
    #: Games whose log read to its end.
    whole: list[int] = field(default_factory=list)
    #: Games that kept only the actions before the damage (id -> actions kept).
    partial: dict[int, int] = field(default_factory=dict)
    #: Complete series in the copy.
    complete_series: int = 0
    #: Rows copied, every table counted (the benchmark's measure).
    rows: int = 0

    @property
    def lost(self) -> list[int]:
        """The games of which nothing could be read."""
        kept = set(self.whole) | set(self.partial)
        return [game for game in range(1, self.total + 1) if game not in kept]

    def sentence(self) -> Notice:
        """What came back and what did not, in one sentence."""
        if not self.lost and not self.partial:
            if self.total == 0:
                return Notice(N_("It held no game yet."))
            return Notice.counting(
                "Its {count} game was recovered in full.",
                "All its {count} games were recovered in full.",
                self.total,
            )
        recovered = Notice.counting(
            "{whole} of {count} game and {series} complete series were recovered",
            "{whole} of {count} games and {series} complete series were recovered",
            self.total,
            whole=len(self.whole),
            series=self.complete_series,
        )
        missing: list[Notice] = []
        if self.lost:
            missing.append(
                Notice.counting(
                    "game {games} could not be read",
                    "games {games} could not be read",
                    len(self.lost),
                    games=listed(self.lost),
                )
            )
        if self.partial:
            missing.append(
                Notice.counting(
                    "game {games} kept only its actions before the damage",
                    "games {games} kept only their actions before the damage",
                    len(self.partial),
                    games=listed(sorted(self.partial)),
                )
            )
        told = (
            missing[0]
            if len(missing) == 1
            else Notice(N_("{first}; {second}"), first=missing[0], second=missing[1])
        )
        return Notice(N_("{recovered}; {missing}."), recovered=recovered, missing=told)


def listed(numbers: Sequence[int]) -> Notice | str:
    """`4`, `4 and 5`, `4, 5 and 7`: at most 12 named, then how many more."""
    shown = [str(number) for number in numbers[:12]]
    if len(numbers) > 12:
        shown.append(str(Notice.counting("{count} more", "{count} more", len(numbers) - 12)))
    if len(shown) == 1:
        return shown[0]
    return Notice(N_("{first} and {last}"), first=", ".join(shown[:-1]), last=shown[-1])


def salvage_rows(source: sqlite3.Connection, target: sqlite3.Connection) -> Salvage:
    """Copy every row of `source` that still reads into `target`, an empty database.

    `target` is given `source`'s schema version first (so the columns are the
    same); the caller migrates it onward. Raises `sqlite3.DatabaseError` only when
    not even the schema can be read (then nothing can be).
    """
    version = min(schema.user_version(source), schema.SCHEMA_VERSION)
    tables = {
        str(row[0]) for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    schema.migrate(target, version)
    result = Salvage()
    target.execute("BEGIN IMMEDIATE")
    try:
        for table in _ROW_TABLES:
            if table in tables:
                result.rows += _copy_rows(source, target, table)
        games = [int(row[0]) for row in target.execute("SELECT id FROM games ORDER BY id")]
        result.total = max([*games, _highest_game(source, tables)], default=0)
        for game_id in games:
            kept, whole = _copy_log(source, target, game_id)
            result.rows += kept
            if kept == 0:
                target.execute("DELETE FROM renames WHERE game_id = ?", (game_id,))
                target.execute("DELETE FROM games WHERE id = ?", (game_id,))
                continue
            if whole:
                result.whole.append(game_id)
            else:
                result.partial[game_id] = kept
                _cache_from_log(target, game_id)
            result.rows += _seat(source, target, game_id)
        _series_for_games(target)
        result.complete_series = _complete_series(target)
        target.execute("COMMIT")
    except BaseException:
        schema.rollback_quietly(target)
        raise
    return result


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")]


def _copy_rows(source: sqlite3.Connection, target: sqlite3.Connection, table: str) -> int:
    """Every readable row of a rowid table, jumping over damaged stretches."""
    wanted = set(_columns(target, table))
    columns = [name for name in _columns(source, table) if name in wanted]
    names = ", ".join(columns)
    select = f"SELECT rowid, {names} FROM {table}"  # noqa: S608 - names from the schema
    insert = (
        f"INSERT OR IGNORE INTO {table} (rowid, {names}) "  # noqa: S608
        f"VALUES (?{', ?' * len(columns)})"
    )
    copied = 0
    after: int | None = None
    while after is None or after < _LAST_ROWID:
        try:
            cursor = (
                source.execute(f"{select} ORDER BY rowid")
                if after is None
                else source.execute(f"{select} WHERE rowid > ? ORDER BY rowid", (after,))
            )
            for row in _rows(cursor):
                copied += target.execute(insert, row).rowcount
                after = row[0] if isinstance(row[0], int) else after
            return copied
        except (_Damaged, sqlite3.DatabaseError):  # the seek itself may meet the damage
            start = after if after is not None else -1
            ceiling = _ceiling(source, table)
            found, next_after = _jump(source, table, start, ceiling)
            last = min(next_after, ceiling if ceiling is not None else start + _MOST_PROBES)
            for row in _one_by_one(source, select, start, last):
                copied += target.execute(insert, row).rowcount
            if found is None:
                return copied
            after = next_after
    return copied


class _Damaged(Exception):
    """Reading the source hit a damaged page (never an error of the target)."""


def _rows(cursor: sqlite3.Cursor) -> Iterable[tuple[object, ...]]:
    """The cursor's rows; a damaged page ends them with `_Damaged`."""
    while True:
        try:
            row = cursor.fetchone()
        except sqlite3.DatabaseError as error:  # the target is never read here
            raise _Damaged from error
        if row is None:
            return
        yield tuple(row)


def _ceiling(source: sqlite3.Connection, table: str) -> int | None:
    """The table's highest rowid when it still reads (only the rightmost pages are read)."""
    try:
        value = source.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]  # noqa: S608
    except sqlite3.DatabaseError:
        return None
    return value if isinstance(value, int) else None


def _jump(
    source: sqlite3.Connection, table: str, after: int, ceiling: int | None
) -> tuple[int | None, int]:
    """The first rowid that reads past `after`, found by jumps of 1, 2, 4... rows.

    Returns (that rowid or None when none is left, where the one-by-one reading
    of the rows jumped over ends). No jump goes past `ceiling` (when known).
    """
    step = 1
    top = _LAST_ROWID if ceiling is None else ceiling
    while after + step <= top:
        try:
            row = source.execute(
                f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1",  # noqa: S608
                (after + step,),
            ).fetchone()
        except sqlite3.DatabaseError:
            step *= 2
            continue
        return (None if row is None else int(row[0])), after + step
    return None, top


def _one_by_one(
    source: sqlite3.Connection, select: str, after: int, last: int
) -> Iterable[tuple[object, ...]]:
    """The rows from `after` (excluded) to `last` (included) that read, each asked alone."""
    for rowid in range(after + 1, last + 1):
        try:
            row = source.execute(f"{select} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None:
            yield tuple(row)


def _highest_game(source: sqlite3.Connection, tables: set[str]) -> int:
    """The highest game id the source still names anywhere (0 when none reads)."""
    highest = 0
    for sql, table in (
        ("SELECT max(id) FROM games", "games"),
        ("SELECT max(game_id) FROM log", "log"),
        ("SELECT max(game_id) FROM game_players", "game_players"),
    ):
        if table not in tables:
            continue
        try:
            value = source.execute(sql).fetchone()[0]
        except sqlite3.DatabaseError:
            continue
        if isinstance(value, int):
            highest = max(highest, value)
    return highest


def _copy_log(
    source: sqlite3.Connection, target: sqlite3.Connection, game_id: int
) -> tuple[int, bool]:
    """The game's actions in order, up to the first that cannot be read.

    Returns (actions copied, whether the log read to its end).
    """
    expected = 1
    try:
        cursor = source.execute(
            "SELECT seq, at, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        for seq, at, entry in _rows(cursor):
            if seq != expected or not isinstance(entry, str):
                return expected - 1, False  # a gap: what follows cannot be replayed
            target.execute(
                "INSERT INTO log (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                (game_id, seq, at, entry),
            )
            expected += 1
    except (_Damaged, sqlite3.DatabaseError):
        return expected - 1, False
    return expected - 1, True


def _entries(target: sqlite3.Connection, game_id: int) -> list[tuple[str, str]]:
    return [
        (str(at), str(entry))
        for at, entry in target.execute(
            "SELECT at, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        )
    ]


def _cache_from_log(target: sqlite3.Connection, game_id: int) -> None:
    """A game that lost its last actions: its cached results as its log now says."""
    columns = set(_columns(target, "games"))
    rows = _entries(target, game_id)
    try:
        timeline = Timeline.from_log(entry_from_json(json.loads(entry)) for _, entry in rows)
    except _REPLAY_ERRORS:
        timeline = None  # an unreadable log is set aside when the store opens
    finished = timeline is not None and timeline.state.result is not None
    if "finished_at" in columns:
        target.execute(
            "UPDATE games SET finished_at = ? WHERE id = ?",
            (rows[-1][0] if finished else None, game_id),
        )
    if "score" in columns:
        score = score_text(timeline.state, len(rows)) if finished and timeline else None
        target.execute("UPDATE games SET score = ? WHERE id = ?", (score, game_id))


def _seat(source: sqlite3.Connection, target: sqlite3.Connection, game_id: int) -> int:
    """The game's seating, from its first log entry (which names the players as seated).

    The entry's JSON is read, not replayed: the names in it were checked when
    the game started (a replay of every game's start was two thirds of the
    salvage's time). When it names no players, the source's seating rows that read.
    """
    first = target.execute(
        "SELECT entry FROM log WHERE game_id = ? AND seq = 1", (game_id,)
    ).fetchone()
    names = _started_players(first[0] if first else None)
    if names is None:
        try:
            names = [
                str(row[0])
                for row in source.execute(
                    "SELECT p.name FROM game_players s JOIN players p ON p.id = s.player_id "
                    "WHERE s.game_id = ? ORDER BY s.seat",
                    (game_id,),
                )
            ]
        except sqlite3.DatabaseError:
            return 0
    for seat, name in enumerate(names):
        target.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
        target.execute(
            "INSERT OR IGNORE INTO game_players (game_id, seat, player_id) "
            "SELECT ?, ?, id FROM players WHERE name = ?",
            (game_id, seat, name),
        )
    return len(names)


def _started_players(entry: object) -> list[str] | None:
    """The players a `GameStarted` entry's JSON names, as seated; None if it names none."""
    try:
        data = json.loads(entry) if isinstance(entry, str) else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "GameStarted":
        return None
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not 0 < len(players) <= MAX_PLAYERS
        or not all(isinstance(name, str) for name in players)
    ):
        return None
    return players


def _series_for_games(target: sqlite3.Connection) -> None:
    """A series whose row was lost while its games read: made again from its games."""
    target.execute(
        "INSERT INTO series (id, started_at) "
        "SELECT series_id, min(started_at) FROM games "
        "WHERE series_id NOT IN (SELECT id FROM series) GROUP BY series_id"
    )


def _complete_series(target: sqlite3.Connection) -> int:
    """The series of the copy that have all their games with results."""
    columns = set(_columns(target, "games"))
    if not {"finished_at", "withdrawn_at"} <= columns:
        return 0
    row = target.execute(
        "SELECT count(*) FROM (SELECT series_id FROM games "
        "WHERE finished_at IS NOT NULL AND withdrawn_at IS NULL "
        "GROUP BY series_id HAVING count(*) >= ?)",
        (GAMES_PER_SERIES,),
    ).fetchone()
    return int(row[0])
