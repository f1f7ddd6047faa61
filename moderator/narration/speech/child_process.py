"""Plumbing shared by the app's children (synthesis engines, the audio player): start, read, kill.

Portable by construction: the only POSIX calls (a new session, killing the
process group) sit in `os.name == "posix"` branches; elsewhere a child is ended
with `Popen.kill()`. A child's pipe is read by a thread of its own, never by
`selectors` (which on Windows work on sockets only), so a read with a deadline
is a wait on a queue: a hung engine costs a timeout, never a frozen thread.

A child never outlives the app, even after `kill -9` of the app: every child
holds a pipe from the app and ends when it reaches end-of-file. The synthesis
children read their requests from that pipe; a player, which reads nothing, is
started under `LIFELINE`, a few lines of Python that end the player once the
app's end of its stdin closes (the app closing it is also how `stop()` works).
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

#: Runs `argv[1:]` and ends it when this process's stdin reaches end-of-file (the
#: app closed it, or died); exits with the child's code (128 + the signal that
#: ended it; `NOT_FOUND` when it cannot be started). It reads fd 0 raw and leaves
#: by `os._exit`: a daemon thread inside a buffered read aborts a normal exit.
#: `-I -S`: no site, no environment, so it starts fast. Kept tiny: it is source
#: text, not a module.
LIFELINE = (
    "import os, subprocess, sys, threading\n"
    "try:\n"
    "    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)\n"
    "except OSError:\n"
    "    os._exit(127)\n"
    "def watch():\n"
    "    while os.read(0, 4096):\n"
    "        pass\n"
    "    child.kill()\n"
    "threading.Thread(target=watch, daemon=True).start()\n"
    "code = child.wait()\n"
    "os._exit(code if code >= 0 else 128 - code)\n"
)


#: The same in the POSIX shell, which starts in a millisecond where Python takes
#: tens on a busy laptop (every clip pays it): the player gets /dev/null as stdin,
#: a watcher `cat` the pipe (on fd 3); at end-of-file the watcher kills the player.
SH_LIFELINE = (
    'exec 3<&0 0</dev/null; "$@" 3<&- & child=$!; '
    '{ cat <&3 >/dev/null; kill -9 "$child" 2>/dev/null; } & '
    'wait "$child"'
)
NOT_FOUND = 127


def lifeline_command(command: Sequence[str]) -> list[str]:
    """`command` run under a lifeline: the shell's on POSIX, else this interpreter's."""
    if os.name == "posix":
        return ["/bin/sh", "-c", SH_LIFELINE, "lifeline", *command]
    return [sys.executable, "-I", "-S", "-c", LIFELINE, *command]


def spawn(
    command: Sequence[str],
    *,
    stdin: int | None = subprocess.PIPE,
    stdout: int | None = subprocess.DEVNULL,
    stderr: int | None = subprocess.DEVNULL,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start a child in its own process group, so a Ctrl-C meant for the app never reaches it.

    Raises:
        OSError: the program cannot be started.
    """
    options: dict[str, Any] = {}
    if os.name == "posix":
        options["start_new_session"] = True
    else:
        options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) | getattr(
            subprocess, "CREATE_NO_WINDOW", 0
        )
    return subprocess.Popen(
        list(command),
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        close_fds=True,
        cwd=cwd,
        env=None if env is None else dict(env),
        **options,
    )


class LineTimeout(Exception):
    """No complete line arrived before the deadline."""


class LineReader:
    """Reads whole lines from a child's pipe on a thread of its own; each read has a deadline."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._buffer = b""
        self._ended = False
        threading.Thread(target=self._pump, name="mindflayer-child-pipe", daemon=True).start()

    @property
    def pending(self) -> bytes:
        """Bytes received after the last complete line (a dying child's last words)."""
        return self._buffer

    def read_line(self, deadline: float) -> bytes | None:
        """The next line without its newline, or None at end of file.

        Raises:
            LineTimeout: the deadline (time.monotonic) passed first.
        """
        if self._ended:
            return None
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise LineTimeout from None
        if line is None:
            self._ended = True
        return line

    def _pump(self) -> None:
        read = getattr(self._stream, "read1", self._stream.read)
        try:
            while True:
                chunk = read(65536)
                if not chunk:
                    break
                self._buffer += chunk
                while b"\n" in self._buffer:
                    line, _, self._buffer = self._buffer.partition(b"\n")
                    self._lines.put(line)
        except (OSError, ValueError):  # the pipe was closed under us: the child is ended
            pass
        finally:
            self._lines.put(None)


def kill_tree(process: subprocess.Popen[bytes]) -> None:
    """Kill the child (and, on POSIX, everything in its process group) at once; any thread."""
    if os.name == "posix":
        import signal

        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    else:
        with contextlib.suppress(OSError):
            process.kill()


def end_child(process: subprocess.Popen[bytes]) -> None:
    """Kill the child, close its pipes and reap it (bounded to a second)."""
    kill_tree(process)
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=1.0)
