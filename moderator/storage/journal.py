"""The one place where the store writes: a transaction per action, or nothing.

Every write goes through `Journal.write`, which runs `BEGIN IMMEDIATE … COMMIT`
and turns any SQLite failure (full disk, read-only folder, I/O error) into a
`StorageWriteError` after rolling back. Callers change their in-memory state
only after `write` returns, so memory never runs ahead of the disk.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from moderator.domain.worded import N_
from moderator.storage.database import BUSY_TIMEOUT_MS
from moderator.storage.errors import Notice, StorageError, StorageWriteError
from moderator.storage.progress import Mark, ProgressFile
from moderator.storage.records import time_to_text
from moderator.storage.schema import rollback_quietly

#: A checkpoint waits at most this long for a reader (`mindflayer history`) to finish:
#: it runs on the table's thread, and a checkpoint that gives up only delays safety.
CHECKPOINT_BUSY_MS = 200


class Journal:
    """A connection, a clock and a lock that serializes the app's threads."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        clock: Callable[[], datetime],
        progress: ProgressFile | None = None,
        database_id: str | None = None,
    ) -> None:
        self._conn: sqlite3.Connection | None = conn
        #: The database's own id (`meta.database_id`; None in one no writer has opened yet).
        self.database_id = database_id
        self.clock = clock
        #: Where the acknowledged length of the game in progress is noted (writers only).
        self.progress = progress
        #: Held across check → commit → apply, so two threads cannot interleave one game.
        self.lock = threading.RLock()

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection; using a closed store is a programming error with a sentence."""
        if self._conn is None:
            raise StorageError(N_("The score database is closed."))
        return self._conn

    def now_text(self) -> str:
        """The current time as stored in the database."""
        return time_to_text(self.clock())

    @contextmanager
    def write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; `what` names the action in the error sentence."""
        with self.lock:
            conn = self.conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as error:
                rollback_quietly(conn)
                raise StorageWriteError.saying(write_failure(what, error)) from error
            except BaseException:
                rollback_quietly(conn)
                raise

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """All rows of a read-only query (parameterized, like every statement here)."""
        with self.lock:
            try:
                return self.conn.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                raise StorageError(
                    N_("The score database could not be read ({error})."), error=str(error)
                ) from error

    def acknowledge(self, game_id: int, entries: int) -> None:
        """Note that `game_id` has `entries` log entries on disk (see `progress`)."""
        if self.progress is None:
            return
        rows = self.query(
            "SELECT started_at, series_id, number FROM games WHERE id = ?", (game_id,)
        )
        if rows:
            started_at, series_id, number = rows[0]
            assert isinstance(series_id, int) and isinstance(number, int)
            self.progress.write(
                Mark(game_id, str(started_at), entries, series_id, number, self.database_id)
            )

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and empty it; True if it completed.

        Called at each game's end, after results and at a clean exit, so a
        damaged WAL can only ever hold (and lose) the game in progress.
        """
        with self.lock:
            if self._conn is None:
                return False
            conn = self._conn
            try:
                conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_BUSY_MS}")
                busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error:
                return False
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            return not busy

    def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL as the last one closes)."""
        with self.lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if self.progress is not None:
                self.progress.close()


def write_failure(what: str, error: sqlite3.Error) -> Notice:
    """A sentence for a failed write that says why and that nothing changed.

    `what` is the action's words (a `Phrase`, translated with the sentence).
    """
    text = str(error).lower()
    reason: str
    if "full" in text:
        reason = N_("the disk is full")
        advice = N_("Free some space")
    elif "readonly" in text or "read-only" in text or "permission" in text:
        reason = N_("the score folder cannot be written")
        advice = N_("Make the folder writable or restart with another --data-dir")
    elif "i/o" in text:
        reason = N_("the disk reported an error")
        advice = N_("Check the disk")
    elif "locked" in text or "busy" in text:
        reason = N_("the score database is busy")
        advice = N_("Wait a moment")
    else:
        reason = Notice(N_("SQLite said: {error}"), error=str(error))
        advice = N_("Check the score folder")
    return Notice(
        N_(
            "Could not save {what} ({reason}), so it did not happen; "
            "the game is exactly as before. {advice}, then try again."
        ),
        what=what,
        reason=reason,
        advice=advice,
    )
