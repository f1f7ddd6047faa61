"""History export to CSV and JSON, written through `moderator.safe_output`.

A half-written export never replaces a good one: over a regular file (or a new
path) the data goes to a temp file in the target's folder, is flushed to disk,
then renamed over the target. A device node or FIFO is written straight into and
never replaced, `-` means standard output, and a symlink is followed.
Only complete series are exported (three games with results), as in `history`.

CSV (UTF-8 with a byte-order mark so spreadsheets detect the encoding; comma
separated; CRLF line ends; a header row). One row per player per game:

===================  =====================================================
column               meaning
===================  =====================================================
series_id            the series number in the database
series_started_utc   when the series was started, ``YYYY-MM-DD HH:MM:SS`` UTC
series_finished_utc  when its third game's results were entered (UTC)
game_id              the game number in the database
game_number          1, 2 or 3 within the series
game_finished_utc    when this game's results were entered (UTC)
seat                 1 for the first name typed, then clockwise
player               the name as typed (see the note on formulas below)
team                 ``Sane`` or ``Possessed``
winning_team         the team that won this game: ``Sane`` or ``Possessed``
won_game             1 if the player's team won this game, else 0
points               series points from this game (1 + Waffles for winners)
series_points        the player's total over the series' three games
series_winner        1 if the player has the series' top total (ties share), else 0
game_started_utc     when this game was set up (UTC)
first_player         1 for the player who took the first turn, else 0
===================  =====================================================

A name starting with ``=``, ``+``, ``-``, ``@`` or ``'`` is written with one extra
leading ``'`` so a spreadsheet shows it as text instead of running it as a
formula; `read_csv` removes that apostrophe again.

JSON (UTF-8, ``ensure_ascii`` off so names read as typed)::

    {"format": "mindflayer-moderator history", "version": 1,
     "exported_at": ISO 8601 time,
     "series": [{"series_id": int, "started_at": ISO, "finished_at": ISO,
                 "winners": [name, ...], "totals": {name: points, ...},
                 "games": [{"game_id": int, "number": 1..3, "finished_at": ISO,
                            "started_at": ISO | null,
                            "winner": "sane" | "possessed",
                            "players": [{"seat": 1.., "name": str,
                                         "team": "sane" | "possessed",
                                         "points": int,
                                         "first_player": bool}, ...]}, ...]}, ...],
     "players": [{"name": str, "series_played": int, "series_won": int,
                  "games_played": int, "games_won": int, "wins_as_sane": int,
                  "wins_as_possessed": int, "points": int}, ...]}

Times in JSON are ISO 8601 with their UTC offset. `docs/history-export.md`
repeats this for players who never read code.

How it is written: one route, from flat rows (`history_rows`: a `Series` tuple per
complete series, read in one query, or the store's records turned into the same
tuples when a game needs a replay). Each series goes from its tuple to its output
lines without a `GameScore` or a dict per game: a series' lines but its ids and
times depend only on its kind, so they are one format string per kind, filled in
with its ids and times. The JSON items are spelled out as
`json.dumps(item, ensure_ascii=False)` spells them (", " and ": " separators, names
through `json_text.quoted`), so the file is standard JSON.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from moderator import safe_output
from moderator.domain.worded import Worded
from moderator.storage import json_text
from moderator.storage.errors import StorageWriteError
from moderator.storage.history_clock import utc_clock
from moderator.storage.history_rows import Game, Series, braced
from moderator.storage.history_tally import Tally
from moderator.storage.memo import Memo
from moderator.storage.records import time_to_text

CSV_COLUMNS = (
    "series_id",
    "series_started_utc",
    "series_finished_utc",
    "game_id",
    "game_number",
    "game_finished_utc",
    "seat",
    "player",
    "team",
    "winning_team",
    "won_game",
    "points",
    "series_points",
    "series_winner",
    "game_started_utc",
    "first_player",
)
#: The CSV's encoding: UTF-8 with a byte-order mark (spreadsheets detect it).
CSV_ENCODING = "utf-8-sig"
JSON_FORMAT = "mindflayer-moderator history"
JSON_VERSION = 1
_FORMULA_STARTS = ("=", "+", "-", "@", "'")
_LABEL = {"sane": "Sane", "possessed": "Possessed"}
#: JSON's spelling of a flag.
TRUE = {True: "true", False: "false"}


def write_atomically(path: Path | str, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` through `moderator.safe_output`.

    A regular file or a new path is replaced all at once (or left as it was);
    a device node or FIFO is written straight into and never replaced; `-` is
    standard output; a symlink is followed, never replaced.
    """
    try:
        safe_output.write_text(path, text, encoding=encoding)
    except safe_output.OutputError as error:
        # A helper's sentence made to be translated keeps its template and fields.
        raise (
            StorageWriteError.saying(error)
            if isinstance(error, Worded)
            else StorageWriteError(str(error))
        ) from error


