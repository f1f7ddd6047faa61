"""One moderator per database: an exclusive lock held while the store is open.

SQLite alone would let two app windows interleave actions into one game (each
sees a consistent database, but the table would see two diverging games). The
lock must hold on something that cannot be deleted out from under it, and the
operating system must drop it when the process dies (even on `kill -9`), so a
crash never leaves a stale lock. One class does it on every platform; only the
primitive that holds the lock differs:

- Unix (Linux, macOS): `flock` on the data folder itself. A folder that holds the
  database cannot be removed while it is in use, and deleting the lock file (or
  any file in it) does not let a second copy in. Where a file system refuses
  `flock` on a folder, the lock file is locked instead (the old way).
- Windows: `msvcrt.locking` on one byte of the lock file, past the process id
  written at its start. Windows refuses to delete a file that a process has open
  (Python opens files without `FILE_SHARE_DELETE`), so the lock file itself
  cannot be deleted while the app runs.

The lock file `mindflayer.sqlite3.lock` always holds the holder's process id, so
the refusal can say which process has the database; the id is a courtesy, the
lock is what counts.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from pathlib import Path
from typing import Protocol

from moderator.domain.worded import N_
from moderator.storage.errors import DatabaseInUseError, StorageWriteError

#: Windows opens in text mode unless told (it would turn each \n into \r\n).
BINARY = getattr(os, "O_BINARY", 0)
#: The process id is written in the first bytes of the lock file; the byte after
#: them is the one Windows locks (its byte locks are mandatory: a locked byte
#: cannot even be read by another process).
PID_BYTES = 32
#: How long a second moderator waits for a holder that is exiting (see `_hold_patiently`).
HOLDER_EXIT_WAIT = 3.0


class LockPrimitive(Protocol):
    """How one platform holds an exclusive, crash-released lock for a data folder."""

    def hold(self, folder: Path, lock_fd: int) -> int | None:
        """Take the lock (never waiting); return a descriptor to release, None if held."""
        ...

    def release(self, held_fd: int, lock_fd: int) -> None:
        """Drop the lock taken by `hold` (and close what `hold` opened)."""
        ...


class MsvcrtModule(Protocol):
    """The part of Windows' `msvcrt` used here (a stand-in can play it in tests)."""

    LK_NBLCK: int
    LK_UNLCK: int

    def locking(self, fd: int, mode: int, nbytes: int, /) -> None: ...


class FcntlModule(Protocol):
    """The part of Unix' `fcntl` used here."""

    LOCK_EX: int
    LOCK_NB: int
    LOCK_UN: int

    def flock(self, fd: int, operation: int, /) -> None: ...


class WindowsLocking:
    """A mandatory lock on the byte after the process id in the (undeletable) lock file."""

    def __init__(self, msvcrt: MsvcrtModule) -> None:
        self._msvcrt = msvcrt

    def hold(self, folder: Path, lock_fd: int) -> int | None:
        """Lock one byte of the lock file; it stays open (so undeletable) until release."""
        os.lseek(lock_fd, PID_BYTES, os.SEEK_SET)
        try:
            self._msvcrt.locking(lock_fd, self._msvcrt.LK_NBLCK, 1)
        except OSError:
            return None
        return lock_fd

    def release(self, held_fd: int, lock_fd: int) -> None:
        """Unlock before closing: Windows may release a closed file's locks late."""
        with contextlib.suppress(OSError):
            os.lseek(lock_fd, PID_BYTES, os.SEEK_SET)
            self._msvcrt.locking(lock_fd, self._msvcrt.LK_UNLCK, 1)


