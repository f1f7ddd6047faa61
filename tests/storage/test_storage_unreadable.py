"""A log row the app cannot rebuild never blocks the night (issue 15 item 2).

The row is written with a separate connection, as a hand edit or another build
would. The game in progress is set aside when the store opens (kept, named in
one sentence with where it is); a game with results is left out of the history
and exports with a sentence. Resume, a new series, `history` and the exports work.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from no_message_left import toasts

from moderator.cli import build_parser
from moderator.domain import PlayerKnockedOut, ResultsDeclared, TurnPassed
from moderator.history_report.command import run_history
from moderator.storage import DATABASE_NAME, Store, Unfinished

PLAYERS = ["Ann", "Bob", "Cyd", "Dee"]
BOGUS = json.dumps({"type": "Bogus"})


def add_log_row(data_dir: Path, game_id: int, seq: int, entry: str) -> None:
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    with conn:
        conn.execute(
            "INSERT INTO log (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
            (game_id, seq, "2026-03-14T20:00:00+00:00", entry),
        )
    conn.close()


def rows(data_dir: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        return conn.execute("SELECT game_id, seq, at, entry FROM log ORDER BY 1, 2").fetchall()
    finally:
        conn.close()


def finish(store: Store, series: int) -> int:
    game = store.new_game(series, PLAYERS, 0)
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    game.record(ResultsDeclared((0,), (0, 0, 0, 1)))
    return game.game_id


def history(data_dir: Path, *extra: str) -> int:
    return run_history(build_parser().parse_args(["--data-dir", str(data_dir), "history", *extra]))


@pytest.mark.parametrize(
    "entry", [BOGUS, "{not json", json.dumps({"turn": 1}), json.dumps([1, 2])], ids=str
)
def test_an_unreadable_game_in_progress_is_set_aside_once(
    open_store: Callable[[], Store], data_dir: Path, entry: str
) -> None:
    store = open_store()
    series = store.new_series()
    finish(store, series)
    game = store.new_game(series, PLAYERS, 1)
    game.record(TurnPassed())
    store.close()
    add_log_row(data_dir, game.game_id, 3, entry)
    before = rows(data_dir)

    store = open_store()
    (notice,) = store.notices
    assert notice.startswith(f"Game 2 of series {series} (id {game.game_id}) cannot be rebuilt")
    assert "entry 3" in notice or "its log" in notice
    path = data_dir / DATABASE_NAME
    assert f"so it was set aside: it is kept exactly as it was in {path} (game id 2)" in notice
    assert notice.count(". ") == 0 and notice.endswith(".") and "\n" not in notice
    unfinished = store.unfinished()
    assert unfinished == Unfinished(series, None)
    assert [g.number for g in store.series_games(series)] == [1]
    again = store.new_game(series, PLAYERS, 0)  # the series goes on: a new game 2
    assert again.number == 2
    store.close()
    assert rows(data_dir)[: len(before)] == before  # nothing of the old game changed
    assert open_store().notices == []  # told once


def test_a_new_series_starts_beside_an_unreadable_game(
    open_store: Callable[[], Store], data_dir: Path
) -> None:
    store = open_store()
    game = store.new_game(store.new_series(), PLAYERS, 0)
    store.close()
    add_log_row(data_dir, game.game_id, 2, BOGUS)
    store = open_store()
    unfinished = store.unfinished()
    assert unfinished is not None
    store.abandon_series(unfinished.series_id)  # what `n` at the start screen does
    assert store.new_series() == 2


def test_history_and_exports_leave_out_an_unreadable_finished_game(
    open_store: Callable[[], Store],
    data_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = open_store()
    good = store.new_series()
    for _ in range(3):
        finish(store, good)
    broken = store.new_series()
    ids = [finish(store, broken) for _ in range(3)]
    store.close()
    add_log_row(data_dir, ids[1], 5, BOGUS)

    for reader in (Store.open_read_only(data_dir), open_store()):
        with reader:
            assert [record.series_id for record in reader.history()] == [good]
            assert len(reader.finished_games()) == 5
            (notice,) = reader.notices
            assert f"Game 2 of series {broken} (id {ids[1]}) cannot be rebuilt" in notice
            assert "left out of the history and exports" in notice
    capsys.readouterr()
    csv_file, json_file = tmp_path / "h.csv", tmp_path / "h.json"
    assert history(data_dir) == 0
    out, err = capsys.readouterr()
    assert "Winner: Dee" in out and "left out of the history" in err
    assert history(data_dir, "--csv", str(csv_file), "--json", str(json_file)) == 0
    assert csv_file.exists() and json_file.exists()
    assert history(data_dir, "--bgstats", str(tmp_path / "plays.json")) == 0


def test_history_works_when_the_open_game_is_unreadable(
    open_store: Callable[[], Store], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store()
    series = store.new_series()
    for _ in range(3):
        finish(store, series)
    game = store.new_game(store.new_series(), PLAYERS, 0)
    store.close()
    add_log_row(data_dir, game.game_id, 2, BOGUS)
    assert history(data_dir, "--bgstats", "-") == 0
    assert history(data_dir) == 0
    assert "Winner: Dee" in capsys.readouterr().out


def test_a_control_character_in_the_reason_is_not_passed_on(
    open_store: Callable[[], Store], data_dir: Path
) -> None:
    store = open_store()
    game = store.new_game(store.new_series(), PLAYERS, 0)
    store.close()
    add_log_row(data_dir, game.game_id, 2, json.dumps({"type": "\x1b[2J" + "x" * 500}))
    (notice,) = open_store().notices
    assert "\x1b" not in notice and len(notice) < 600


async def test_the_start_screen_tells_and_a_new_series_starts(tmp_path: Path) -> None:
    """At the table: the sentence at start, then `n` opens the setup (it was refused)."""
    from driving import key, until

    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.screens.setup import SetupScreen
    from tests.tui.app_driver import app_on

    folders = {name: tmp_path / name for name in ("data", "config", "cache")}
    for folder in folders.values():
        folder.mkdir()
    with Store.open(folders["data"]) as store:
        game = store.new_game(store.new_series(), PLAYERS, 0)
        game.record(TurnPassed())
    add_log_row(folders["data"], game.game_id, 3, BOGUS)
    narrator = make_narrator(VoiceSettings(enabled=False), None, folders["cache"], time_scale=0.01)
    app = app_on(folders, narrator)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: toasts(app))
        messages = toasts(app)
        assert sum("cannot be rebuilt" in m and "set aside" in m for m in messages) == 1
        await key(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))


class FailingSeriesQuery(sqlite3.Connection):
    """A real connection whose query for the unfinished series fails like a bad disk."""

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if "FROM series WHERE abandoned_at IS NULL" in sql:
            raise sqlite3.OperationalError("disk I/O error")
        return super().execute(sql, *args)  # type: ignore[arg-type]


def test_a_read_error_while_looking_for_unreadable_games_does_not_stop_the_app(
    data_dir: Path,
) -> None:
    """Only an unreadable log is set aside; any other trouble is said later, as before."""
    with Store.open(data_dir, connection_factory=FailingSeriesQuery) as store:
        assert store.notices == []
        assert store.new_series() == 1
