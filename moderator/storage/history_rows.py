"""The history as flat rows: one query per output, no per-game objects.

`mindflayer history` and its exports (`flat_export`, `history_text`) read every
complete series, or every game with results, in one query, and hand the rows
straight to their writers. The object path (`Store.history`, `SeriesRecord`,
`GameScore`) builds a dataclass, two dicts, a frozenset and two datetimes per
game: at 20,000 games that, not SQLite, was most of each command's second.

A game here is a plain tuple (`Game`); its outcome comes from the score cache
(`score_cache`), taken only when it is exactly what this app writes and is
current (its `entries` equal the log's length), with times in the UTC form
`time_to_text` writes. Anything else (a hand-edited cache, a game that must be
replayed or is left out because its log cannot be rebuilt, another time
format) raises `NeedsReplay`: the caller then takes the object path, which
replays as the store always did, so both paths give the same bytes.
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Iterator, Mapping
from typing import Any

from moderator.domain.rules import GAMES_PER_SERIES, winners_of
from moderator.storage.history import StatsTable
from moderator.storage.journal import Journal
from moderator.storage.scores import all_renames

#: (game id, number in its series, started UTC text, finished UTC text, names as seated
#: (as the series knows them now), points per seat, possessed seats, winning team's
#: value ("sane" / "possessed"), first player's seat).
Game = tuple[int, int, str, str, tuple[str, ...], list[int], list[int], str, int]
#: (series id, started UTC text, finished UTC text (its latest game's), games in
#: order, totals per name (first seen first), winners (co-winners on a tie)).
Series = tuple[int, str, str, list[Game], dict[str, int], tuple[str, ...]]

#: A row of `_GAMES` (the types are checked as the row is read).
Row = tuple[Any, ...]
_WINNERS = frozenset(("sane", "possessed"))
_STR = {str}
_INT = {int}
#: The decoder's own scanner (C): `json.loads` adds a regex and two calls per game.
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed
#: A time as `time_to_text` writes it: UTC, whole seconds or microseconds.
_DIGITS = "[0-9][0-9]"
_SECONDS = f"{_DIGITS}{_DIGITS}-{_DIGITS}-{_DIGITS}T{_DIGITS}:{_DIGITS}:{_DIGITS}"
_UTC = (f"{_SECONDS}+00:00", f"{_SECONDS}.{_DIGITS * 3}+00:00")

_IS_UTC = "({0} GLOB ?1 OR {0} GLOB ?2)"
#: No value is in the text: the two time patterns are bound as ?1 and ?2.
_GAMES = (
    "SELECT g.series_id, s.started_at, g.id, g.number, g.started_at, g.finished_at, g.score, "  # noqa: S608
    "(SELECT max(seq) FROM log WHERE log.game_id = g.id), "
    f"{_IS_UTC.format('s.started_at')} AND {_IS_UTC.format('g.started_at')} "
    f"AND {_IS_UTC.format('g.finished_at')} "
    "FROM games g JOIN series s ON s.id = g.series_id "
    "WHERE g.finished_at IS NOT NULL AND g.withdrawn_at IS NULL "
)


class NeedsReplay(Exception):
    """A game's cache or times are not as this app writes them: take the object path."""


def complete_series(journal: Journal) -> Iterator[Series]:
    """Every complete series (3 games with results), oldest first, as `Series` tuples."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.series_id, g.number", _UTC)
    current: int | None = None
    started = ""
    games: list[Game] = []
    for row in rows:
        series_id = row[0]
        if series_id != current:
            if len(games) >= GAMES_PER_SERIES and current is not None:
                yield _series(current, started, games)
            current, started, games = series_id, row[1], []
        games.append(_game(row, renames.get(series_id)))
    if len(games) >= GAMES_PER_SERIES and current is not None:
        yield _series(current, started, games)


def finished_games(journal: Journal) -> Iterator[Game]:
    """Every game with results, of any series, oldest first (the BG Stats plays)."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.id", _UTC)
    for row in rows:
        yield _game(row, renames.get(row[0]))


def _series(series_id: int, started: str, games: list[Game]) -> Series:
    """The series tuple: its totals summed once, its winners from them."""
    totals: dict[str, int] = {}
    for game in games:
        for name, points in zip(game[4], game[5], strict=True):
            totals[name] = totals.get(name, 0) + points
    finished = max([game[3] for game in games])  # UTC texts of one form sort as times do
    return series_id, started, finished, games, totals, winners_of(totals, len(games))


def _game(row: Row, names: Mapping[str, str] | None) -> Game:
    """One game from its row; `NeedsReplay` unless its cache is exactly as written."""
    _, _, game_id, number, started, finished, score, entries, utc = row
    if not (utc and isinstance(score, str)):  # times checked by the query (`_UTC`)
        raise NeedsReplay(game_id)
    try:
        cache, end = _scan(score, 0)
        players = cache["players"]
        points = cache["points"]
        possessed = cache["possessed"]
        first = cache["first_player"]
        winner = cache["winner"]
        current = cache["entries"] == entries and end == len(score)
    except (ValueError, TypeError, KeyError, StopIteration):
        raise NeedsReplay(game_id) from None
    seats = len(players) if type(players) is list else -1
    if not (
        current
        and type(entries) is int
        and type(game_id) is int
        and type(number) is int
        and type(points) is list
        and type(possessed) is list
        and type(first) is int
        and winner in _WINNERS
        and len(points) == seats
        and 0 <= first < seats  # so neither list is empty
        and set(map(type, players)) == _STR
        and set(map(type, points)) == _INT  # not bool: the object path would say 1
        and (not possessed or (set(map(type, possessed)) == _INT and min(possessed) >= 0))
        and (not possessed or max(possessed) < seats)
    ):
        raise NeedsReplay(game_id)
    seated = tuple(players)
    if names and any(name in names for name in seated):
        seated = tuple(names.get(name, name) for name in seated)
    if len(set(seated)) != seats:  # the object path keys points by name: one per seat
        raise NeedsReplay(game_id)
    return game_id, number, started, finished, seated, points, possessed, winner, first


def utc_clock(text: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` of a row's time (`_UTC`): `clock_text`'s, cut, not parsed."""
    return f"{text[:10]} {text[11:19]}"


def count(table: StatsTable, series: Series) -> None:
    """Add a complete series to the per-player counters, as `history.player_stats` counts.

    A name's points over the series are its total; every seated name has a total,
    so its counters exist before its seats are counted.
    """
    _, _, _, games, totals, winners = series
    for name, total in totals.items():
        stats = table.get(name)
        if stats is None:
            stats = table[name] = [0] * 7
        stats[0] += 1
        stats[6] += total
    for name in winners:
        table[name][1] += 1
    for game in games:
        names, possessed, sane_won = game[4], game[6], game[7] == "sane"
        for seat, name in enumerate(names):
            stats = table[name]
            stats[2] += 1
            if (seat in possessed) is not sane_won:  # on the winning team
                stats[3] += 1
                stats[4 if sane_won else 5] += 1
