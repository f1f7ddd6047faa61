"""`mindflayer history --summary`, `--since` and `--group` on the hand-counted history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.cli import main
from tests.storage.hand_history import build


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    build(folder)
    return folder


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["--lang", "en", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_summary_is_the_leaderboard_and_the_trends_without_the_wall(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = run(capsys, "--data-dir", str(data), "history", "--summary")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Everyone: 5 series, 15 games"
    assert lines[2].split() == ["Player", "▼Points", "Series", "won", "Sane", "Possessed"]
    # Best first: Ann and Bob 14 points (Ann won more series), then Cyd, Dee, Fay.
    assert [line.split()[0] for line in lines[3:8]] == ["Ann", "Bob", "Cyd", "Dee", "Fay"]
    ann = lines[3]
    assert ann.endswith("3/4  " + "█" * 13 + " 100%  " + "█" * 8 + "░" * 5 + "  60%")
    assert "Longest winning streak: Ann, 2 series in a row (series 4 to 5)." in lines
    assert "Quickest game: 7 min (series 3, game 2, 5 players), won by the Possessed." in lines
    assert "Won by:" not in out  # no per-series wall
    assert all(len(line) <= 80 for line in lines)


def test_group_and_since_narrow_the_summary(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--data-dir", str(data), "history", "--summary", "--since", "2026-02-08")
    status, out, _ = run(capsys, *args, "--group", "Dee", "Cyd", "Bob", "Ann")
    assert status == 0
    assert out.splitlines()[0] == "This table (Ann, Bob, Cyd, Dee): 2 series, 6 games"
    assert "Fay" not in out
    assert "2026-01" not in out and "2026-03" in out


def test_since_narrows_the_printed_history(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--data-dir", str(data), "history", "--since", "2026-03-01")
    assert status == 0
    assert "Series 5:" in out and "Series 4:" not in out


def test_the_players_table_says_its_columns_count_wins(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "--data-dir", str(data), "history")
    lines = out.splitlines()
    header = lines[lines.index("Players over all complete series") + 1]
    assert "Won as Sane" in header and "Won as Possessed" in header


def test_a_date_that_is_not_one_is_a_sentence(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "--data-dir", str(data), "history", "--since", "2026-13-01")
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "'2026-13-01' is not a date: write it as YYYY-MM-DD" in err


def test_the_exports_stay_whole(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "--data-dir", str(data), "history", "--since", "2026-03-01", "--json", "-"
    )
    assert status == 2
    assert "the exports (--csv, --json, --bgstats) always hold the whole history" in err
    status, out, _ = run(capsys, "--data-dir", str(data), "history", "--json", "-")
    assert status == 0
    assert len(json.loads(out)["series"]) == 5
