"""What the History dialog shows: the newest complete series and every player's record.

Read from the flat rows (`history_rows`, one query, no `GameScore` per game) as
the command line's history is: at 20,000 games the records took the dialog's
worker seconds. Only the newest series the dialog lists become objects; every
series is counted in the players' table. A game the rows cannot serve
(`NeedsReplay`: a hand-edited cache, a log to replay) sends the whole read
through the store's records, as the command does, so both give the same lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from moderator.storage import history, history_rows
from moderator.storage.history_rows import NeedsReplay, Series
from moderator.storage.history_tally import Tally
from moderator.storage.journal import Journal
from moderator.storage.records import PlayerStats, SeriesRecord, time_from_text


@dataclass(frozen=True)
class SeriesLine:
    """A complete series as the dialog lists it: when it ended, who won, everyone's total."""

    series_id: int
    finished_at: datetime
    winners: tuple[str, ...]
    #: Points per player over the series (names as they are now, first seen first).
    totals: Mapping[str, int]


@dataclass(frozen=True)
class HistorySummary:
    """The newest complete series (oldest of them first), how many there are, the stats."""

    newest: list[SeriesLine]
    #: Every complete series, listed or not.
    series_count: int
    #: Per-player totals over every complete series, best first.
    stats: list[PlayerStats]
    #: Every complete series as flat rows, oldest first (the figures' input:
    #: `history_figures`). Not compared: the rows path and the records path give the
    #: same series, but a replayed game has no kind.
    rows: list[Series] = field(default_factory=list, compare=False)


def summary(
    journal: Journal, newest: int, records: Callable[[], Sequence[SeriesRecord]]
) -> HistorySummary:
    """The summary from flat rows; from `records()` (the store's history) if a game needs it."""
    try:
        return _from_rows(journal, newest)
    except NeedsReplay:
        found = records()
        return HistorySummary(
            [_line(record) for record in found[-newest:]] if newest > 0 else [],
            len(found),
            history.player_stats(found),
            history_rows.series_of_records(found),
        )


def _from_rows(journal: Journal, newest: int) -> HistorySummary:
    tally = Tally()
    rows = list(history_rows.complete_series(journal))
    for series in rows:
        tally.add(series)
    kept = rows[-newest:] if newest > 0 else []
    count = len(rows)
    lines = [
        SeriesLine(series_id, time_from_text(finished), winners, totals)
        for series_id, _, finished, _, totals, winners, _ in kept
    ]
    return HistorySummary(lines, count, tally.stats(), rows)


def _line(record: SeriesRecord) -> SeriesLine:
    return SeriesLine(record.series_id, record.finished_at, record.winners, record.totals)
