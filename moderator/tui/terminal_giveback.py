"""The terminal given back however the process ends: SIGTERM, SIGHUP, a closed pane.

Textual restores the terminal when the app exits its own way (quit, Ctrl+C). A
SIGTERM (`kill`, a logout, a service manager) or a SIGHUP (the terminal window or
tmux pane closed) ended the process where it stood: the shell came back inside
the alternate screen with mouse tracking on, every click typing escape codes.

While the app runs, those signals ask it to exit its own way, from the event
loop (`App.call_from_thread`, from a small thread: a signal handler may not
touch the loop it interrupted), so the store is closed cleanly too. Should that
not end the process within `GRACE` seconds (the terminal is gone and the
driver's writes fail), the modes are switched off by hand and the process ends.
The exit status is 128 + the signal's number, as a shell reports it.

SIGHUP is POSIX only; on Windows only SIGTERM is looked for (it has no other).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Protocol

if sys.platform != "win32":  # the terminal's line settings are POSIX's (termios)
    import termios

#: Seconds the app has to exit its own way before the terminal is reset by hand.
GRACE = 5.0
#: The signals that end the process from outside (those this platform has).
SIGNALS: tuple[signal.Signals, ...] = tuple(
    found for found in (getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP")) if found
)
#: Mouse tracking (every mode Textual may switch on), bracketed paste and focus
#: reports off, the cursor shown, and the alternate screen left.
RESET = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1016l"
    "\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[?1049l"
)


class Exitable(Protocol):
    """What of the app is needed here (a Textual `App`)."""

    def call_from_thread(self, callback: Callable[..., object], *args: object) -> object: ...

    def exit(self, result: None = None, return_code: int = 0) -> None: ...


@contextlib.contextmanager
def terminal_given_back(app: Exitable) -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP end `app` its own way (see the module)."""
    restore_tty = _tty_restorer()
    previous: dict[signal.Signals, object] = {}

    def ended(signum: int, frame: FrameType | None) -> None:
        threading.Thread(
            target=_exit_app, args=(app, signum, restore_tty), name="terminal-giveback", daemon=True
        ).start()

    for signum in SIGNALS:
        try:
            previous[signum] = signal.signal(signum, ended)
        except (ValueError, OSError):  # not the main thread: nothing to give back from here
            continue
    try:
        yield
    finally:
        for signum, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(signum, handler)  # type: ignore[arg-type]


def _exit_app(app: Exitable, signum: int, restore_tty: Callable[[], None]) -> None:
    """Ask the app to exit; if the process still runs after `GRACE`, reset and end it."""
    with contextlib.suppress(Exception):  # the loop may be gone already
        app.call_from_thread(lambda: app.exit(return_code=128 + signum))
    # The process normally ends before this wait does (the thread is a daemon).
    threading.Event().wait(GRACE)
    reset_terminal(restore_tty)
    os._exit(128 + signum)


def reset_terminal(restore_tty: Callable[[], None] = lambda: None) -> None:
    """Switch the app's terminal modes off by hand (errors ignored: the tty may be gone)."""
    with contextlib.suppress(OSError, ValueError):
        stream = sys.__stdout__
        if stream is not None:
            stream.write(RESET)
            stream.flush()
    with contextlib.suppress(Exception):
        restore_tty()


def _tty_restorer() -> Callable[[], None]:
    """A function putting the terminal's line settings back as they are now (POSIX)."""
    if sys.platform == "win32":
        return lambda: None
    stream = sys.__stdin__
    try:
        if stream is None or not stream.isatty():
            return lambda: None
        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (OSError, ValueError, termios.error):
        return lambda: None

    def restore() -> None:
        termios.tcsetattr(fd, termios.TCSANOW, saved)

    return restore
