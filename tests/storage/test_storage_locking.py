"""One moderator per database, even when the lock file is deleted (issue 15 item 4).

On Unix the lock is held on the data folder, which cannot be deleted while it
holds the database; on Windows on a byte of the lock file, which Windows does
not let anyone delete while it is open. The Windows branch runs here with a
stand-in `msvcrt` that enforces the same rule (a byte locked by one descriptor
cannot be locked by another); what Windows itself does (mandatory byte locks,
refusing to delete an open file) is not tested on this machine.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator.storage import DATABASE_NAME, DatabaseInUseError, Store, locking
from moderator.storage.locking import PID_BYTES, DatabaseLock, UnixLocking, WindowsLocking

HOLDER = textwrap.dedent(
    """
    import sys
    from moderator.storage import Store
    store = Store.open(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.read()
    """
)


@pytest.fixture
def holder(data_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process with the store open (killed at the end)."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        yield child
    finally:
        child.kill()
        child.wait()


def test_deleting_the_lock_file_does_not_let_a_second_copy_in(
    data_dir: Path, holder: subprocess.Popen[str]
) -> None:
    lock_file = data_dir / f"{DATABASE_NAME}.lock"
    with pytest.raises(DatabaseInUseError, match=f"process {holder.pid}"):
        Store.open(data_dir)
    lock_file.unlink()
    with pytest.raises(DatabaseInUseError, match="already has the score database"):
        Store.open(data_dir)
    holder.kill()
    holder.wait()
    Store.open(data_dir).close()  # the dead holder's lock went with it


def test_deleting_the_lock_file_in_the_same_process(data_dir: Path) -> None:
    with Store.open(data_dir):
        (data_dir / f"{DATABASE_NAME}.lock").unlink()
        with pytest.raises(DatabaseInUseError):
            Store.open(data_dir)
    Store.open(data_dir).close()


class StandInMsvcrt:
    """Windows' byte locks as `msvcrt.locking` gives them, over a table in memory.

    A lock belongs to the descriptor that took it; another descriptor of the same
    file cannot lock the same byte (`LK_NBLCK` raises at once, like Windows'
    `EACCES`), and only its owner can unlock it.
    """

    LK_NBLCK = 2
    LK_UNLCK = 0

    def __init__(self) -> None:
        self.held: dict[tuple[int, int, int], int] = {}
        self.calls: list[tuple[int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int, /) -> None:
        info = os.fstat(fd)
        position = os.lseek(fd, 0, os.SEEK_CUR)
        assert nbytes == 1
        key = (info.st_dev, info.st_ino, position)
        self.calls.append((mode, position))
        if mode == self.LK_NBLCK:
            if key in self.held and self.held[key] != fd:
                raise PermissionError(errno.EACCES, "Permission denied")
            self.held[key] = fd
        elif mode == self.LK_UNLCK:
            if self.held.get(key) != fd:
                raise PermissionError(errno.EACCES, "Permission denied")
            del self.held[key]


def test_windows_branch_refuses_a_second_copy_and_names_the_process(data_dir: Path) -> None:
    data_dir.mkdir()
    msvcrt = StandInMsvcrt()
    path = data_dir / f"{DATABASE_NAME}.lock"
    first = DatabaseLock(path, WindowsLocking(msvcrt))
    first.acquire()
    # The locked byte follows the process id: a second copy can read the id.
    assert msvcrt.calls == [(msvcrt.LK_NBLCK, PID_BYTES)]
    assert path.read_bytes()[:PID_BYTES].strip() == str(os.getpid()).encode()
    second = DatabaseLock(path, WindowsLocking(msvcrt))
    with pytest.raises(DatabaseInUseError, match=f"process {os.getpid()}"):
        second.acquire()
    assert not second.held
    first.release()
    assert msvcrt.held == {}, "unlocked before closing"
    second.acquire()
    second.release()


def test_windows_branch_runs_the_whole_store(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    msvcrt = StandInMsvcrt()
    monkeypatch.setattr(locking, "platform_locking", lambda: WindowsLocking(msvcrt))
    with Store.open(data_dir), pytest.raises(DatabaseInUseError, match=f"process {os.getpid()}"):
        Store.open(data_dir)
    Store.open(data_dir).close()


class FolderRefusingFcntl:
    """`fcntl` on a file system that cannot lock a folder (flock on it gives EBADF)."""

    def __init__(self) -> None:
        import fcntl

        self._fcntl = fcntl
        self.LOCK_EX, self.LOCK_NB, self.LOCK_UN = fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.LOCK_UN

    def flock(self, fd: int, operation: int, /) -> None:
        if _is_dir(fd):
            raise OSError(errno.EBADF, "Bad file descriptor")
        self._fcntl.flock(fd, operation)


def _is_dir(fd: int) -> bool:
    import stat

    return stat.S_ISDIR(os.fstat(fd).st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="the Unix branch")
def test_unix_branch_falls_back_to_the_lock_file(data_dir: Path) -> None:
    data_dir.mkdir()
    path = data_dir / f"{DATABASE_NAME}.lock"
    first = DatabaseLock(path, UnixLocking(FolderRefusingFcntl()))
    first.acquire()
    with pytest.raises(DatabaseInUseError, match=f"process {os.getpid()}"):
        DatabaseLock(path, UnixLocking(FolderRefusingFcntl())).acquire()
    first.release()
    again = DatabaseLock(path, UnixLocking(FolderRefusingFcntl()))
    again.acquire()
    again.release()


POSIX_ONLY = {"os.pread", "os.pwrite", "os.killpg", "os.setsid", "os.fork", "signal.SIGKILL"}
PLATFORM_MODULES = {"fcntl", "msvcrt", "termios", "winreg"}


def _platform_test(node: object) -> bool:
    import ast

    return isinstance(node, ast.If) and any(
        isinstance(part, ast.Attribute) and part.attr in ("platform", "name")
        for part in ast.walk(node.test)
    )


def test_storage_uses_no_platform_only_call_outside_a_platform_branch() -> None:
    """`os.pread` crashed a second copy on Windows: the storage layer is checked for all."""
    import ast

    import moderator.storage

    found = []
    for source in sorted(Path(moderator.storage.__file__).parent.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                name = f"{node.value.id}.{node.attr}"
                if name not in POSIX_ONLY:
                    continue
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                )
                name = next((n for n in names if n in PLATFORM_MODULES), "")
                if not name:
                    continue
            else:
                continue
            up = parents.get(node)
            while up is not None and not _platform_test(up):
                up = parents.get(up)
            if up is None:
                found.append(f"{source.name}:{node.lineno}: {name}")
    assert found == []
