"""The `mindflayer` command line as a user meets it."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from moderator.cli import main


def test_python_dash_m_moderator_shows_the_commands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "moderator", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("history", "narrate", "voices", "--data-dir", "--voice-scripts"):
        assert command in out


class _ClosedPipe(io.StringIO):
    """A stdout whose reader has gone, like `mindflayer voices | head -0`."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_leaves_early_gets_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["voices"]) == 0
    assert "Traceback" not in capsys.readouterr().err
