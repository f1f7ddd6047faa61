"""History and stats on a hand-checked evening, exports, hostile names, the CLI."""

from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator.domain import PlayerKnockedOut, ResultsDeclared, Team
from moderator.history_report.command import run_history, width
from moderator.storage import (
    DATABASE_NAME,
    PlayerStats,
    StorageError,
    StorageWriteError,
    Store,
)
from moderator.storage.export import CSV_COLUMNS
from moderator.storage.schema import SCHEMA_VERSION
from tests.storage.export_files import export_csv, export_json, read_csv, read_json

#: One game: seats knocked out (leaving two in play), seats who growled, Waffles in hand.
Plan = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

EVENING_1: list[Plan] = [
    ((1, 2), (0,), (1, 0, 0, 2)),  # Ann & Dee in play, Dee Sane: Sane win
    ((0, 3), (1, 2), (0, 2, 1, 0)),  # Bob & Cyd in play, both Possessed: Possessed win
    ((1, 2), (3,), (0, 0, 0, 0)),  # Ann Sane in play: Sane win
]
EVENING_2: list[Plan] = [((2, 3), (0, 1), (0, 0, 0, 0))] * 3  # Ann & Bob Possessed win


def at(minute: int) -> datetime:
    return datetime(2026, 3, 14, 19, minute, tzinfo=UTC)


def play_game(store: Store, series: int, players: Sequence[str], plan: Plan) -> int:
    knocked, possessed, waffles = plan
    game = store.new_game(series, players, 0)
    for seat in knocked:
        game.record(PlayerKnockedOut(seat))
    game.record(ResultsDeclared(possessed, waffles))
    return game.game_id


def play_series(store: Store, players: Sequence[str], plans: Sequence[Plan]) -> int:
    series = store.new_series()
    for plan in plans:
        play_game(store, series, players, plan)
    return series


@pytest.fixture
def evening(store: Store) -> Store:
    """Two complete series, plus games that must not count (abandoned, unfinished)."""
    play_series(store, ["Ann", "Bob", "Cyd", "Dee"], EVENING_1)  # clock 19:00..19:12
    play_series(store, ["Ann", "Bob", "Cyd", "Eve"], EVENING_2)
    dropped = play_series(store, ["Ann", "Bob", "Cyd", "Dee"], EVENING_1[:1])
    store.abandon_series(dropped)
    play_series(store, ["Ann", "Bob", "Cyd", "Dee"], EVENING_1[:2])  # still unfinished
    return store


def test_hand_checked_series(evening: Store) -> None:
    first, second = evening.history()
    assert first.series_id == 1 and second.series_id == 2
    assert first.started_at == at(0)
    assert [g.finished_at for g in first.games] == [at(4), at(8), at(12)]
    assert first.finished_at == at(12)
    assert [g.winner for g in first.games] == [Team.SANE, Team.POSSESSED, Team.SANE]
    assert [dict(g.points) for g in first.games] == [
        {"Ann": 0, "Bob": 1, "Cyd": 1, "Dee": 3},
        {"Ann": 0, "Bob": 3, "Cyd": 2, "Dee": 0},
        {"Ann": 1, "Bob": 1, "Cyd": 1, "Dee": 0},
    ]
    assert dict(first.totals) == {"Ann": 1, "Bob": 5, "Cyd": 4, "Dee": 3}
    assert first.winners == ("Bob",)
    assert dict(second.totals) == {"Ann": 3, "Bob": 3, "Cyd": 0, "Eve": 0}
    assert second.winners == ("Ann", "Bob")  # no tie-break in the rulebook: co-winners


def test_hand_checked_player_stats(evening: Store) -> None:
    assert evening.player_stats() == [
        PlayerStats("Bob", 2, 2, 6, 6, 2, 4, 8),
        PlayerStats("Ann", 2, 1, 6, 4, 1, 3, 4),
        PlayerStats("Cyd", 2, 0, 6, 3, 2, 1, 4),
        PlayerStats("Dee", 1, 0, 3, 1, 1, 0, 3),
        PlayerStats("Eve", 1, 0, 3, 0, 0, 0, 0),
    ]


def test_csv_round_trip_and_spreadsheet_shape(evening: Store, tmp_path: Path) -> None:
    target = tmp_path / "history.csv"
    export_csv(evening, target)
    raw = target.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf" + b",".join(c.encode() for c in CSV_COLUMNS) + b"\r\n")
    with target.open(encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 2 * 3 * 4
    assert rows[3] == {
        "series_id": "1",
        "series_started_utc": "2026-03-14 19:00:00",
        "series_finished_utc": "2026-03-14 19:12:00",
        "game_id": "1",
        "game_number": "1",
        "game_finished_utc": "2026-03-14 19:04:00",
        "seat": "4",
        "player": "Dee",
        "team": "Sane",
        "winning_team": "Sane",
        "won_game": "1",
        "points": "3",
        "series_points": "3",
        "series_winner": "0",
        "game_started_utc": "2026-03-14 19:01:00",
        "first_player": "0",
    }
    assert rows[0]["first_player"] == "1", "Ann took the first turn (seat 0 at setup)"
    assert read_csv(target) == evening.history()


def test_json_round_trip(evening: Store, tmp_path: Path) -> None:
    target = tmp_path / "history.json"
    export_json(evening, target, exported_at=at(59))
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["format"] == "mindflayer-moderator history"
    assert document["exported_at"] == "2026-03-14T19:59:00+00:00"
    assert document["series"][0]["games"][1]["players"][1] == {
        "seat": 2,
        "name": "Bob",
        "team": "possessed",
        "points": 3,
        "first_player": False,
    }
    assert document["players"][0] == {
        "name": "Bob",
        "series_played": 2,
        "series_won": 2,
        "games_played": 6,
        "games_won": 6,
        "wins_as_sane": 2,
        "wins_as_possessed": 4,
        "points": 8,
    }
    assert read_json(target) == (evening.history(), evening.player_stats())


def test_export_replaces_atomically_and_leaves_no_temp_files(
    evening: Store, tmp_path: Path
) -> None:
    target = tmp_path / "history.csv"
    target.write_text("old export")
    export_csv(evening, target)
    assert read_csv(target) == evening.history()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "history.csv"]


