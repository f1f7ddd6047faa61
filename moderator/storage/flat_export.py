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
from collections.abc import Iterable
from dataclasses import asdict
from datetime import datetime, tzinfo

from moderator.domain import Team
from moderator.storage import bgstats, history, json_text
from moderator.storage.export import CSV_COLUMNS, JSON_FORMAT, JSON_VERSION, protect
from moderator.storage.history_rows import Game, Series, count, utc_clock
from moderator.storage.records import GameScore, clock_text, time_from_text, time_to_text
from moderator.storage.score_cache import CachedScore

_LABEL = {"sane": "Sane", "possessed": "Possessed"}
_TRUE = {True: "true", False: "false"}


class _Quoted(dict[str, str]):
    """Each name's JSON string, encoded once (a long history repeats a few names)."""

    def __missing__(self, name: str) -> str:
        text = self[name] = json_text.quoted(name)
        return text


class _CsvCell(dict[str, str]):
    """Each name's CSV cell (formula-protected, quoted as `csv.writer` quotes), made once."""

    def __missing__(self, name: str) -> str:
        buffer = io.StringIO()
        csv.writer(buffer).writerow((protect(name), ""))  # in a row, as the export has it
        text = self[name] = buffer.getvalue()[: -len(",\r\n")]
        return text


def csv_text(series: Iterable[Series]) -> str:
    """The CSV document of these complete series (`export.csv_text`'s bytes).

    Every cell but the name is a number, a time or a team label, which `csv.writer`
    writes as it is: the lines are formatted here, the names quoted by it (`_CsvCell`).
    """
    buffer = io.StringIO()
    csv.writer(buffer).writerow(CSV_COLUMNS)
    cell = _CsvCell()
    lines = [buffer.getvalue()]
    for series_id, started, finished, games, totals, winners in series:
        series_head = f"{series_id},{utc_clock(started)},{utc_clock(finished)},"
        for game_id, number, began, ended, names, points, possessed, winner, first in games:
            head = f"{series_head}{game_id},{number},{utc_clock(ended)},"
            winning, started_text = _LABEL[winner], utc_clock(began)
            for seat, name in enumerate(names):
                team = "possessed" if seat in possessed else "sane"
                lines.append(
                    f"{head}{seat + 1},{cell[name]},{_LABEL[team]},{winning},"
                    f"{int(team == winner)},{points[seat]},{totals[name]},"
                    f"{int(name in winners)},{started_text},{int(seat == first)}\r\n"
                )
    return "".join(lines)


def json_export_text(series: Iterable[Series], exported_at: datetime) -> str:
    """The JSON export of these complete series and their players' stats."""
    quoted = _Quoted()
    table: history.StatsTable = {}
    lines = json_text.Encoded()
    for one in series:
        count(table, one)
        lines.append(_series_json(one, quoted))
    document = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "exported_at": time_to_text(exported_at),
        "series": lines,
        "players": [asdict(line) for line in history.stats_of(table)],
    }
    return json_text.document_text(document)


def _series_json(series: Series, quoted: _Quoted) -> str:
    series_id, started, finished, games, totals, winners = series
    game_items = []
    for game_id, number, began, ended, names, points, possessed, winner, first in games:
        seats = ", ".join(
            f'{{"seat": {seat + 1}, "name": {quoted[name]}, '
            f'"team": "{"possessed" if seat in possessed else "sane"}", '
            f'"points": {points[seat]}, "first_player": {_TRUE[seat == first]}}}'
            for seat, name in enumerate(names)
        )
        game_items.append(
            f'{{"game_id": {game_id}, "number": {number}, "started_at": "{began}", '
            f'"finished_at": "{ended}", "winner": "{winner}", "players": [{seats}]}}'
        )
    winner_names = ", ".join(quoted[name] for name in winners)
    total_items = ", ".join(f"{quoted[name]}: {total}" for name, total in totals.items())
    return (
        f'{{"series_id": {series_id}, "started_at": "{started}", "finished_at": "{finished}", '
        f'"winners": [{winner_names}], "totals": {{{total_items}}}, '
        f'"games": [{", ".join(game_items)}]}}'
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
        """The JSON list of plays, one per line, and a newline."""
        quoted = _Quoted()
        head = (
            f'{{"sourceName": {json_text.quoted(bgstats.SOURCE_NAME)}, "sourcePlayId": "mindflayer-'
        )
        title = json_text.quoted(bgstats.GAME_NAME)
        about = f'"game": {{"name": {title}, "highestWins": true, "noPoints": false}}'
        lines = json_text.Encoded()
        for game in games:
            game_id, _, started, finished, names, points, possessed, winner, first = game
            stamp = utc_clock(finished)
            stamp = (
                f"{stamp[0:4]}{stamp[5:7]}{stamp[8:10]}T{stamp[11:13]}{stamp[14:16]}{stamp[17:19]}"
            )
            start, end = time_from_text(started), time_from_text(finished)
            players = ", ".join(
                f'{{"name": {quoted[name]}, "score": {points[seat]}, '
                f'"winner": {_TRUE[(seat in possessed) is (winner == "possessed")]}, '
                f'"role": "{"Possessed" if seat in possessed else "Sane"}", '
                f'"startPlayer": {_TRUE[seat == first]}}}'
                for seat, name in enumerate(names)
            )
            minutes = max(0, round((end - start).total_seconds() / 60))
            lines.append(
                f'{head}{game_id}-{stamp}", "playDate": "{clock_text(start, self.zone)}", '
                f'{about}, "players": [{players}], "durationMin": {minutes}}}'
            )
            self._last = game
        self.count = len(lines)
        return json_text.encoded_list_text(lines) + "\n"

    @property
    def latest(self) -> GameScore | None:
        """The last game written, as the object path has it (None before any)."""
        if self._last is None:
            return None
        game_id, number, started, finished, names, points, possessed, winner, first = self._last
        cached = CachedScore(
            names, first, Team(winner), frozenset(possessed), tuple(points), entries=0
        )
        return history.cached_game_score(
            game_id, number, cached, time_from_text(finished), time_from_text(started)
        )
