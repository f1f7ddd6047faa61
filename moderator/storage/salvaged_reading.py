"""What a reading command shows of a damaged, old or missing database, writing nothing.

`mindflayer history` is a reading command: it never sets a file aside, never
migrates it, never starts a fresh one. A database that cannot be read as it is
(damaged, or of an older schema) is read row by row into memory (`salvage`), and
the history is what still reads, with one sentence saying what was skipped. An
empty or missing database while the progress file names a game says so.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from moderator.domain.worded import N_
from moderator.storage import schema
from moderator.storage.database import (
    DATABASE_NAME,
    database_id,
    open_salvaged_reader,
    refuse_special_file,
)
from moderator.storage.errors import Notice, StorageError
from moderator.storage.journal import Journal
from moderator.storage.records import utc_now
from moderator.storage.salvage import is_damage
from moderator.storage.store import Store, progress_path
from moderator.storage.wal_loss import is_empty_or_missing, lost_actions, missing_database

Read = TypeVar("Read")


def read_what_reads(folder: Path, reason: BaseException) -> Store:
    """A store over what still reads of the folder's database, copied into memory.

    `reason` is why the plain read-only opening failed: damage is told in a
    sentence; an older schema is simply migrated in memory.
    """
    path = folder / DATABASE_NAME
    refuse_special_file(path)
    conn, salvaged = open_salvaged_reader(path)
    notices: list[str] = []
    if is_damage(reason):
        notices.append(
            Notice(
                N_(
                    "The score database {path} is damaged ({error}). {recovered} What follows "
                    "is what could still be read; the file was not changed (the moderator "
                    "rescues it when it starts)."
                ),
                path=path,
                error=_cause_text(reason),
                recovered=salvaged.sentence(),
            )
        )
    journal = Journal(conn, utc_now, None, database_id(conn, create=False))
    lost = lost_actions(journal, progress_path(path))
    if lost is not None:
        notices.append(lost.sentence)
    return Store(path, journal, None, notices)


def read_missing(folder: Path) -> Store | None:
    """An empty store that says so, when the database is empty or missing but a game was
    being played (the progress file names it); None when there is nothing to say."""
    path = folder / DATABASE_NAME
    if not is_empty_or_missing(path):
        return None
    said = missing_database(path, progress_path(path))
    if said is None:
        return None
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    schema.migrate(conn)
    return Store(path, Journal(conn, utc_now, None, None), None, [said])


def read_salvaging(store: Store, folder: Path, read: Callable[[Store], Read]) -> tuple[Read, Store]:
    """`read(store)`; when it meets a damaged page, the same read of what still reads.

    Returns the result and the store it came from (the caller closes it and tells
    its notices); `store` is closed when the read fails. The damage of a page the
    opening did not touch shows only here.
    """
    try:
        return read(store), store
    except StorageError as error:
        store.close()
        if not is_damage(error):
            raise
        salvaged = read_what_reads(folder, error)
        return read(salvaged), salvaged


def _cause_text(error: BaseException) -> str:
    """SQLite's own words for the damage (the first cause that has them)."""
    seen: BaseException | None = error
    while seen is not None:
        if getattr(seen, "sqlite_errorname", None) is not None:
            return str(seen)
        seen = seen.__cause__ or seen.__context__
    return str(error)
