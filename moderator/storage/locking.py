"""One moderator per database: an exclusive lock file held while the store is open.

SQLite alone would let two app windows interleave actions into one game (each
sees a consistent database, but the table would see two diverging games). An
advisory `flock` on a file beside the database is released by the kernel when
the process dies, even on `kill -9`, so a crash never leaves a stale lock.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from moderator.storage.errors import DatabaseInUseError, StorageWriteError

if sys.platform == "win32":  # pragma: no cover - the app is tested on Linux
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


class DatabaseLock:
    """An exclusive lock on `path`, recording the holder's process id inside it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise `DatabaseInUseError` naming the other process."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise StorageWriteError(
                f"The score folder {self.path.parent} cannot be written "
                f"({error.strerror or error}); choose another one with --data-dir."
            ) from error
        if not _try_lock(fd):
            holder = _read_holder(fd)
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise DatabaseInUseError(
                f"Another Mind Flayer moderator{who} already has the score database in "
                f"{self.path.parent} open. Close it first, or start with another --data-dir."
            )
        # The pid is only a courtesy for the message above; the lock is what counts.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Let the next instance in (closing the descriptor drops the lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        """Whether this object currently holds the lock."""
        return self._fd is not None


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
