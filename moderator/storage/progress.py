"""How far the game in progress got, kept outside SQLite to notice a damaged WAL.

SQLite reads its write-ahead log up to the first frame whose checksum fails and
silently ignores the rest, so garbage in the middle of the WAL drops every
action committed after it, and the database itself cannot tell. The store
checkpoints at each game's end, after results and at a clean exit, so only the
game in progress can live in the WAL; this small file beside the database
(`mindflayer.sqlite3.progress`) says how many log entries that game had when
its last action was acknowledged. On the next open, a game whose log ends
earlier is reported in a sentence instead of resuming silently shorter.

The file is advisory: it is rewritten in place after each commit (no fsync: a
power cut can only leave it behind the database, which is never reported), and
any error reading or writing it is ignored.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Mark:
    """The game in progress as last acknowledged: id, start time (to tell databases apart)."""

    game_id: int
    started_at: str
    entries: int

    def line(self) -> bytes:
        """The file's whole content."""
        return f"{self.game_id} {self.entries} {self.started_at}\n".encode("ascii")


def read_mark(path: Path) -> Mark | None:
    """The mark in `path`, or None when there is none or it is unreadable."""
    try:
        text = path.read_text(encoding="ascii").strip()
        game_id, entries, started_at = text.split(" ", 2)
        return Mark(int(game_id), started_at, int(entries))
    except (OSError, ValueError, UnicodeError):
        return None


class ProgressFile:
    """The open progress file of a store that writes (one per data folder)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        with contextlib.suppress(OSError):
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)

    def write(self, mark: Mark) -> None:
        """Record `mark` (best effort)."""
        if self._fd is None:
            return
        data = mark.line()
        with contextlib.suppress(OSError):
            os.pwrite(self._fd, data, 0)
            os.ftruncate(self._fd, len(data))

    def close(self) -> None:
        """Close the file (safe to call twice)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