HOSTILE = [
    'O\'Brien "Bo"',
    "x'); DROP TABLE log;--",
    "[/]",
    "[@click=app.quit]x",
    "👾 Demogorgon 🧇",
    '=HYPERLINK("x")',
    "-Eleven",
    "ABCDEFGHIJKLMNOPQRSTUVWX",  # 24 characters, the longest name allowed
    "Zoe\u0308 (decomposed)",  # stored in NFC (issue 15 item 11): one spelling per player
    "Ñandú; %s ?",
]
#: The names as the store keeps them: NFC, otherwise byte for byte.
STORED = [unicodedata.normalize("NFC", name) for name in HOSTILE]


def test_hostile_names_survive_byte_for_byte(
    open_store: Callable[[], Store], tmp_path: Path, data_dir: Path
) -> None:
    assert max(len(n) for n in HOSTILE) == 24
    store = open_store()
    knock_out_eight = tuple(range(2, 10))
    plan: Plan = (knock_out_eight, (0, 1, 2), (1,) * 10)
    play_series(store, HOSTILE, [plan] * 3)
    store.close()

    store = open_store()
    (record,) = store.history()
    for game in record.games:
        assert [n.encode() for n in game.players] == [n.encode() for n in STORED]
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    stored = {row[0] for row in conn.execute("SELECT name FROM players")}
    conn.close()
    assert stored == set(STORED)
    assert sorted(s.name for s in store.player_stats()) == sorted(STORED)
    assert set(store.known_players()) == set(STORED)
    export_csv(store, tmp_path / "h.csv")
    export_json(store, tmp_path / "h.json")
    assert read_csv(tmp_path / "h.csv") == store.history()
    assert read_json(tmp_path / "h.json") == (store.history(), store.player_stats())
    cells = (tmp_path / "h.csv").read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in cells and "'-Eleven" in cells  # shown as text, never run


# -- the command line ----------------------------------------------------------------


def history_args(
    data_dir: Path, csv_file: Path | None = None, json_file: Path | None = None
) -> argparse.Namespace:
    return argparse.Namespace(
        data_dir=str(data_dir),
        csv=str(csv_file) if csv_file else None,
        json=str(json_file) if json_file else None,
    )


def test_cli_prints_series_and_players(
    evening: Store, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evening.close()
    assert run_history(history_args(data_dir)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "Series 1:" in out and "Winner: Bob (5 points)" in out
    assert "Winners: Ann, Bob (3 points)" in out
    assert "Series 3" not in out and "Series 4" not in out
    bob_line = next(
        line for line in out.splitlines() if line.strip().startswith("Bob") and "won" in line
    )
    assert bob_line.split()[1:4] == ["1", "(Sane,", "won)"]
    stats_line = out.splitlines()[-5].split()
    assert stats_line == ["Bob", "2", "2", "6", "6", "2", "4", "8"]


def test_cli_on_an_empty_database(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_history(history_args(data_dir)) == 0
    assert "No complete series yet" in capsys.readouterr().out


def test_cli_exports(
    evening: Store, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = evening.history()
    evening.close()
    code = run_history(history_args(data_dir, tmp_path / "a.csv", tmp_path / "a.json"))
    assert code == 0
    out = capsys.readouterr().out
    assert "Exported 2 complete series to" in out and "a.csv" in out and "a.json" in out
    assert read_csv(tmp_path / "a.csv") == records
    assert read_json(tmp_path / "a.json")[0] == records


def test_cli_export_into_a_missing_folder_says_so(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_history(history_args(data_dir, tmp_path / "nope" / "a.csv")) == 1
    err = capsys.readouterr().err
    assert "Could not write" in err and "Traceback" not in err


def test_cli_refuses_a_newer_database_with_one_sentence(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Store.open(data_dir).close()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    assert run_history(history_args(data_dir)) == 1
    err = capsys.readouterr().err
    assert err.startswith("mindflayer history: The score database") and "newer" in err
    assert err.count("\n") == 1


def test_cli_end_to_end_uses_the_environment_data_dir(evening: Store, data_dir: Path) -> None:
    evening.close()
    result = subprocess.run(
        [sys.executable, "-m", "moderator", "history"],
        env={"MINDFLAYER_DATA_DIR": str(data_dir), "PATH": "", "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Winner: Bob (5 points)" in result.stdout


def test_display_width_counts_emoji_as_two_cells() -> None:
    assert width("Ann") == 3
    assert width("👾 x") == 4
    assert width("Zoe\u0308") == 3


def test_cli_reads_while_the_app_has_the_database_open(
    evening: Store, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_history(history_args(data_dir)) == 0  # `evening` still holds the lock
    assert "Winner: Bob (5 points)" in capsys.readouterr().out
    assert evening.new_game(4, ["Ann", "Bob", "Cyd", "Dee"], 0).number == 3  # owner still writes


def test_read_only_store_refuses_writes(evening: Store, data_dir: Path) -> None:
    with Store.open_read_only(data_dir) as reader:
        assert reader.history() == evening.history()
        with pytest.raises(StorageWriteError, match="cannot be written"):
            reader.new_series()


def test_read_only_store_needs_a_database(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no score database"):
        Store.open_read_only(tmp_path)
