"""`mindflayer history` run in this process on a data folder, as typed at a terminal."""

from __future__ import annotations

from pathlib import Path

from moderator.cli import build_parser
from moderator.history_report.command import run_history


def history(folder: Path, *extra: str) -> int:
    """`mindflayer --data-dir folder history *extra`; its exit status."""
    return run_history(build_parser().parse_args(["--data-dir", str(folder), "history", *extra]))
