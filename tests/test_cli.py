"""The `mindflayer` command line as a user meets it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from moderator.cli import main
from tests.device_nodes import FULL_DEVICE, assert_same_device, make_device


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


def run_command(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    """`python -m moderator ARGS` in a child, as a user runs it (at most a minute)."""
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "moderator", *args],
        text=True,
        timeout=60,
        check=False,
        **options,
    )


def test_history_into_a_full_device_is_one_sentence(tmp_path: Path) -> None:
    """`history > /dev/full` printed an OSError traceback (here a mknod copy of it)."""
    full = make_device(tmp_path, "full", FULL_DEVICE)
    with full.open("w") as stdout:
        done = run_command(
            "--data-dir", str(tmp_path / "data"), "history", stdout=stdout, stderr=subprocess.PIPE
        )
    assert done.returncode == 1
    assert done.stderr == (
        "mindflayer history: Could not write to standard output (No space left on device).\n"
    )
    assert_same_device(full, FULL_DEVICE)


@pytest.mark.skipif(os.name != "posix", reason="closes fd 1 with a POSIX shell")
@pytest.mark.parametrize(
    "command",
    [("history", "--csv", "-"), ("history",), ("narrate", "setup", "--players", "4", "--wav", "-")],
)
def test_writing_to_a_closed_standard_output_is_one_sentence(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """With fd 1 closed Python has no sys.stdout: AttributeError (or silence) before."""
    closing = ["sh", "-c", 'exec "$@" >&-', "sh"]
    done = subprocess.run(
        [
            *closing,
            sys.executable,
            "-m",
            "moderator",
            "--data-dir",
            str(tmp_path / "data"),
            *command,
        ],
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "Could not write to standard output: it is closed. Nothing was written." in done.stderr


@pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
def test_history_export_into_a_fifo_nobody_reads_says_so(tmp_path: Path) -> None:
    """It blocked forever in open(); the child's time limit only ends a failing test."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = run_command(
        "--data-dir", str(tmp_path / "data"), "history", "--csv", str(fifo), capture_output=True
    )
    assert done.returncode == 1
    assert "it is a FIFO (named pipe) and nobody is reading it" in done.stderr


def test_the_app_without_a_terminal_says_so_and_exits_2(tmp_path: Path) -> None:
    """Without a terminal it drew into a pipe and waited for keys forever."""
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    done = run_command(
        "--data-dir",
        str(tmp_path / "data"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("mindflayer: the moderator needs a terminal")
    assert not (tmp_path / "data").exists(), "nothing was opened or created"
