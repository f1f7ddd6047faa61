"""`mindflayer history --csv/--json/--bgstats` into devices, FIFOs, symlinks, stdout.

Device nodes are `mknod` copies in a temp folder, never the machine's /dev/null.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import urllib.parse
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Any

import pytest

from moderator.cli import build_parser
from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.history_report.command import run_history
from moderator.storage import Store, history_rows
from moderator.storage.bgstats import CREATE_PLAY_URL, Plays, create_play_link
from tests.device_nodes import FULL_DEVICE, NULL_DEVICE, FifoReader, assert_same_device, make_device
from tests.storage.export_files import export_csv, export_json, read_csv, read_json

PLAYERS = ["Ann", "Bob", "Cyd", "Dee", "Eve"]


def args(data_dir: Path, *options: str) -> argparse.Namespace:
    parsed = build_parser().parse_args(["--data-dir", str(data_dir), "history", *options])
    return parsed


def play(store: Store, series: int, first: int, possessed: tuple[int, ...]) -> None:
    game = store.new_game(series, PLAYERS, first)
    game.record(PlayerKnockedOut(2))
    game.record(PlayerKnockedOut(3))
    game.record(PlayerKnockedOut(4))
    game.record(ResultsDeclared(possessed, (1, 0, 2, 0, 0)))


@pytest.fixture
def played(store: Store) -> Store:
    """One complete series (first players Cyd, Ann, Bob) and a game of a second one."""
    series = store.new_series()
    play(store, series, 2, (0,))  # Ann growled; Bob Sane in play: Sane win
    play(store, series, 0, (0, 1))  # both in play Possessed: Possessed win
    play(store, series, 1, (4,))
    play(store, store.new_series(), 3, (1,))
    return store


def test_csv_into_a_null_device_keeps_the_device(
    played: Store, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played.close()
    null = make_device(tmp_path, "null", NULL_DEVICE)
    assert run_history(args(data_dir, "--csv", str(null), "--json", str(null))) == 0
    assert_same_device(null, NULL_DEVICE)
    assert "Exported 1 complete series" in capsys.readouterr().out


def test_json_into_a_full_device_says_so_and_keeps_the_device(
    played: Store, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played.close()
    full = make_device(tmp_path, "full", FULL_DEVICE)
    assert run_history(args(data_dir, "--json", str(full))) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    assert_same_device(full, FULL_DEVICE)


def test_csv_into_a_fifo(played: Store, data_dir: Path, tmp_path: Path) -> None:
    records = played.history()
    played.close()
    pipe = FifoReader(tmp_path)
    assert run_history(args(data_dir, "--csv", str(pipe.path))) == 0
    received = pipe.join()
    assert stat.S_ISFIFO(os.lstat(pipe.path).st_mode)
    (tmp_path / "copy.csv").write_bytes(received[0])
    assert read_csv(tmp_path / "copy.csv") == records


def test_json_through_a_symlink_replaces_the_file_not_the_link(
    played: Store, data_dir: Path, tmp_path: Path
) -> None:
    records = played.history()
    played.close()
    real = tmp_path / "exports" / "history.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    assert run_history(args(data_dir, "--json", str(link))) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert read_json(real)[0] == records


def test_exports_take_the_users_umask(played: Store, data_dir: Path, tmp_path: Path) -> None:
    played.close()
    old = os.umask(0o022)
    try:
        assert run_history(args(data_dir, "--csv", str(tmp_path / "h.csv"))) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "h.csv").stat().st_mode) == 0o644


def test_dash_exports_to_stdout_and_talks_on_stderr(
    played: Store,
    data_dir: Path,
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played.close()
    monkeypatch.chdir(tmp_path)
    assert run_history(args(data_dir, "--json", "-")) == 0
    assert not (tmp_path / "-").exists(), "no file called '-'"
    out, err = capsysbinary.readouterr()
    assert json.loads(out.decode())["format"] == "mindflayer-moderator history"
    assert b"Exported 1 complete series to - (JSON)" in err


def test_a_folder_as_target_is_refused(
    played: Store, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played.close()
    assert run_history(args(data_dir, "--csv", str(tmp_path))) == 1
    assert "it is a folder" in capsys.readouterr().err
    assert tmp_path.is_dir()


# -- BG Stats ------------------------------------------------------------------------


def plays_of(store: Store, zone: tzinfo) -> tuple[Plays, list[dict[str, Any]]]:
    """The writer of `history --bgstats` over every game with results, and its plays."""
    plays = Plays(zone)
    return plays, json.loads(plays.text(history_rows.finished_games(store.journal)))


def test_bgstats_play_has_the_documented_fields(played: Store) -> None:
    games = played.finished_games()
    assert [g.first_player for g in games] == ["Cyd", "Ann", "Bob", "Dee"]
    _, plays = plays_of(played, timezone(timedelta(hours=2)))
    first = plays[0]
    assert first["sourceName"] == "Mind Flayer moderator"
    assert first["sourcePlayId"] == "mindflayer-1-20260314T190500"
    assert first["playDate"] == "2026-03-14 21:01:00", "local time of the setup"
    assert first["durationMin"] == 4
    assert first["game"] == {
        "name": "Stranger Things: Attack of the Mind Flayer",
        "highestWins": True,
        "noPoints": False,
    }
    assert first["players"] == [
        {"name": "Ann", "score": 0, "winner": False, "role": "Possessed", "startPlayer": False},
        {"name": "Bob", "score": 1, "winner": True, "role": "Sane", "startPlayer": False},
        {"name": "Cyd", "score": 3, "winner": True, "role": "Sane", "startPlayer": True},
        {"name": "Dee", "score": 1, "winner": True, "role": "Sane", "startPlayer": False},
        {"name": "Eve", "score": 1, "winner": True, "role": "Sane", "startPlayer": False},
    ]
    assert len({p["sourcePlayId"] for p in plays}) == 4


def test_create_play_link_carries_the_play_url_encoded(played: Store) -> None:
    writer, plays = plays_of(played, UTC)
    link = create_play_link(writer.last)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    encoded = link.removeprefix(CREATE_PLAY_URL)
    assert all(c not in encoded for c in ' {}"&#')
    assert "%2C%22" in encoded, "compact: no space after a comma"
    assert json.loads(urllib.parse.unquote(encoded)) == plays[-1]


def test_cli_bgstats_writes_every_played_game_and_prints_the_latest_link(
    played: Store, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latest = played.finished_games()[-1]
    played.close()
    target = tmp_path / "plays.json"
    assert run_history(args(data_dir, "--bgstats", str(target))) == 0
    plays = json.loads(target.read_text(encoding="utf-8"))
    assert len(plays) == 4, "games of the unfinished series are plays too"
    out = capsys.readouterr().out
    assert "Exported 4 plays to" in out
    link = out.strip().splitlines()[-1]
    assert plays[-1]["sourcePlayId"].startswith(f"mindflayer-{latest.game_id}-")
    assert link == create_play_link(json.dumps(plays[-1]))
    assert json.loads(urllib.parse.unquote(link.removeprefix(CREATE_PLAY_URL))) == plays[-1]


def test_cli_bgstats_with_no_game_yet(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Store.open(data_dir).close()
    assert run_history(args(data_dir, "--bgstats", str(tmp_path / "p.json"))) == 0
    assert json.loads((tmp_path / "p.json").read_text()) == []
    assert "No game has results yet" in capsys.readouterr().out


def test_start_times_are_exported_and_read_back(played: Store, tmp_path: Path) -> None:
    records = played.history()
    assert records[0].games[0].started_at == datetime(2026, 3, 14, 19, 1, tzinfo=UTC)
    export_csv(played, tmp_path / "h.csv")
    export_json(played, tmp_path / "h.json")
    assert read_csv(tmp_path / "h.csv") == records
    assert read_json(tmp_path / "h.json")[0] == records
