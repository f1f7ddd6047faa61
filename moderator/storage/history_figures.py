"""The table's leaderboard and trends: pure figures over the history's flat rows.

What the History dialog, the series board, the phone board and
`mindflayer history --summary` draw as pictures. Every figure is counted here
from `history_rows.Series` tuples (one per complete series, oldest first), with
no I/O and no UI, so each picture and the command line show the same numbers
and a test can check them against a history counted by hand.

Only what the log holds is used: names, points, who was Possessed at the end
(the results), which team won, when each game started and ended. A *group* is
the set of names that played a series: narrowing to a group keeps the series
whose players are exactly that set, so two tables sharing a laptop stay apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from moderator.storage.history_rows import Series

#: The orders the leaderboard can be sorted in (a key cycles through them).
SORTS = ("points", "series", "sane", "possessed")


@dataclass(frozen=True)
class Standing:
    """One player's line of the leaderboard."""

    name: str
    points: int
    series_played: int
    series_won: int
    games_as_sane: int
    wins_as_sane: int
    games_as_possessed: int
    wins_as_possessed: int

    @property
    def sane_rate(self) -> float | None:
        """Games won as Sane over games played as Sane (None: never Sane)."""
        return self.wins_as_sane / self.games_as_sane if self.games_as_sane else None

    @property
    def possessed_rate(self) -> float | None:
        """Games won as Possessed over games played as Possessed (None: never Possessed)."""
        if not self.games_as_possessed:
            return None
        return self.wins_as_possessed / self.games_as_possessed


@dataclass(frozen=True)
class TeamWins:
    """Games won by each team in one slice of the history (a month, a player count)."""

    label: str
    sane: int
    possessed: int


@dataclass(frozen=True)
class Streak:
    """The most complete series one player won in a row (of the series they played)."""

    name: str
    length: int
    #: The first and last series of the streak (their ids).
    first_series: int
    last_series: int


@dataclass(frozen=True)
class Quickest:
    """The game that ended earliest after its start: from its first log entry to its results."""

    series_id: int
    number: int
    seconds: int
    #: The winning team's value ("sane" / "possessed").
    winner: str
    players: int


@dataclass(frozen=True)
class Figures:
    """Everything the pictures draw, for one narrowing of the history."""

    series: int
    games: int
    #: Best first by points (then series won, then name); see `sorted_by`.
    leaderboard: list[Standing]
    #: Wins by team per month (UTC, "2026-03"), oldest first.
    by_month: list[TeamWins]
    #: Wins by team per number of players ("4" ... "10"), fewest first.
    by_players: list[TeamWins]
    streak: Streak | None
    quickest: Quickest | None


def group_of(series: Series) -> frozenset[str]:
    """The names that played `series` (any of its games)."""
    return frozenset(series[4])


def narrowed(
    rows: Iterable[Series], group: frozenset[str] | None = None, since: date | None = None
) -> list[Series]:
    """The series played by exactly `group` (None: anyone) that ended on or after `since`.

    `since` is compared with the series' end in UTC (the log's time).
    """
    start = since.isoformat() if since is not None else ""
    return [
        series
        for series in rows
        if (group is None or frozenset(series[4]) == group) and series[2][:10] >= start
    ]


def groups(rows: Iterable[Series]) -> list[tuple[frozenset[str], int]]:
    """Every group in the history with its number of series: most series first."""
    counts: dict[frozenset[str], int] = {}
    for series in rows:
        key = frozenset(series[4])
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], sorted(item[0])))


