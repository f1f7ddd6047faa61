"""The CSV, JSON and BG Stats exports written from flat rows (`history_rows`).

The same bytes as `export.csv_text`, `export.json_document` + `json_text` and
`bgstats.plays_text` (the formats are documented there), without a `GameScore`
or a dict per game: each series or game goes from its row tuple to its output
lines. The JSON items are spelled out as `json.dumps(item, ensure_ascii=False)`
spells them (", " and ": " separators, names through `json_text.quoted`); the
tests compare every output with the object path's on a varied history.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from datetime import datetime, tzinfo

from moderator.domain import Team
from moderator.storage import bgstats, history, json_text
from moderator.storage.export import CSV_COLUMNS, JSON_FORMAT, JSON_VERSION, protect
from moderator.storage.history_clock import LocalClocks, utc_clock
from moderator.storage.history_rows import Game, Series, braced
from moderator.storage.history_tally import Tally
from moderator.storage.memo import Memo
from moderator.storage.records import GameScore, clock_text, time_from_text, time_to_text
from moderator.storage.score_cache import CachedScore

_LABEL = {"sane": "Sane", "possessed": "Possessed"}
_TRUE = {True: "true", False: "false"}


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
    """The CSV document of these complete series (`export.csv_text`'s bytes).

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
            f'"points": {points[seat]}, "first_player": {_TRUE[seat == first]}}}'
            for seat, name in enumerate(names)
        )
        item = self._items[kind, index] = (
            f'{{{{"game_id": {{{3 + 3 * index}}}, "number": {number}, '
            f'"started_at": "{{{4 + 3 * index}}}", "finished_at": "{{{5 + 3 * index}}}", '
            f'"winner": "{winner}", "players": [{braced(seats)}]}}}}'
        )
        return item


class _PlayTemplates(dict[int, str]):
    """A game kind -> the format string of its play: ``{0}`` its id, ``{1}`` its UTC
    stamp, ``{2}`` its play date, ``{3}`` its minutes."""

    def __init__(self) -> None:
        super().__init__()
        self._quoted = Memo(json_text.quoted)  # each name's JSON string, once
        source = json_text.quoted(bgstats.SOURCE_NAME)
        title = json_text.quoted(bgstats.GAME_NAME)
        self._head = braced(f'{{"sourceName": {source}, "sourcePlayId": "mindflayer-')
        self._about = braced(f'"game": {{"name": {title}, "highestWins": true, "noPoints": false}}')

    def template(self, game: Game) -> str:
        """The play of `game` with its id and times left as fields."""
        _, _, _, _, names, points, possessed, winner, first, _ = game
        players = ", ".join(
            [
                f'{{"name": {self._quoted[name]}, "score": {score}, '
                f'"winner": {_TRUE[(seat in possessed) is (winner == "possessed")]}, '
                f'"role": "{"Possessed" if seat in possessed else "Sane"}", '
                f'"startPlayer": {_TRUE[seat == first]}}}'
                for seat, (name, score) in enumerate(zip(names, points, strict=True))
            ]
        )
        return (
            f'{self._head}{{0}}-{{1}}", "playDate": "{{2}}", {self._about}, '
            f'"players": [{braced(players)}], "durationMin": {{3}}}}}}'
        )


class Plays:
    """The `--bgstats` file from flat game rows (`bgstats.plays_text`'s bytes).

    Also keeps how many plays it wrote and the latest game, for the summary
    (`latest` is the one `GameScore` built: its play link).
    """

    def __init__(self, zone: tzinfo | None = None) -> None:
        self.zone = zone
        self.count = 0
        self._last: Game | None = None

    def text(self, games: Iterable[Game]) -> str:
        """The JSON list of plays, one per line, and a newline.

        A play but its ids and times depends on its game's kind (`history_rows`):
        one format string per kind (`_PlayTemplates`).
        """
        lines = json_text.Encoded()
        templates = _PlayTemplates()
        clocks = LocalClocks()
        for game in games:
            game_id, _, started, finished, _, _, _, _, _, kind = game
            template = templates.get(kind)
            if template is None:
                template = templates[kind] = templates.template(game)
            stamp = finished[:19].replace("-", "").replace(":", "")  # 20260314T193000
            start, end = time_from_text(started), time_from_text(finished)
            minutes = max(0, round((end - start).total_seconds() / 60))
            played = clocks[started] if self.zone is None else clock_text(start, self.zone)
            lines.append(template.format(game_id, stamp, played, minutes))
            self._last = game
        self.count = len(lines)
        return json_text.encoded_list_text(lines) + "\n"

    @property
    def latest(self) -> GameScore | None:
        """The last game written, as the object path has it (None before any)."""
        if self._last is None:
            return None
        game_id, number, started, finished, names, points, possessed, winner, first, _ = self._last
        cached = CachedScore(
            names, first, Team(winner), frozenset(possessed), tuple(points), entries=0
        )
        return history.cached_game_score(
            game_id, number, cached, time_from_text(finished), time_from_text(started)
        )
