"""Special files for the tests of output targets: device nodes and FIFOs in a temp folder.

A test must never point an export at the machine's real /dev/null or /dev/full:
we run as root, and a rename over them would replace them for every process.
So a device is a copy made with `mknod` inside the test's own temp folder, with
the major/minor numbers of the real one, and behaves the same.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

#: Linux's (major, minor) numbers of /dev/null and /dev/full. Plain numbers, so this
#: module imports on Windows too (`os.makedev` exists only on POSIX); a test that
#: makes a node is skipped there.
NULL_DEVICE = (1, 3)
FULL_DEVICE = (1, 7)


def make_device(folder: Path, name: str, device: tuple[int, int]) -> Path:
    """A character device node like /dev/null or /dev/full, inside `folder`."""
    if os.name != "posix":
        pytest.skip("device nodes exist only on POSIX systems")
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*device))
    except PermissionError:
        pytest.skip("mknod needs root (CI runs as root)")
    return path


def assert_same_device(path: Path, device: tuple[int, int]) -> None:
    info = os.lstat(path)
    assert stat.S_ISCHR(info.st_mode), f"{path} is no longer a device node"
    assert (os.major(info.st_rdev), os.minor(info.st_rdev)) == device


class FifoReader:
    """A FIFO in `folder`, a thread already reading it, and a writer holding it open.

    `safe_output` refuses a FIFO that nobody reads (it opens it non-blocking), so
    the reader must be open before the code under test writes. The constructor
    opens a write end of its own, blocking: that open returns only once the
    thread's read end is open, so a reader is there for sure. That writer writes
    nothing and is closed by `join`, after the code under test wrote and closed:
    only then does the thread see the end, with every byte.
    """

    def __init__(self, folder: Path, name: str = "pipe") -> None:
        self.path = folder / name
        os.mkfifo(self.path)
        self.received: list[bytes] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        self._holder: int | None = os.open(self.path, os.O_WRONLY)

    def _read(self) -> None:
        with open(self.path, "rb") as reader:
            self.received.append(reader.read())

    def join(self, timeout: float = 10) -> list[bytes]:
        """What the reader got once the writers closed (at most `timeout` seconds)."""
        if self._holder is not None:
            os.close(self._holder)
            self._holder = None
        self._thread.join(timeout)
        return self.received
