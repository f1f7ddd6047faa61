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
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moderator import safe_output
from moderator.domain import Team
from moderator.domain.worded import Worded
from moderator.storage import json_text
from moderator.storage.errors import StorageWriteError
from moderator.storage.history import series_record
from moderator.storage.records import (
    GameScore,
    PlayerStats,
    SeriesRecord,
    clock_text,
    time_from_text,
    time_to_text,
    utc_now,
)

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
JSON_FORMAT = "mindflayer-moderator history"
JSON_VERSION = 1
_FORMULA_STARTS = ("=", "+", "-", "@", "'")
_CSV_TIME = "%Y-%m-%d %H:%M:%S"
_TEAM_LABEL = {Team.SANE: "Sane", Team.POSSESSED: "Possessed"}
_TEAM_VALUE = {team: team.value for team in Team}  # `Team.value` is a slow enum property


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


# -- CSV ---------------------------------------------------------------------------


def csv_text(records: Sequence[SeriesRecord]) -> str:
    """The CSV document (see the module docstring for the columns)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for record in records:
        # Each time formatted once per series or game, not per row (20,000 games: 1.5 s).
        series_started, series_finished = (
            _csv_time(record.started_at),
            _csv_time(record.finished_at),
        )
        for game in record.games:
            game_finished = _csv_time(game.finished_at)
            game_started = _csv_time(game.started_at) if game.started_at else ""
            for seat, name in enumerate(game.players, start=1):
                team = game.team_of(name)
                writer.writerow(
                    (
                        record.series_id,
                        series_started,
                        series_finished,
                        game.game_id,
                        game.number,
                        game_finished,
                        seat,
                        protect(name),
                        _TEAM_LABEL[team],
                        _TEAM_LABEL[game.winner],
                        int(team is game.winner),
                        game.points[name],
                        record.totals[name],
                        int(name in record.winners),
                        game_started,
                        int(name == game.first_player),
                    )
                )
    return buffer.getvalue()


def write_csv(path: Path | str, records: Sequence[SeriesRecord]) -> None:
    """Export the history as CSV, atomically."""
    write_atomically(path, csv_text(records), encoding="utf-8-sig")


def read_csv(path: Path) -> list[SeriesRecord]:
    """Rebuild the series from a CSV export (used to prove the export is lossless)."""
    with path.open(encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    labels = {label: team for team, label in _TEAM_LABEL.items()}
    series: dict[int, tuple[datetime, dict[int, list[dict[str, str]]]]] = {}
    for row in rows:
        started = _from_csv_time(row["series_started_utc"])
        games = series.setdefault(int(row["series_id"]), (started, {}))[1]
        games.setdefault(int(row["game_id"]), []).append(row)
    records: list[SeriesRecord] = []
    for series_id, (started, games) in series.items():
        scores: list[GameScore] = []
        for game_id, game_rows in games.items():
            game_rows.sort(key=lambda r: int(r["seat"]))
            names = tuple(_unprotect(r["player"]) for r in game_rows)
            scores.append(
                GameScore(
                    game_id=game_id,
                    number=int(game_rows[0]["game_number"]),
                    players=names,
                    points={n: int(r["points"]) for n, r in zip(names, game_rows, strict=True)},
                    winner=labels[game_rows[0]["winning_team"]],
                    finished_at=_from_csv_time(game_rows[0]["game_finished_utc"]),
                    possessed=frozenset(
                        n
                        for n, r in zip(names, game_rows, strict=True)
                        if labels[r["team"]] is Team.POSSESSED
                    ),
                    first_player=next(
                        (
                            n
                            for n, r in zip(names, game_rows, strict=True)
                            if _flag(r, "first_player")
                        ),
                        None,
                    ),
                    started_at=_optional_csv_time(game_rows[0].get("game_started_utc")),
                )
            )
        scores.sort(key=lambda g: g.number)
        records.append(series_record(series_id, started, scores))
    return records


def protect(name: str) -> str:
    """A name a spreadsheet would run as a formula, quoted with a leading apostrophe."""
    return f"'{name}" if name.startswith(_FORMULA_STARTS) else name


def _unprotect(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


def _csv_time(moment: datetime) -> str:
    return clock_text(moment)  # _CSV_TIME in UTC


def _from_csv_time(text: str) -> datetime:
    return datetime.strptime(text, _CSV_TIME).replace(tzinfo=UTC)


def _optional_csv_time(text: str | None) -> datetime | None:
    """Exports written before a column existed leave it empty or absent."""
    return _from_csv_time(text) if text else None


def _flag(row: dict[str, str], column: str) -> bool:
    return row.get(column) == "1"


# -- JSON --------------------------------------------------------------------------


def json_document(
    records: Sequence[SeriesRecord], stats: Sequence[PlayerStats], exported_at: datetime
) -> dict[str, Any]:
    """The JSON export as plain data (see the module docstring for the fields)."""
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "exported_at": time_to_text(exported_at),
        "series": [
            {
                "series_id": record.series_id,
                "started_at": time_to_text(record.started_at),
                "finished_at": time_to_text(record.finished_at),
                "winners": list(record.winners),
                "totals": dict(record.totals),
                "games": [
                    {
                        "game_id": game.game_id,
                        "number": game.number,
                        "started_at": _optional_text(game.started_at),
                        "finished_at": time_to_text(game.finished_at),
                        "winner": _TEAM_VALUE[game.winner],
                        "players": [
                            {
                                "seat": seat,
                                "name": name,
                                "team": _TEAM_VALUE[game.team_of(name)],
                                "points": game.points[name],
                                "first_player": name == game.first_player,
                            }
                            for seat, name in enumerate(game.players, start=1)
                        ],
                    }
                    for game in record.games
                ],
            }
            for record in records
        ],
        "players": [asdict(line) for line in stats],
    }


def _optional_text(moment: datetime | None) -> str | None:
    return time_to_text(moment) if moment is not None else None


def write_json(
    path: Path | str,
    records: Sequence[SeriesRecord],
    stats: Sequence[PlayerStats],
    exported_at: datetime | None = None,
) -> None:
    """Export the history and the per-player stats as JSON, atomically."""
    document = json_document(records, stats, exported_at or utc_now())
    write_atomically(path, json_text.document_text(document))


def read_json(path: Path) -> tuple[list[SeriesRecord], list[PlayerStats]]:
    """Rebuild series and stats from a JSON export (used to prove it is lossless)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != JSON_FORMAT or document.get("version") != JSON_VERSION:
        raise ValueError(f"{path} is not a version {JSON_VERSION} history export.")
    records = [
        series_record(
            item["series_id"],
            time_from_text(item["started_at"]),
            [
                GameScore(
                    game_id=game["game_id"],
                    number=game["number"],
                    players=tuple(p["name"] for p in game["players"]),
                    points={p["name"]: p["points"] for p in game["players"]},
                    winner=Team(game["winner"]),
                    finished_at=time_from_text(game["finished_at"]),
                    possessed=frozenset(
                        p["name"] for p in game["players"] if p["team"] == Team.POSSESSED.value
                    ),
                    first_player=next(
                        (p["name"] for p in game["players"] if p.get("first_player")), None
                    ),
                    started_at=(
                        time_from_text(game["started_at"]) if game.get("started_at") else None
                    ),
                )
                for game in item["games"]
            ],
        )
        for item in document["series"]
    ]
    stats = [PlayerStats(**line) for line in document["players"]]
    return records, stats
