"""The per-player counters of the flat history, counted once per kind of series.

`history.player_stats` counts every seat of every series. A series' counts
depend only on its kind (`history_rows`: its games' names, points, teams and
first players), and a long history repeats few kinds (the same table plays the
same roster), so `Tally` notes how many series of each kind there are and
counts each kind once, times that number; and each kind of game once, times its
number over all the series (a history of all different series still repeats
its games). The table is the same: `stats_of`
sorts it by a total order, so the order names are met in does not matter.
"""

from __future__ import annotations

from moderator.storage import history
from moderator.storage.history import StatsTable
from moderator.storage.history_rows import Game, Series
from moderator.storage.records import PlayerStats


class Tally:
    """The complete series seen so far, by kind; their `PlayerStats` at the end."""

    def __init__(self) -> None:
        self._first: dict[tuple[int, ...], Series] = {}
        self._times: dict[tuple[int, ...], int] = {}

    def add(self, series: Series) -> None:
        """Count one more complete series."""
        kind = series[6]
        times = self._times.get(kind)
        if times is None:
            self._first[kind] = series
            self._times[kind] = 1
        else:
            self._times[kind] = times + 1

    def stats(self) -> list[PlayerStats]:
        """Every player's `PlayerStats`, best first, as `history.player_stats` counts them.

        Each kind of series is counted once, times its number; each kind of game
        (most are in several kinds of series) once, times its number over them all.
        """
        table: StatsTable = {}
        games: dict[int, Game] = {}
        game_times: dict[int, int] = {}
        for kind, series in self._first.items():
            times = self._times[kind]
            count_series(table, series, times)
            for game in series[3]:
                games.setdefault(game[9], game)
                game_times[game[9]] = game_times.get(game[9], 0) + times
        for game_kind, game in games.items():  # every seated name has its counters by now
            count_game(table, game, game_times[game_kind])
        return history.stats_of(table)


def count_series(table: StatsTable, series: Series, times: int) -> None:
    """Add `times` complete series like `series` to the series and points counters.

    A name's points over the series are its total; every seated name has a total,
    so this makes the counters of every name its games count.
    """
    _, _, _, _, totals, winners, _ = series
    for name, total in totals.items():
        stats = table.get(name)
        if stats is None:
            stats = table[name] = [0] * 7
        stats[0] += times
        stats[6] += total * times
    for name in winners:
        table[name][1] += times


def count_game(table: StatsTable, game: Game, times: int) -> None:
    """Add `times` games like `game` to the games and wins counters of its names."""
    names = game[4]
    sane_won = game[7] == "sane"
    column = 4 if sane_won else 5  # wins as Sane / as Possessed
    for seat, name in enumerate(names):
        stats = table[name]
        stats[2] += times
        if (seat in game[6]) is not sane_won:  # on the winning team
            stats[3] += times
            stats[column] += times
