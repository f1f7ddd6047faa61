"""The History dialog's read (`Store.history_summary`, flat rows) says what the records say.

The varied history of `test_storage_history_rows` (renamed players carried over a
series, a withdrawn game, a series set aside with played games, an unfinished
series, co-winners, names of every script) read both ways; then each hand edit
that sends the rows to the object path, which must give the same summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from moderator.history_report.command import open_for_reading
from moderator.storage import HistorySummary, SeriesLine, SeriesRecord, Store
from moderator.storage.history import player_stats
from tests.storage.damage import edit

#: Complete series in `varied_history`: 12 random, the tie, the renames' chain.
COMPLETE = 14


def from_records(records: Sequence[SeriesRecord], newest: int) -> HistorySummary:
    """The summary as the dialog made it from `Store.history()` before (the spec)."""
    listed = list(records)[-newest:] if newest > 0 else []
    return HistorySummary(
        [SeriesLine(r.series_id, r.finished_at, r.winners, r.totals) for r in listed],
        len(records),
        player_stats(records),
    )


def read_both(data_dir: Path, newest: int) -> tuple[HistorySummary, HistorySummary]:
    reader = open_for_reading(data_dir)
    assert reader is not None
    with reader:
        return reader.history_summary(newest), from_records(reader.history(), newest)


@pytest.mark.parametrize("newest", [0, 1, 5, COMPLETE, 100])
def test_the_summary_from_rows_is_the_records_summary(
    varied_history_dir: Path, newest: int
) -> None:
    summary, expected = read_both(varied_history_dir, newest)
    assert summary == expected
    assert summary.series_count == COMPLETE
    assert len(summary.newest) == min(newest, COMPLETE)


def test_renamed_players_set_aside_and_unfinished_series_show_right(
    varied_history_dir: Path,
) -> None:
    summary, _ = read_both(varied_history_dir, 100)
    chain = summary.newest[-1]  # the renames' chain is the newest complete series
    assert set(chain.totals) == {"Ann", "Noah Bell", "Zoë", "Bob"}, "Noah's points carried over"
    assert [s.series_id for s in summary.newest] == list(range(1, COMPLETE + 1))
    stats = {line.name: line for line in summary.stats}
    assert "Noah" not in stats and "Noah B" not in stats and "Nope" not in stats
    assert stats["Noah Bell"].series_played == 1 and stats["Noah Bell"].games_played == 3
    # Dee played only in the series set aside and in the unfinished one: in no complete series.
    assert "Dee" not in stats
    tie = summary.newest[-2]
    assert tie.winners == ("Cyd", "李雷")


def test_an_empty_database_has_an_empty_summary(store: Store) -> None:
    assert store.history_summary(100) == HistorySummary([], 0, [])


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games SET score = NULL WHERE id = 2",  # replayed from its log
        "UPDATE games SET score = '{not json' WHERE id = 3",
        "UPDATE games SET finished_at = '2026-03-14 19:30:00' WHERE id = 5",
        "UPDATE games SET score = replace(score, '\"entries\":', '\"entries\": ') WHERE id = 7",
    ],
    ids=["no-cache", "bad-json", "other-time", "spaced-cache"],
)
def test_a_game_the_rows_cannot_serve_gives_the_records_summary(
    varied_history_dir: Path, sql: str
) -> None:
    edit(varied_history_dir, sql)
    summary, expected = read_both(varied_history_dir, 100)
    assert summary == expected and summary.series_count == COMPLETE
