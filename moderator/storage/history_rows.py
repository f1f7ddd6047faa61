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

import functools
import json
import json.scanner
import re
from collections.abc import Iterator, Mapping
from datetime import datetime
from time import localtime
from typing import Any

from moderator.domain.rules import GAMES_PER_SERIES, winners_of
from moderator.storage.history import StatsTable
from moderator.storage.journal import Journal
from moderator.storage.scores import all_renames

#: (game id, number in its series, started UTC text, finished UTC text, names as seated
#: (as the series knows them now), points per seat, possessed seats, winning team's
#: value ("sane" / "possessed"), first player's seat).
Game = tuple[int, int, str, str, tuple[str, ...], tuple[int, ...], tuple[int, ...], str, int]
#: (series id, started UTC text, finished UTC text (its latest game's), games in
#: order, totals per name (first seen first), winners (co-winners on a tie)).
Series = tuple[int, str, str, list[Game], dict[str, int], tuple[str, ...]]

#: A row of `_GAMES` (the types are checked as the row is read).
Row = tuple[Any, ...]
_STR = {str}
#: The decoder's own scanner (C): `json.loads` adds a regex and two calls per game.
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed
#: A time as `time_to_text` writes it: UTC, whole seconds or microseconds.
_DIGITS = "[0-9][0-9]"
_SECONDS = f"{_DIGITS}{_DIGITS}-{_DIGITS}-{_DIGITS}T{_DIGITS}:{_DIGITS}:{_DIGITS}"
_UTC = (f"{_SECONDS}+00:00", f"{_SECONDS}.{_DIGITS * 3}+00:00")

_IS_UTC = "({0} GLOB ?1 OR {0} GLOB ?2)"
#: The three times in whole seconds (the app's clock) are one GLOB of the three joined
#: (?3); any other form is checked one by one. The spaces pin each time to its 25
#: characters (no other position of the pattern is a space). CASE, not OR: SQLite
#: works out both sides of an OR in a result column, and a GLOB per time was a
#: third of the query.
_TIMES_UTC = (
    "CASE WHEN s.started_at || ' ' || g.started_at || ' ' || g.finished_at GLOB ?3 THEN 1 "
    f"ELSE {_IS_UTC.format('s.started_at')} AND {_IS_UTC.format('g.started_at')} "
    f"AND {_IS_UTC.format('g.finished_at')} END"
)
#: No value is in the text: the time patterns are bound as ?1, ?2 and ?3 (`_PATTERNS`).
_GAMES = (
    "SELECT g.series_id, s.started_at, g.id, g.number, g.started_at, g.finished_at, g.score, "  # noqa: S608
    f"(SELECT max(seq) FROM log WHERE log.game_id = g.id), {_TIMES_UTC} "
    "FROM games g JOIN series s ON s.id = g.series_id "
    "WHERE g.finished_at IS NOT NULL AND g.withdrawn_at IS NULL "
)
_PATTERNS = (*_UTC, " ".join([_UTC[0]] * 3))


class NeedsReplay(Exception):
    """A game's cache or times are not as this app writes them: take the object path."""


def complete_series(journal: Journal) -> Iterator[Series]:
    """Every complete series (3 games with results), oldest first, as `Series` tuples."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.series_id, g.number", _PATTERNS)
    parsed = _Parsed()
    current: int | None = None
    started = ""
    games: list[Game] = []
    for row in rows:
        series_id = row[0]
        if series_id != current:
            if len(games) >= GAMES_PER_SERIES and current is not None:
                yield _series(current, started, games)
            current, started, games = series_id, row[1], []
        games.append(_game(row, renames.get(series_id), parsed))
    if len(games) >= GAMES_PER_SERIES and current is not None:
        yield _series(current, started, games)


def finished_games(journal: Journal) -> Iterator[Game]:
    """Every game with results, of any series, oldest first (the BG Stats plays)."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.id", _PATTERNS)
    parsed = _Parsed()
    for row in rows:
        yield _game(row, renames.get(row[0]), parsed)


def _series(series_id: int, started: str, games: list[Game]) -> Series:
    """The series tuple: its totals summed once, its winners from them."""
    names = games[0][4]
    if all(game[4] == names for game in games):  # most series: one roster, summed per seat
        sums = map(sum, zip(*[game[5] for game in games], strict=True))
        totals = dict(zip(names, sums, strict=True))
    else:
        totals = {}
        for game in games:
            for name, points in zip(game[4], game[5], strict=True):
                totals[name] = totals.get(name, 0) + points
    finished = max([game[3] for game in games])  # UTC texts of one form sort as times do
    return series_id, started, finished, games, totals, winners_of(totals, len(games))