def figures(rows: Sequence[Series]) -> Figures:
    """The leaderboard and the trends of `rows` (complete series, oldest first).

    A long history repeats itself (`history_rows`: kinds of series and of games),
    so the leaderboard's counters are added once per kind of series and once per
    kind of game, times how often each occurs; what depends on each series' own
    times (months, streaks, the quickest game) is counted series by series.
    """
    series_kinds: dict[tuple[int, ...], list[Any]] = {}  # kind -> [count, a series of it]
    months: dict[str, list[int]] = {}
    runs: dict[str, tuple[int, int]] = {}  # name -> (current run, its first series)
    best: Streak | None = None
    quickest: Quickest | None = None
    quickest_key: tuple[int, int] | None = None
    parse = datetime.fromisoformat  # the rows' UTC texts, as `time_to_text` writes them
    for series in rows:
        series_id, _, finished, played, totals, winners, kind = series
        seen = series_kinds.get(kind)
        if seen is None:
            series_kinds[kind] = [1, series]
        else:
            seen[0] += 1
        for name in totals:
            if name in winners:
                run, first = runs.get(name, (0, series_id))
                run, first = (run + 1, first) if run else (1, series_id)
                runs[name] = (run, first)
                if best is None or run > best.length:
                    best = Streak(name, run, first, series_id)
            else:
                runs[name] = (0, series_id)
        month = months.setdefault(finished[:7], [0, 0])
        for game in played:
            month[0 if game[7] == "sane" else 1] += 1
            seconds = int((parse(game[3]) - parse(game[2])).total_seconds())
            key = (seconds, len(game[4]))
            if quickest_key is None or key < quickest_key:
                quickest_key = key
                quickest = Quickest(series_id, game[1], seconds, game[7], len(game[4]))
    table: dict[str, list[int]] = {}
    sizes: dict[int, list[int]] = {}
    game_kinds: dict[int, list[Any]] = {}  # game kind -> [count, a game of it]
    games = 0
    for times, series in series_kinds.values():
        for name, total in series[4].items():
            line = table.get(name)
            if line is None:
                line = table[name] = [0] * 7
            line[0] += total * times
            line[1] += times
            if name in series[5]:
                line[2] += times
        for game in series[3]:
            seen = game_kinds.get(game[9])
            if seen is None:
                game_kinds[game[9]] = [times, game]
            else:
                seen[0] += times
    for times, game in game_kinds.values():
        games += times
        names, possessed, sane_won = game[4], game[6], game[7] == "sane"
        size = sizes.setdefault(len(names), [0, 0])
        size[0 if sane_won else 1] += times
        for seat, name in enumerate(names):
            line = table[name]
            is_possessed = seat in possessed
            line[5 if is_possessed else 3] += times
            if is_possessed is not sane_won:
                line[6 if is_possessed else 4] += times
    board = [
        Standing(name, points, played, won, sane, sane_won, possessed, possessed_won)
        for name, (points, played, won, sane, sane_won, possessed, possessed_won) in table.items()
    ]
    return Figures(
        series=len(rows),
        games=games,
        leaderboard=sorted_by(board, "points"),
        by_month=[TeamWins(label, *wins) for label, wins in sorted(months.items())],
        by_players=[TeamWins(str(size), *wins) for size, wins in sorted(sizes.items())],
        streak=best,
        quickest=quickest,
    )


def sorted_by(board: Iterable[Standing], order: str) -> list[Standing]:
    """The leaderboard in one of `SORTS`' orders, best first; ties by points, then name.

    A rate a player never had (never Sane, never Possessed) sorts after every rate.
    """

    def tie(s: Standing) -> tuple[int, int, str, str]:
        return (-s.points, -s.series_won, s.name.casefold(), s.name)

    if order == "series":
        return sorted(board, key=lambda s: (-s.series_won, *tie(s)))
    if order == "sane":
        return sorted(board, key=lambda s: (-(s.sane_rate or -1.0), -s.wins_as_sane, *tie(s)))
    if order == "possessed":
        return sorted(
            board, key=lambda s: (-(s.possessed_rate or -1.0), -s.wins_as_possessed, *tie(s))
        )
    if order == "points":
        return sorted(board, key=tie)
    raise ValueError(f"unknown order {order!r}")


@dataclass(frozen=True)
class Narrowing:
    """Which series a history shows: of one group (None: anyone), ended since a day."""

    group: frozenset[str] | None = None
    since: date | None = None

    @property
    def narrows(self) -> bool:
        """Whether any series can be left out."""
        return self.group is not None or self.since is not None

    def rows(self, rows: Iterable[Series]) -> list[Series]:
        """The flat rows it keeps."""
        return narrowed(rows, self.group, self.since)
