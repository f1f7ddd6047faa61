"""A long history stays fast: the v4 index and score cache, and the reads they allow.

Speed is asserted as behaviour, never as a time: the number of statements the
history runs does not grow with the number of series, no game log is read for
it, and SQLite's plan for "games with results of a series" uses the index.
The timings themselves are in `bench/bench_history.py`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from moderator.domain import PlayerKnockedOut, Redo, ResultsDeclared, Team, Undo
from moderator.storage import DATABASE_NAME, Store, schema

FOUR = ("Ann", "Bob", "Cyd", "Dee")
V3_DUMP = Path(__file__).with_name("v3_database.sql")


class Traced(sqlite3.Connection):
    """A real connection that keeps every statement it runs (to count them)."""

    statements: list[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements = []
        self.set_trace_callback(self.statements.append)


def play_series(store: Store, games: int = 3) -> int:
    series = store.new_series()
    for _ in range(games):
        game = store.new_game(series, FOUR, 0)
        game.record(PlayerKnockedOut(1))
        game.record(PlayerKnockedOut(2))
        game.record(ResultsDeclared((0,), (1, 0, 0, 2)))
    return series


def history_statements(store: Store) -> list[str]:
    conn = store._journal.conn
    assert isinstance(conn, Traced)
    conn.statements.clear()
    store.history()
    return list(conn.statements)


def test_the_history_runs_the_same_few_statements_for_2_or_6_series(data_dir: Path) -> None:
    """It ran two queries per series and replayed every game's log (seconds at 20,000)."""
    with Store.open(data_dir, connection_factory=Traced) as store:
        for _ in range(2):
            play_series(store)
        two = history_statements(store)
        for _ in range(4):
            play_series(store)
        six = history_statements(store)
        assert len(store.history()) == 6
    assert len(six) == len(two) <= 3
    assert not [sql for sql in six if "SELECT seq, entry FROM log" in sql], "no game is replayed"


def test_counting_a_series_games_with_results_uses_the_index(store: Store) -> None:
    """The correlated count of `unfinished()` scanned every game once per series."""
    plan = store._journal.query(
        "EXPLAIN QUERY PLAN SELECT count(*) FROM games WHERE series_id = ? "
        "AND finished_at IS NOT NULL",
        (1,),
    )
    assert "games_series_finished" in " ".join(str(row[-1]) for row in plan)


def test_the_score_cache_follows_undo_and_redo_of_the_results(store: Store) -> None:
    series = play_series(store, games=2)
    game = store.new_game(series, FOUR, 1)
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    game.record(ResultsDeclared((3,), (0, 0, 0, 0)))
    assert [r.series_id for r in store.history()] == [series]
    game.record(Undo())
    assert store.history() == []
    assert [g.number for g in store.series_games(series)] == [1, 2]
    game.record(Redo())
    (record,) = store.history()
    assert record.games[-1].winner is Team.SANE
    assert record.games[-1].possessed == frozenset({"Dee"})


def test_a_game_without_its_cache_is_replayed_to_the_same_history(data_dir: Path) -> None:
    """A hand-edited file (cache emptied) loses nothing: the log is the truth."""
    with Store.open(data_dir) as store:
        play_series(store)
        cached = store.history()
        stats = store.player_stats()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute("UPDATE games SET score = 'not json' WHERE id = 1")
    conn.execute("UPDATE games SET score = NULL WHERE id = 2")
    conn.commit()
    conn.close()
    with Store.open(data_dir) as store:
        assert store.history() == cached
        assert store.player_stats() == stats


def load_v3(data_dir: Path) -> None:
    """The database the version-3 app wrote (tests/storage/v3_database.sql)."""
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.executescript(V3_DUMP.read_text(encoding="utf-8"))
    conn.close()


def test_a_version_3_file_gains_the_index_and_the_cache_and_keeps_its_history(
    data_dir: Path,
) -> None:
    load_v3(data_dir)
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    assert schema.user_version(conn) == 3
    conn.close()
    with Store.open(data_dir) as store:
        conn = store._journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION == 5
        assert conn.execute(
            "SELECT name FROM sqlite_master WHERE name = 'games_series_finished'"
        ).fetchall() == [("games_series_finished",)]
        cached = conn.execute("SELECT id, score IS NOT NULL FROM games ORDER BY id").fetchall()
        assert cached == [(1, 1), (2, 1), (3, 1), (4, 0)]
        (record,) = store.history()
        # As the version-3 app printed it (replaying the logs, the rename carried over).
        assert record.totals == {"Ann": 3, "Bob": 2, "Cyd": 6, "Noah B": 5}
        assert record.winners == ("Cyd",)
        assert [sorted(g.possessed) for g in record.games] == [["Ann"], ["Ann", "Bob"], ["Noah B"]]
        assert [g.first_player for g in record.games] == ["Cyd", "Ann", "Bob"]
        assert [s.name for s in store.player_stats()] == ["Cyd", "Noah B", "Ann", "Bob"]
        resumed = store.unfinished()
        assert resumed is not None and resumed.game is not None
        assert resumed.game.state.players == ("Eve", "Fay", "Gus", "Hal")


@pytest.mark.parametrize("broken", ['{"players": ["Ann"]}', "[1, 2]", '{"points": 3}'])
def test_an_unreadable_cache_is_no_score(broken: str) -> None:
    from moderator.storage.score_cache import score_from_text

    assert score_from_text(broken) is None


def test_the_history_command_reads_the_history_once(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`player_stats()` read the whole history a second time (each export ~3.4 s at 5k).

    The command reads flat rows now (`history_rows`), the records only when a game
    needs a replay: either way, once.
    """
    from moderator.cli import main
    from moderator.storage import history_rows

    with Store.open(data_dir) as store:
        play_series(store)
    reads: list[str] = []
    records, rows = Store.history, history_rows.complete_series

    def counted_records(self: Store) -> Any:
        reads.append("records")
        return records(self)

    def counted_rows(journal: Any) -> Any:
        reads.append("rows")
        return rows(journal)

    monkeypatch.setattr(Store, "history", counted_records)
    monkeypatch.setattr(history_rows, "complete_series", counted_rows)
    assert main(["--data-dir", str(data_dir), "history"]) == 0
    assert "Winner: Dee" in capsys.readouterr().out
    assert reads == ["rows"]
