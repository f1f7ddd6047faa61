"""The history as flat rows: one query per output, no per-game objects.

`mindflayer history` and its exports (`flat_export`, `history_report.text`) read every
complete series, or every game with results, in one query, and hand the rows
straight to their writers. The object path (`Store.history`, `SeriesRecord`,
`GameScore`) builds a dataclass, two dicts, a frozenset and two datetimes per
game: at 20,000 games that, not SQLite, was most of each command's second.

A game here is a plain tuple (`Game`); its outcome comes from the score cache
(`score_cache`), taken only when it is exactly what this app writes and is
current (its `entries` equal the log's length), with times in the UTC form
`time_to_text` writes. Anything else (a hand-edited cache, a game that must be
replayed or is left out because its log cannot be rebuilt, another time
format) raises `NeedsReplay`: the caller then reads the store's records, which
replay as the store always did, and hands them to the same writers as tuples.

When a game needs a replay, the store's records (`Store.history`,
`Store.finished_games`) are turned into the same tuples (`series_of_records`,
`game_of_score`), each game its own kind: the writers then have one route
whichever way the history was read.

A long history repeats itself (the same table, the same roster, scores of a
few values): each distinct cache text is cut once per read (`score_parts`),
each distinct outcome as shown gets a number, its kind, and a series' kind is
its games' kinds, whose totals and winners are summed once. The writers make
a kind's text once and fill in each game's or series' ids and times.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from moderator.domain.rules import GAMES_PER_SERIES, winners_of
from moderator.storage.journal import Journal
from moderator.storage.records import GameScore, SeriesRecord, time_to_text
from moderator.storage.score_parts import Scores
from moderator.storage.scores import all_renames

#: (game id, number in its series, started UTC text, finished UTC text, names as seated
#: (as the series knows them now), points per seat, possessed seats, winning team's
#: value ("sane" / "possessed"), first player's seat, kind). `kind` numbers the game's
#: outcome as shown (names, points, teams, first player, number) within one read: two
#: games of the same kind give the same cells, so the writers make them once.
Game = tuple[int, int, str, str, tuple[str, ...], tuple[int, ...], tuple[int, ...], str, int, int]
#: (series id, started UTC text, finished UTC text (its latest game's), games in
#: order, totals per name (first seen first), winners (co-winners on a tie), kind (its
#: games' kinds): the totals and winners of a kind are summed once and shared, read-only.
Series = tuple[int, str, str, list[Game], dict[str, int], tuple[str, ...], tuple[int, ...]]

#: A row of `_GAMES` (the types are checked as the row is read).
Row = tuple[Any, ...]
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
    """A game's cache or times are not as this app writes them: read the store's records."""


def complete_series(journal: Journal) -> Iterator[Series]:
    """Every complete series (3 games with results), oldest first, as `Series` tuples."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.series_id, g.number", _PATTERNS)
    read = _Read()
    current: int | None = None
    started = ""
    games: list[Game] = []
    for row in rows:
        series_id = row[0]
        if series_id != current:
            if len(games) >= GAMES_PER_SERIES and current is not None:
                yield read.series(current, started, games)
            current, started, games = series_id, row[1], []
        games.append(read.game(row, renames.get(series_id)))
    if len(games) >= GAMES_PER_SERIES and current is not None:
        yield read.series(current, started, games)


def finished_games(journal: Journal) -> Iterator[Game]:
    """Every game with results, of any series, oldest first (the BG Stats plays)."""
    renames = all_renames(journal)
    rows: list[Row] = journal.query(_GAMES + "ORDER BY g.id", _PATTERNS)
    read = _Read()
    for row in rows:
        yield read.game(row, renames.get(row[0]))


def series_of_records(records: Iterable[SeriesRecord]) -> list[Series]:
    """The store's records as `Series` tuples (the path taken when a game had to be replayed).

    Each game is its own kind (`game_of_score`), so the writers' per-kind texts are
    never shared between two of them.
    """
    rows: list[Series] = []
    kinds = 0
    for record in records:
        games = [game_of_score(game, kinds + index) for index, game in enumerate(record.games)]
        kinds += len(games)
        rows.append(
            (
                record.series_id,
                time_to_text(record.started_at),
                time_to_text(record.finished_at),
                games,
                dict(record.totals),
                tuple(record.winners),
                tuple([game[9] for game in games]),
            )
        )
    return rows