def protect(name: str) -> str:
    """A name a spreadsheet would run as a formula, quoted with a leading apostrophe."""
    return f"'{name}" if name.startswith(_FORMULA_STARTS) else name


# -- CSV ---------------------------------------------------------------------------


def _csv_cell(name: str) -> str:
    """A name's CSV cell (formula-protected, quoted as `csv.writer` quotes)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerow((protect(name), ""))  # in a row, as the export has it
    return buffer.getvalue()[: -len(",\r\n")]


class _CsvSeats(dict[tuple[tuple[int, ...], str, int, int], tuple[tuple[str, str, str], ...]]):
    """(possessed seats, winning team, first seat, seats) -> each seat's fixed cells.

    Per seat: "3," (the seat), ",Sane,Possessed,0," (team, winning team, won) and
    ",0\\r\\n" (first player): made once per kind of game, not once per seat.
    """

    def __missing__(
        self, key: tuple[tuple[int, ...], str, int, int]
    ) -> tuple[tuple[str, str, str], ...]:
        possessed, winner, first, seats = key
        found = []
        for seat in range(seats):
            team = "possessed" if seat in possessed else "sane"
            found.append(
                (
                    f"{seat + 1},",
                    f",{_LABEL[team]},{_LABEL[winner]},{int(team == winner)},",
                    f",{int(seat == first)}\r\n",
                )
            )
        self[key] = tuple(found)
        return self[key]


def csv_text(series: Iterable[Series]) -> str:
    """The CSV document of these complete series (see the module docstring for the columns).

    Every cell but the name is a number, a time or a team label, which `csv.writer`
    writes as it is: the lines are formatted here, the names quoted by it (`_csv_cell`).
    A series' lines but its ids and times depend on its kind (`history_rows`): from
    the second series of a kind on, they are one format string per kind
    (`_CsvSeries`), filled in with `series_values` (making one for a series whose
    kind comes once cost more than writing it).
    """
    buffer = io.StringIO()
    csv.writer(buffer).writerow(CSV_COLUMNS)
    templates = _CsvSeries()
    lines = [buffer.getvalue()]
    seen: set[tuple[int, ...]] = set()
    for one in series:
        template = templates.get(one[6])
        if template is None:
            if one[6] not in seen:  # the first of its kind (most series of a varied history)
                seen.add(one[6])
                lines.append(templates.lines(one, series_values(one, utc_clock), braces=False))
                continue
            template = templates[one[6]] = templates.template(one)
        lines.append(template.format(*series_values(one, utc_clock)))
    return "".join(lines)


def series_values(series: Series, clock: Callable[[str], str]) -> list[object]:
    """A series' id, start and end, then each game's id, start and end (times by `clock`).

    The values of the export templates' fields, in their order: ``{0}`` the id,
    ``{1}`` / ``{2}`` the series' times, ``{3 + 3i}`` .. ``{5 + 3i}`` game i's.
    """
    series_id, started, finished, games, _, _, _ = series
    values: list[object] = [series_id, clock(started), clock(finished)]
    for game in games:
        values += (game[0], clock(game[2]), clock(game[3]))
    return values


class _CsvSeries(dict[tuple[int, ...], str]):
    """A series kind -> the format string of its CSV lines (`series_values`' fields)."""

    def __init__(self) -> None:
        super().__init__()
        self._cell = Memo(_csv_cell)  # each name's cell, made once
        self._seats = _CsvSeats()

    def template(self, series: Series) -> str:
        """The lines of `series` with its ids and times left as fields."""
        fields = [f"{{{index}}}" for index in range(3 + 3 * len(series[3]))]
        return self.lines(series, fields, braces=True)

    def lines(self, series: Series, values: Sequence[object], braces: bool) -> str:
        """The lines of `series` with `values` (`series_values`' order) as its ids and
        times; `braces`: names' braces doubled (for a format string)."""
        _, _, _, games, totals, winners, _ = series
        lines = []
        for index, game in enumerate(games):
            _, number, _, _, names, points, possessed, winner, first, _ = game
            head = (
                f"{values[0]},{values[1]},{values[2]},{values[3 + 3 * index]},{number},"
                f"{values[5 + 3 * index]},"
            )
            began = values[4 + 3 * index]
            kinds = self._seats[possessed, winner, first, len(names)]
            for name, score, (seat, team, first_text) in zip(names, points, kinds, strict=True):
                cell = braced(self._cell[name]) if braces else self._cell[name]
                lines.append(
                    f"{head}{seat}{cell}{team}{score},{totals[name]},"
                    f"{int(name in winners)},{began}{first_text}"
                )
        return "".join(lines)


# -- JSON --------------------------------------------------------------------------


def json_export_text(series: Iterable[Series], exported_at: datetime) -> str:
    """The JSON export of these complete series and their players' stats."""
    tally = Tally()
    templates = _JsonSeries()
    lines = json_text.Encoded()
    for one in series:
        tally.add(one)
        template = templates.get(one[6])
        if template is None:
            template = templates[one[6]] = templates.template(one)
        lines.append(template.format(*series_values(one, str)))
    document = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "exported_at": time_to_text(exported_at),
        "series": lines,
        "players": [asdict(line) for line in tally.stats()],
    }
    return json_text.document_text(document)


