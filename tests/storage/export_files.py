"""The history exports written by the command's route, and read back into records.

The tests' way to an export file: `read_output` (what `mindflayer history --csv`
/ `--json` reads and writes) written through `export.write_atomically`, as the
command writes it. The readers rebuild the store's records from a file, so a
test can prove an export lossless (`read_csv(file) == store.history()`): they
are the format's inverse, which the app itself never needs.
"""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime
from pathlib import Path

from moderator.domain import Team
from moderator.history_report.output import Wanted, read_output
from moderator.storage import Store, export
from moderator.storage.history import series_record
from moderator.storage.records import GameScore, PlayerStats, SeriesRecord, time_from_text

_CSV_TIME = "%Y-%m-%d %H:%M:%S"
_TEAM_LABEL = {Team.SANE: "Sane", Team.POSSESSED: "Possessed"}


def export_csv(store: Store, path: Path) -> None:
    """The store's history exported as `mindflayer history --csv path` exports it."""
    text = read_output(store, Wanted(csv=True)).csv
    export.write_atomically(path, text, encoding=export.CSV_ENCODING)


def export_json(store: Store, path: Path, exported_at: datetime | None = None) -> None:
    """The store's history exported as `mindflayer history --json path` exports it."""
    export.write_atomically(path, read_output(store, Wanted(json=True), exported_at).json)


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


def _unprotect(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


def _from_csv_time(text: str) -> datetime:
    return datetime.strptime(text, _CSV_TIME).replace(tzinfo=UTC)


def _optional_csv_time(text: str | None) -> datetime | None:
    """Exports written before a column existed leave it empty or absent."""
    return _from_csv_time(text) if text else None


def _flag(row: dict[str, str], column: str) -> bool:
    return row.get(column) == "1"


def read_json(path: Path) -> tuple[list[SeriesRecord], list[PlayerStats]]:
    """Rebuild series and stats from a JSON export (used to prove it is lossless)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    expected = (export.JSON_FORMAT, export.JSON_VERSION)
    if (document.get("format"), document.get("version")) != expected:
        raise ValueError(f"{path} is not a version {export.JSON_VERSION} history export.")
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
