"""Telling our database from another program's SQLite file, without writing to it.

Ours carries `schema.APPLICATION_ID` in its header from its first schema version
on (set in the same transaction as `user_version = 1`). A file without it is
ours only while it is blank: no tables and no schema version. The decision is
taken from the raw header bytes where they suffice, and otherwise with a
read-only connection: a read-write connection could checkpoint another
program's write-ahead log into its file when it closes.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from moderator.domain.worded import N_
from moderator.storage import schema
from moderator.storage.errors import Notice

#: `diagnose`'s reason for an SQLite database of another program.
FOREIGN = Notice(N_("it is not a Mind Flayer score database: it belongs to another program"))
#: Where the SQLite header keeps `user_version` and `application_id` (big-endian).
_USER_VERSION = slice(60, 64)
_APPLICATION_ID = slice(68, 72)
HEADER_BYTES = 100


def foreign_file(path: Path, header: bytes) -> bool:
    """Whether the SQLite file at `path` (its first bytes: `header`) is someone else's.

    SQLite errors pass through (the caller tells damage from a read error).
    """
    if len(header) >= HEADER_BYTES:
        app_id = int.from_bytes(header[_APPLICATION_ID], "big")
        if app_id == schema.APPLICATION_ID:
            return False
        if app_id != 0 or int.from_bytes(header[_USER_VERSION], "big") != 0:
            return True
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return belongs_to_another_program(conn)
    finally:
        conn.close()


def belongs_to_another_program(conn: sqlite3.Connection) -> bool:
    """The same decision on an open connection (read-only queries only)."""
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app_id == schema.APPLICATION_ID:
        return False
    if app_id != 0 or schema.user_version(conn) != 0:
        return True
    return bool(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


def foreign_message(path: Path) -> Notice:
    """The sentence for a valid SQLite file that another program made."""
    return Notice(
        N_(
            "The file {path} is not a Mind Flayer score database (it belongs to another "
            "program), so it was left exactly as it is. Move it out of the folder, or "
            "choose another one with --data-dir."
        ),
        path=path,
    )
