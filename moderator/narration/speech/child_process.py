"""Plumbing shared by the app's children (synthesis engines, the audio player): reads, kills.

A child runs in its own session (`start_new_session=True`), so killing its
process group ends whatever it started too, and a Ctrl-C meant for the app
never reaches it. Reads are bounded by a deadline: a hung engine costs a
timeout, never a frozen narration thread.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from typing import IO


class LineTimeout(Exception):
    """No complete line arrived before the deadline."""


class LineReader:
    """Reads whole lines from a child's pipe, each with a deadline (time.monotonic)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._buffer = b""

    @property
    def pending(self) -> bytes:
        """Bytes received after the last complete line (a dying child's last words)."""
        return self._buffer

    def read_line(self, deadline: float) -> bytes | None:
        """The next line without its newline, or None at end of file.

        Raises:
            LineTimeout: the deadline passed first.
        """
        with selectors.DefaultSelector() as selector:
            selector.register(self._stream, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise LineTimeout
                chunk = os.read(self._stream.fileno(), 65536)
                if not chunk:
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the child's whole session at once; safe from any thread."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def end_child(process: subprocess.Popen[bytes]) -> None:
    """Kill the child, close its pipes and reap it (bounded to a second)."""
    kill_group(process)
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=1.0)