def game_of_score(game: GameScore, kind: int) -> Game:
    """A game with results from the store (`GameScore`) as a `Game` tuple of kind `kind`.

    `kind` numbers it apart from every other game handed to the same writer.
    The store's games always have a start and a first player (a NOT NULL column,
    the log's `GameStarted`); a `GameScore` read back from an old export may
    not: its start is taken to be its end and no seat is the first player's.
    """
    seats = {name: seat for seat, name in enumerate(game.players)}
    return (
        game.game_id,
        game.number,
        time_to_text(game.started_at or game.finished_at),
        time_to_text(game.finished_at),
        tuple(game.players),
        tuple([game.points[name] for name in game.players]),
        tuple(sorted([seats[name] for name in game.possessed])),
        game.winner.value,
        -1 if game.first_player is None else seats[game.first_player],
        kind,
    )


#: A game's outcome as shown: names, points, possessed seats, winner, first, kind, and the
#: log length its cache was written at.
_Shown = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], str, int, int, int]


class _Read:
    """One read's memos: each cache text's parts, each kind, each series kind's totals."""

    def __init__(self) -> None:
        self.scores = Scores()
        #: (cache text, game number) -> the game as shown; (cache text, game number, names
        #: as shown) for a game whose names the series' renames change. The same key is
        #: the same outcome, so each key is a kind (a game's kind: its number among them).
        self.shown: dict[tuple[object, ...], _Shown] = {}
        self.outcomes: dict[tuple[int, ...], tuple[dict[str, int], tuple[str, ...]]] = {}

    def game(self, row: Row, names: Mapping[str, str] | None) -> Game:
        """One game from its row; `NeedsReplay` unless its cache is exactly as written."""
        _, _, game_id, number, started, finished, score, entries, utc = row
        if not utc or type(score) is not str or type(number) is not int or type(game_id) is not int:
            raise NeedsReplay(game_id)  # times checked by the query (`_TIMES_UTC`)
        shown = None if names else self.shown.get((score, number))
        if shown is None:
            shown = self._show(game_id, score, number, names)
        seated, points, possessed, winner, first, kind, logged = shown
        if logged != entries:  # the log has grown since (a row added by hand)
            raise NeedsReplay(game_id)
        return game_id, number, started, finished, seated, points, possessed, winner, first, kind

    def _show(
        self, game_id: int, score: str, number: int, names: Mapping[str, str] | None
    ) -> _Shown:
        parts = self.scores[score]
        if parts is None:
            raise NeedsReplay(game_id)
        seated, distinct, points, possessed, winner, first, logged = parts
        key: tuple[object, ...] = (score, number)
        if names and any(name in names for name in seated):
            seated = tuple(names.get(name, name) for name in seated)
            distinct = len(set(seated)) == len(seated)
            key = (score, number, seated)
        if not distinct:  # the object path keys points by name: one per seat
            raise NeedsReplay(game_id)
        shown = self.shown.get(key)  # met before (in a series with renames, read here)
        if shown is None:
            kind = len(self.shown)
            shown = self.shown[key] = (seated, points, possessed, winner, first, kind, logged)
        return shown

    def series(self, series_id: int, started: str, games: list[Game]) -> Series:
        """The series tuple: its totals and winners summed once per series kind."""
        kind = tuple([game[9] for game in games])
        outcome = self.outcomes.get(kind)
        if outcome is None:
            outcome = self.outcomes[kind] = _outcome(games)
        finished = max([game[3] for game in games])  # UTC texts of one form sort as times do
        return series_id, started, finished, games, outcome[0], outcome[1], kind


def _outcome(games: list[Game]) -> tuple[dict[str, int], tuple[str, ...]]:
    """A series' totals per name (first seen first) and its winners."""
    names = games[0][4]
    if all(game[4] == names for game in games):  # most series: one roster, summed per seat
        sums = map(sum, zip(*[game[5] for game in games], strict=True))
        totals = dict(zip(names, sums, strict=True))
    else:
        totals = {}
        for game in games:
            for name, points in zip(game[4], game[5], strict=True):
                totals[name] = totals.get(name, 0) + points
    return totals, winners_of(totals, len(games))


def braced(text: str) -> str:
    """`text` as it stands in a format string (its braces doubled): the writers' format
    strings keep a series' or game's ids and times as fields, the rest as text."""
    return text.replace("{", "{{").replace("}", "}}")
