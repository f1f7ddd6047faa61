"""End to end (tmux): a signal from outside gives the terminal back (issue 33 item 6).

SIGTERM (`kill`, a logout) and SIGHUP (the window or pane closed) ended the
process where it stood: the shell came back in the alternate screen with mouse
tracking on. tmux reports its pane's modes, so the test reads them before and
after the signal, and the exit status the shell saw.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.tui.tmux import Terminal, seat_new_series

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="POSIX signals")]

MODES = "#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag}"


def modes(term: Terminal) -> list[str]:
    """The pane's alternate screen and mouse tracking flags ("1": on)."""
    return term.run("display-message", "-p", "-t", term.target, MODES).split()


def app_pid(term: Terminal) -> int:
    """The app's process: the child of the pane's shell."""
    shell = term.run("display-message", "-p", "-t", term.target, "#{pane_pid}").strip()
    children = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True, check=True
    ).stdout.split()
    (pid,) = children
    return int(pid)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_from_outside_gives_the_terminal_back(
    terminal: tuple[Terminal, Path, Path], name: str
) -> None:
    term, _, status_file = terminal
    seat_new_series(term, ("Ann", "Bob"))  # mid-setup, the mouse on
    assert modes(term)[0] == "1" and "1" in modes(term)[1:], "the app's modes are on"
    number = getattr(signal, name)
    os.kill(app_pid(term), number)
    assert term.wait_exit(status_file) == 128 + number
    assert modes(term) == ["0", "0", "0", "0"], "alternate screen and mouse tracking are off"
