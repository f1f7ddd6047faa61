"""The `mindflayer` command line as a user meets it."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

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


def test_first_make_says_what_it_installs_and_lets_pip_show_progress(tmp_path: Path) -> None:
    """`make play` on a fresh clone used to install for ~24 s without printing a line."""
    root = Path(__file__).resolve().parent.parent
    for name in ("Makefile", "pyproject.toml"):
        (tmp_path / name).write_text((root / name).read_text(encoding="utf-8"), encoding="utf-8")
    dry = subprocess.run(
        ["make", "-n", "play"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    pip_lines = [line for line in dry if " -m pip install" in line]
    assert len(pip_lines) == 2
    assert not any("--quiet" in line or " -q" in line for line in pip_lines)
    first_work = next(i for i, line in enumerate(dry) if " -m venv " in line)
    assert any(line.startswith("echo ") for line in dry[:first_work]), "says what it does first"
    for pip in pip_lines:
        assert dry[dry.index(pip) - 1].startswith("echo "), "each install is announced"
