"""The export files keep their bytes: CSV, JSON and BG Stats plays against files on disk.

`export_bytes/` holds the three files as the app wrote them before its two export
routes became one (issue 32 item 6): written then from the store's records by the
writers since removed, of the history built here (hostile names: quotes, formula
starts, markup, emoji, a decomposed accent; then a plain evening). The command's
route must write them byte for byte, from the flat rows and, when every game
needs a replay, from the store's records.
"""

from __future__ import annotations

import argparse
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator.history_report.command import open_for_reading, run_history
from moderator.history_report.output import Wanted, read_output, row_output
from moderator.storage import DATABASE_NAME, Store, history_rows
from moderator.storage.bgstats import Plays
from moderator.storage.history_rows import NeedsReplay
from tests.storage.test_storage_history import EVENING_1, HOSTILE, Plan, play_series

EXPECTED = Path(__file__).with_name("export_bytes")
EXPORTED_AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def history_dir(store: Store, data_dir: Path) -> Path:
    plan: Plan = (tuple(range(2, 10)), (0, 1, 2), (1,) * 10)
    play_series(store, HOSTILE, [plan] * 3)
    play_series(store, ["Ann", "Bob", "Cyd", "Dee"], EVENING_1)
    store.close()
    return data_dir


def drop_every_cache(data_dir: Path) -> None:
    """No game's score cache: the command must replay every game from its log."""
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    with conn:
        conn.execute("UPDATE games SET score = NULL")
    conn.close()


def exported(data_dir: Path, tmp_path: Path) -> dict[str, bytes]:
    """The CSV from `mindflayer history --csv`, the JSON and the plays (UTC) as it makes them."""
    args = argparse.Namespace(
        data_dir=str(data_dir), csv=str(tmp_path / "history.csv"), json=None, bgstats=None
    )
    assert run_history(args) == 0
    store = open_for_reading(data_dir)
    assert store is not None
    with store:
        output = read_output(store, Wanted(json=True), EXPORTED_AT)
        try:
            games = list(history_rows.finished_games(store.journal))
        except NeedsReplay:
            found = store.finished_games()
            games = [history_rows.game_of_score(game, kind) for kind, game in enumerate(found)]
    return {
        "history.csv": (tmp_path / "history.csv").read_bytes(),
        "history.json": output.json.encode(),
        "plays.json": Plays(UTC).text(games).encode(),
    }


@pytest.mark.parametrize("name", ["history.csv", "history.json", "plays.json"])
def test_the_rows_route_writes_the_files_byte_for_byte(
    history_dir: Path, tmp_path: Path, name: str
) -> None:
    assert exported(history_dir, tmp_path)[name] == (EXPECTED / name).read_bytes()


@pytest.mark.parametrize("name", ["history.csv", "history.json", "plays.json"])
def test_a_replayed_history_writes_the_same_bytes(
    history_dir: Path, tmp_path: Path, name: str
) -> None:
    drop_every_cache(history_dir)
    store = open_for_reading(history_dir)
    assert store is not None
    with store, pytest.raises(NeedsReplay):
        row_output(store, Wanted(csv=True))
    assert exported(history_dir, tmp_path)[name] == (EXPECTED / name).read_bytes()
