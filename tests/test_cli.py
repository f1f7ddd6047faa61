"""The `mindflayer` command line as a user meets it."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_moderator_shows_the_commands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "moderator", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("history", "narrate", "voices", "--data-dir", "--voice-scripts"):
        assert command in out


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    # Like `mindflayer voices | head -1`: the pipe closes after the first line.
    proc = subprocess.Popen(
        [sys.executable, "-m", "moderator", "voices"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=30)
    assert "Traceback" not in stderr
    assert proc.returncode == 0
