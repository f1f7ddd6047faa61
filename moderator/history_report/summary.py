"""`mindflayer history --summary`: the leaderboard and the trends, with no per-series wall.

The options that narrow the history (`--since DATE`, `--group NAME ...`) are
read here into a `Narrowing`; the summary's numbers are `history_figures`', its
text `history_report.charts`' (the same drawing as the History dialog's), fitted to
the terminal's width.
"""

from __future__ import annotations

import argparse
import shutil
from datetime import date

from moderator.history_report import charts
from moderator.i18n import N_, _
from moderator.storage import history_figures, history_rows
from moderator.storage.history_figures import Narrowing
from moderator.storage.history_rows import NeedsReplay, Series
from moderator.storage.store import Store

#: Why `--summary`, `--since` and `--group` refuse an export (a msgid): the exports
#: stay the whole history, in their documented formats.
NOT_EXPORTS = N_(
    "--summary, --since and --group narrow what is printed; the exports (--csv, --json, "
    "--bgstats) always hold the whole history."
)
#: The summary's width when the terminal's is unknown or very wide.
_WIDEST = 100


def since_date(text: str) -> date:
    """`--since`'s value: a day written YYYY-MM-DD (argparse says what was wrong)."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-03-01.").format(text=text)
        ) from None


def narrowing(args: argparse.Namespace) -> Narrowing:
    """What `--group` and `--since` ask for (neither: the whole history)."""
    names = getattr(args, "group", None)
    return Narrowing(frozenset(names) if names else None, getattr(args, "since", None))


def summary_text(store: Store | None, wanted: Narrowing, order: str = "points") -> str:
    """The summary of the history `wanted` keeps, as the command prints it."""
    rows = wanted.rows(_all_rows(store)) if store is not None else []
    figures = history_figures.figures(rows)
    cells = min(_WIDEST, shutil.get_terminal_size((_WIDEST, 24)).columns)
    return charts.summary(figures, wanted.group, cells, order) + "\n"


def _all_rows(store: Store) -> list[Series]:
    """Every complete series as flat rows (replayed through the store if a game needs it)."""
    try:
        return list(history_rows.complete_series(store.journal))
    except NeedsReplay:
        return history_rows.series_of_records(store.history())
