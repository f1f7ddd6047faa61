"""The figures behind the history's pictures, against a history counted by hand.

`hand_history` holds five series; the expected numbers below are worked out
from its table by hand (not by the code under test), series by series.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from moderator.storage import Store, history_rows
from moderator.storage import history_figures as figures_of
from moderator.storage.history_figures import Quickest, Standing, Streak, TeamWins
from moderator.storage.history_rows import Series
from tests.storage.hand_history import OTHERS, TABLE, build


@pytest.fixture
def rows(tmp_path: Path) -> list[Series]:
    build(tmp_path)
    with Store.open(tmp_path) as store:
        return list(history_rows.complete_series(store.journal))


# Ann: Sane in S1g2 S1g3 S4g1 S4g3 S5 x3 (7, all won); Possessed in S1g1 S2 x3 S4g2
# (5; won S1g1 S2g3 S4g2). Points 4 + 1 + 5 + 4. Bob: never lost a game.
# Cyd: Possessed in S1g2 and S4g1 (both lost); Sane 10 games, lost S1g1 S2g3 S4g2.
# Dee: Possessed in S1g3 S4g3 S5 x3 (all lost); Sane 7 games, won S1g2 S2g1 S2g2 S4g1.
TABLE_BOARD = [
    Standing("Ann", 14, 4, 3, 7, 7, 5, 3),
    Standing("Bob", 14, 4, 1, 9, 9, 3, 3),
    Standing("Cyd", 9, 4, 0, 10, 7, 2, 0),
    Standing("Dee", 4, 4, 0, 7, 4, 5, 0),
]


def test_the_tables_leaderboard_is_the_hand_counted_one(rows: list[Series]) -> None:
    found = figures_of.figures(figures_of.narrowed(rows, frozenset(TABLE)))
    assert (found.series, found.games) == (4, 12)
    # Ann and Bob tie on points: Ann won more series.
    assert found.leaderboard == TABLE_BOARD
    assert found.leaderboard[2].sane_rate == pytest.approx(0.7)
    assert found.leaderboard[3].possessed_rate == 0.0


def test_the_trends_are_the_hand_counted_ones(rows: list[Series]) -> None:
    everyone = figures_of.figures(rows)
    # January: P S S, S S P; February: P P S (the other table), S P S; March: S S S.
    assert everyone.by_month == [
        TeamWins("2026-01", 4, 2),
        TeamWins("2026-02", 3, 3),
        TeamWins("2026-03", 3, 0),
    ]
    assert everyone.by_players == [TeamWins("4", 9, 3), TeamWins("5", 1, 2)]
    # Ann won series 4 and 5 (she lost series 2 to Bob).
    assert everyone.streak == Streak("Ann", 2, 4, 5)
    assert everyone.quickest == Quickest(3, 2, 7 * 60, "possessed", 5)
    table = figures_of.figures(figures_of.narrowed(rows, frozenset(TABLE)))
    assert table.quickest == Quickest(4, 3, 12 * 60, "sane", 4)


def test_a_group_keeps_only_its_own_series(rows: list[Series]) -> None:
    others = figures_of.figures(figures_of.narrowed(rows, frozenset(OTHERS)))
    assert [s.name for s in others.leaderboard] == ["Fay", "Eve", "Gus", "Hal", "Ivy"]
    assert others.leaderboard[1] == Standing("Eve", 2, 1, 0, 0, 0, 3, 2)
    assert others.leaderboard[1].sane_rate is None  # never Sane: no rate, not 0%
    # Three of the table's four is no group of theirs.
    assert figures_of.narrowed(rows, frozenset(TABLE[:3])) == []
    assert figures_of.groups(rows) == [(frozenset(TABLE), 4), (frozenset(OTHERS), 1)]


def test_since_keeps_the_series_that_ended_on_or_after_the_day(rows: list[Series]) -> None:
    kept = figures_of.narrowed(rows, None, date(2026, 2, 7))
    assert [series[0] for series in kept] == [3, 4, 5]
    assert figures_of.narrowed(rows, frozenset(TABLE), date(2026, 3, 8)) == []


def test_each_order_puts_its_best_first(rows: list[Series]) -> None:
    board = figures_of.figures(rows).leaderboard

    def names(order: str) -> list[str]:
        return [s.name for s in figures_of.sorted_by(board, order)]

    assert names("points")[:4] == ["Ann", "Bob", "Cyd", "Dee"]
    assert names("series") == ["Ann", "Bob", "Fay", "Cyd", "Dee", "Eve", "Gus", "Hal", "Ivy"]
    # 100% as Sane: Bob (9 wins), Ann (7), Fay (1); Eve was never Sane: last.
    assert names("sane") == ["Bob", "Ann", "Fay", "Cyd", "Dee", "Gus", "Hal", "Ivy", "Eve"]
    assert names("possessed")[:4] == ["Bob", "Fay", "Eve", "Ann"]


def test_the_replayed_path_gives_the_same_figures(rows: list[Series], tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        records = store.history()
    assert figures_of.figures(history_rows.series_of_records(records)) == figures_of.figures(rows)
