"""How far the game in progress got, kept outside SQLite to notice a damaged WAL.

SQLite reads its write-ahead log up to the first frame whose checksum fails and
silently ignores the rest, so garbage in the middle of the WAL drops every
action committed after it, and the database itself cannot tell. The store
checkpoints when it opens, right after a game's start is saved, at each game's
end, after results and at a clean exit, so only the actions of the game in
progress can live in the WAL (its row, its seating and the database's schema
are in the database file). This small file beside the database
(`mindflayer.sqlite3.progress`) says which game that is (id, series, number, and
the database's id) and how many log entries it had when its last action was
acknowledged. On the next open, a game whose log ends earlier (or is gone) is
reported in a sentence instead of resuming silently shorter: see `wal_loss`.

The file is advisory: it is rewritten in place after each commit (no fsync: a
power cut can only leave it behind the database, which is never reported), and
any error reading or writing it is ignored.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from moderator.safe_input import read_text

#: Windows opens in text mode unless told (it would turn each \n into \r\n).
BINARY = getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Mark:
    """The game in progress as last acknowledged.

    `database_id` (the database's `meta.database_id`) and `started_at` tell
    databases apart; `series_id` and `number` name the game even when the damage
    took its row away with it.
    """

    game_id: int
    started_at: str
    entries: int
    series_id: int | None = None
    number: int | None = None
    database_id: str | None = None

    def line(self) -> bytes:
        """The file's whole content (version 2: every field; `started_at` last, it has spaces)."""
        return (
            f"v2 {self.game_id} {self.entries} {self.series_id} {self.number} "
            f"{self.database_id} {self.started_at}\n"
        ).encode("ascii")


def read_mark(path: Path) -> Mark | None:
    """The mark in `path`, or None when there is none or it is unreadable."""
    try:
        # `safe_input`: a FIFO in its place is refused, not waited on for ever.
        text = (read_text(path) or "").strip()
        if not text:
            return None
        if text.startswith("v2 "):
            _, game_id, entries, series_id, number, database_id, started_at = text.split(" ", 6)
            return Mark(
                int(game_id),
                started_at,
                int(entries),
                int(series_id),
                int(number),
                database_id,
            )
        game_id, entries, started_at = text.split(" ", 2)  # written by 0.1.0
        return Mark(int(game_id), started_at, int(entries))
    except (OSError, ValueError, UnicodeError):  # FileProblem is a ValueError
        return None


class ProgressFile:
    """The open progress file of a store that writes (one per data folder)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        with contextlib.suppress(OSError):
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | BINARY, 0o644)

    def write(self, mark: Mark) -> None:
        """Record `mark` (best effort; `lseek` + `write`, since Windows has no `os.pwrite`)."""
        if self._fd is None:
            return
        data = mark.line()
        with contextlib.suppress(OSError):
            os.lseek(self._fd, 0, os.SEEK_SET)
            os.write(self._fd, data)
            os.ftruncate(self._fd, len(data))

    def close(self) -> None:
        """Close the file (safe to call twice)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