def _game(row: Row, names: Mapping[str, str] | None, parsed: _Parsed) -> Game:
    """One game from its row; `NeedsReplay` unless its cache is exactly as written.

    The cache is cut where `score_text` puts its keys (`_CACHE`) instead of being
    decoded: its names (the same few rosters, game after game), possessed seats and
    points are each decoded once per distinct text per read (`_Parsed`). An unescaped ``"``
    cannot occur inside a JSON string, so ``],"first_player":`` ends the names.
    """
    _, _, game_id, number, started, finished, score, entries, utc = row
    if not (utc and isinstance(score, str) and score.startswith(_PLAYERS)):
        raise NeedsReplay(game_id)  # times checked by the query (`_TIMES_UTC`)
    cut = score.find(_AFTER_PLAYERS)
    rest = parsed.cache.fullmatch(score, cut) if cut > 0 else None
    roster = parsed.rosters[score[len(_PLAYERS) : cut + 1]] if rest is not None else None
    if rest is None or roster is None or type(number) is not int or type(game_id) is not int:
        raise NeedsReplay(game_id)
    first_text, winner, possessed_text, points_text, entries_text = rest.groups()
    seated, distinct = roster
    seats = len(seated)
    try:  # a number too long for `int` (a hand-edited file)
        first, logged = int(first_text), int(entries_text)
        points, possessed = parsed.ints[points_text], parsed.ints[possessed_text]
    except ValueError:
        raise NeedsReplay(game_id) from None
    if not (
        logged == entries
        and len(points) == seats
        and first < seats
        and (not possessed or max(possessed) < seats)
    ):
        raise NeedsReplay(game_id)
    if names and any(name in names for name in seated):
        seated = tuple(names.get(name, name) for name in seated)
        distinct = len(set(seated)) == seats
    if not distinct:  # the object path keys points by name: one per seat
        raise NeedsReplay(game_id)
    return game_id, number, started, finished, seated, points, possessed, winner, first


class _Rosters(dict[str, "tuple[tuple[str, ...], bool] | None"]):
    """A names array's text -> (its names, whether no two are the same); None: not names."""

    def __missing__(self, text: str) -> tuple[tuple[str, ...], bool] | None:
        try:
            players, end = _scan(text, 0)
        except (ValueError, StopIteration):
            players, end = None, -1
        found = None
        if end == len(text) and type(players) is list and set(map(type, players)) == _STR:
            found = tuple(players), len(set(players)) == len(players)
        self[text] = found
        return found


class _Ints(dict[str, tuple[int, ...]]):
    """A list of integers' text (``0,2``, checked by `_CACHE`) -> its numbers, made once."""

    def __missing__(self, text: str) -> tuple[int, ...]:
        numbers = self[text] = tuple(map(int, text.split(","))) if text else ()
        return numbers


#: The cache as `score_text` writes it (compact, keys in its order), from the end of the
#: names array on: first player, winner, possessed seats, points per seat, log length.
#: The numbers are JSON's integers (no "01", no "1.0", no "true"); seats are not negative.
_NATURAL = "(?:0|[1-9][0-9]*)"
_INTEGER = f"-?{_NATURAL}"
_CACHE = (
    rf'\],"first_player":({_NATURAL}),"winner":"(sane|possessed)",'
    rf'"possessed":\[((?:{_NATURAL}(?:,{_NATURAL})*)?)\],'
    rf'"points":\[((?:{_INTEGER}(?:,{_INTEGER})*)?)\],"entries":({_NATURAL})\}}'
)
_PLAYERS = '{"players":'
_AFTER_PLAYERS = '],"first_player":'


class _Parsed:
    """One read's decoded texts (a few rosters and lists of numbers, each checked once)."""

    def __init__(self) -> None:
        self.rosters = _Rosters()
        self.ints = _Ints()
        self.cache = _cache_pattern()


@functools.cache
def _cache_pattern() -> re.Pattern[str]:
    """`_CACHE` compiled when a history is first read (not on the app's way to its frame)."""
    return re.compile(_CACHE)


def utc_clock(text: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` of a row's time (`_UTC`): `clock_text`'s, cut, not parsed."""
    return f"{text[:10]} {text[11:19]}"


def local_clock(text: str, seconds: bool = True) -> str:
    """``YYYY-MM-DD HH:MM[:SS]`` in local time of a row's UTC text (`_TIMES_UTC`).

    `clock_text(moment, None)`'s text: the fields of `time.localtime`, which is how
    `astimezone(None)` finds the local offset, without a zone object and a datetime
    per time (20,000 games: 27,000 times in the report).
    """
    moment = localtime(datetime.fromisoformat(text).timestamp())
    if seconds:
        return "%04d-%02d-%02d %02d:%02d:%02d" % moment[:6]  # noqa: UP031  # the fastest form
    return "%04d-%02d-%02d %02d:%02d" % moment[:5]  # noqa: UP031


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
        names = game[4]
        for name in names:
            table[name][2] += 1
        won, column = _WON[game[6], game[7], len(names)]
        for seat in won:
            stats = table[names[seat]]
            stats[3] += 1
            stats[column] += 1


class _Won(dict[tuple[tuple[int, ...], str, int], tuple[tuple[int, ...], int]]):
    """(possessed seats, winning team, seats) -> (the winning team's seats, its counter)."""

    def __missing__(self, key: tuple[tuple[int, ...], str, int]) -> tuple[tuple[int, ...], int]:
        possessed, winner, seats = key
        sane_won = winner == "sane"
        won = tuple(seat for seat in range(seats) if (seat in possessed) is not sane_won)
        found = self[key] = won, 4 if sane_won else 5  # wins as Sane / as Possessed
        return found


_WON = _Won()