class UnixLocking:
    """`flock` on the data folder; on the lock file where the folder refuses it."""

    #: A file system that cannot `flock` a folder says so with one of these.
    UNSUPPORTED = frozenset(
        getattr(errno, name)
        for name in ("EBADF", "EINVAL", "ENOLCK", "EOPNOTSUPP")
        if hasattr(errno, name)
    )

    def __init__(self, fcntl: FcntlModule) -> None:
        self._fcntl = fcntl

    def hold(self, folder: Path, lock_fd: int) -> int | None:
        """Lock the folder (a descriptor of its own), or the lock file as a fallback."""
        try:
            folder_fd = os.open(folder, os.O_RDONLY)
        except OSError:
            folder_fd = None
        if folder_fd is not None:
            try:
                self._fcntl.flock(folder_fd, self._fcntl.LOCK_EX | self._fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(folder_fd)
                return None
            except OSError as error:
                os.close(folder_fd)
                if error.errno not in self.UNSUPPORTED:
                    raise
            else:
                return folder_fd
        try:
            self._fcntl.flock(lock_fd, self._fcntl.LOCK_EX | self._fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        return lock_fd

    def release(self, held_fd: int, lock_fd: int) -> None:
        """Close the folder's descriptor (closing drops the lock; the file's closes later)."""
        if held_fd != lock_fd:
            os.close(held_fd)


def platform_locking() -> LockPrimitive:
    """The lock primitive of the platform this runs on."""
    if sys.platform == "win32":
        import msvcrt

        return WindowsLocking(msvcrt)
    else:
        import fcntl

        return UnixLocking(fcntl)


class DatabaseLock:
    """An exclusive lock for the database in `path.parent`, naming its holder in `path`."""

    def __init__(self, path: Path, primitive: LockPrimitive | None = None) -> None:
        self.path = path
        self._primitive = primitive if primitive is not None else platform_locking()
        self._fd: int | None = None
        self._held: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise `DatabaseInUseError` naming the other process."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | BINARY, 0o644)
        except OSError as error:
            raise StorageWriteError(
                N_(
                    "The score folder {folder} cannot be written "
                    "({error}); choose another one with --data-dir."
                ),
                folder=self.path.parent,
                error=str(error.strerror or error),
            ) from error
        try:
            held = self._hold_patiently(fd)
        except OSError as error:
            os.close(fd)
            raise StorageWriteError(
                N_(
                    "The score folder {folder} cannot be locked "
                    "({error}); choose another one with --data-dir."
                ),
                folder=self.path.parent,
                error=str(error.strerror or error),
            ) from error
        if held is None:
            holder = _read_holder(fd)
            os.close(fd)
            if holder:
                raise DatabaseInUseError(
                    N_(
                        "Another Mind Flayer moderator (process {process}) already has the "
                        "score database in {folder} open. Close it first, or start with "
                        "another --data-dir."
                    ),
                    process=holder,
                    folder=self.path.parent,
                )
            raise DatabaseInUseError(
                N_(
                    "Another Mind Flayer moderator already has the score database in "
                    "{folder} open. Close it first, or start with another --data-dir."
                ),
                folder=self.path.parent,
            )
        # Padded, never truncated: on Windows the locked byte follows the id.
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()}\n".ljust(PID_BYTES).encode("ascii"))
        self._fd, self._held = fd, held

    def _hold_patiently(self, fd: int) -> int | None:
        """Take the lock, waiting up to `HOLDER_EXIT_WAIT` for a holder that is ending.

        A moderator whose terminal was closed (SIGHUP) or that was told to stop (SIGTERM)
        saves, gives the terminal back and exits: for that moment it still holds the lock,
        and an app started again at once (a pane respawned, a window reopened) met "another
        moderator has it open" although none would a moment later.
        """
        deadline = time.monotonic() + HOLDER_EXIT_WAIT
        while True:
            held = self._primitive.hold(self.path.parent, fd)
            if held is not None or time.monotonic() >= deadline:
                return held
            time.sleep(0.05)

    def release(self) -> None:
        """Let the next instance in."""
        if self._fd is not None and self._held is not None:
            self._primitive.release(self._held, self._fd)
            os.close(self._fd)
            self._fd = self._held = None

    @property
    def held(self) -> bool:
        """Whether this object currently holds the lock."""
        return self._fd is not None


def _read_holder(fd: int) -> str:
    """The process id the holder wrote (portable: no `os.pread`, absent on Windows)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, PID_BYTES).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