class _JsonSeries(dict[tuple[int, ...], str]):
    """A series kind -> the format string of its JSON item (`series_values`' fields)."""

    def __init__(self) -> None:
        super().__init__()
        self._quoted = Memo(json_text.quoted)  # each name's JSON string, once
        #: (game kind, its index in the series) -> its part of the item.
        self._items: dict[tuple[int, int], str] = {}

    def template(self, series: Series) -> str:
        """The item of `series` with its ids and times left as fields."""
        _, _, _, games, totals, winners, _ = series
        quoted = self._quoted
        game_items = [
            self._items.get((game[9], index)) or self._game_item(game, index)
            for index, game in enumerate(games)
        ]
        winner_names = ", ".join(quoted[name] for name in winners)
        total_items = ", ".join(f"{quoted[name]}: {total}" for name, total in totals.items())
        return (
            '{{"series_id": {0}, "started_at": "{1}", "finished_at": "{2}", '
            f'"winners": [{braced(winner_names)}], "totals": {{{{{braced(total_items)}}}}}, '
            f'"games": [{", ".join(game_items)}]}}}}'
        )

    def _game_item(self, game: Game, index: int) -> str:
        """Game `index` of a series' item (fields `3 + 3 * index`...): once per kind of game."""
        _, number, _, _, names, points, possessed, winner, first, kind = game
        quoted = self._quoted
        seats = ", ".join(
            f'{{"seat": {seat + 1}, "name": {quoted[name]}, '
            f'"team": "{"possessed" if seat in possessed else "sane"}", '
            f'"points": {points[seat]}, "first_player": {TRUE[seat == first]}}}'
            for seat, name in enumerate(names)
        )
        item = self._items[kind, index] = (
            f'{{{{"game_id": {{{3 + 3 * index}}}, "number": {number}, '
            f'"started_at": "{{{4 + 3 * index}}}", "finished_at": "{{{5 + 3 * index}}}", '
            f'"winner": "{winner}", "players": [{braced(seats)}]}}}}'
        )
        return item
