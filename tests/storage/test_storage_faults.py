"""Damaged, newer, busy and unwritable databases: a clear sentence, nothing lost."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from moderator.domain import (
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    Timeline,
    TurnPassed,
)
from moderator.domain.timeline import Undo, entry_from_json
from moderator.storage import (
    DATABASE_NAME,
    DatabaseInUseError,
    NewerDatabaseError,
    SavedGame,
    StorageWriteError,
    Store,
)
from moderator.storage.schema import SCHEMA_VERSION

PLAYERS = ["Ann", "Bob", "Cyd", "Dee"]


def disk_timeline(data_dir: Path, game_id: int) -> Timeline:
    """The game as a restarted app would rebuild it, read with a separate connection."""
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        rows = conn.execute(
            "SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    return Timeline.from_log(entry_from_json(json.loads(text)) for (text,) in rows)


def assert_memory_equals_disk(game: SavedGame, data_dir: Path) -> None:
    on_disk = disk_timeline(data_dir, game.game_id)
    assert on_disk.log == game.timeline.log
    assert on_disk.state == game.state
    assert on_disk.redo_stack == game.timeline.redo_stack


def make_database_with_a_game(data_dir: Path) -> None:
    with Store.open(data_dir) as store:
        game = store.new_game(store.new_series(), PLAYERS, 0)
        for _ in range(30):
            game.record(TurnPassed())


def corrupt_files(data_dir: Path) -> list[Path]:
    return sorted(p for p in data_dir.iterdir() if ".corrupt-" in p.name)


# -- damaged files -----------------------------------------------------------------


def test_garbage_file_is_kept_aside_and_a_fresh_database_starts(data_dir: Path) -> None:
    data_dir.mkdir()
    garbage = os.urandom(8192)
    (data_dir / DATABASE_NAME).write_bytes(garbage)
    with Store.open(data_dir) as store:
        (kept,) = corrupt_files(data_dir)
        assert kept.read_bytes() == garbage
        assert len(store.notices) == 1
        assert "not an SQLite database" in store.notices[0]
        assert str(kept) in store.notices[0]
        assert store.new_series() == 1
        assert store.unfinished() is not None


def test_database_failing_integrity_check_is_kept_aside(data_dir: Path) -> None:
    make_database_with_a_game(data_dir)
    path = data_dir / DATABASE_NAME
    assert not (data_dir / f"{DATABASE_NAME}-wal").exists()  # checkpointed on close
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page_size
    for page in range(1, len(data) // page_size):  # every page but the header page
        start = page * page_size
        data[start : start + page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))
    with Store.open(data_dir) as store:
        (kept,) = corrupt_files(data_dir)
        assert kept.read_bytes() == bytes(data)
        assert "damaged" in store.notices[0] and str(kept) in store.notices[0]
        assert store.unfinished() is None  # a fresh, empty database


def test_database_with_an_orphaned_page_fails_integrity_check(data_dir: Path) -> None:
    """No read error at all: only `PRAGMA integrity_check` notices this damage."""
    make_database_with_a_game(data_dir)
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("DELETE FROM sqlite_master WHERE name = 'games_unfinished'")
    conn.commit()
    conn.close()
    original = (data_dir / DATABASE_NAME).read_bytes()
    with Store.open(data_dir) as store:
        (kept,) = corrupt_files(data_dir)
        assert kept.read_bytes() == original
        assert "failed its integrity check: Page" in store.notices[0]
        assert "never used" in store.notices[0] and "\n" not in store.notices[0]


def test_another_programs_database_is_not_touched(data_dir: Path) -> None:
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    original = (data_dir / DATABASE_NAME).read_bytes()
    with Store.open(data_dir) as store:
        (kept,) = corrupt_files(data_dir)
        assert kept.read_bytes() == original
        assert "another program" in store.notices[0]


def test_wal_sidecar_moves_with_the_damaged_file(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / DATABASE_NAME).write_bytes(b"not a database at all" * 100)
    (data_dir / f"{DATABASE_NAME}-wal").write_bytes(b"orphan wal")
    with Store.open(data_dir):
        (kept, kept_wal) = corrupt_files(data_dir)
        assert kept_wal.name == kept.name + "-wal"
        assert kept_wal.read_bytes() == b"orphan wal"


# -- newer schema -----------------------------------------------------------------


def test_newer_database_is_refused_and_left_byte_for_byte(data_dir: Path) -> None:
    make_database_with_a_game(data_dir)
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.execute("UPDATE meta SET value = '9.4.0' WHERE key = 'app_version'")
    conn.commit()
    conn.close()
    before = {p.name: p.read_bytes() for p in data_dir.iterdir()}
    for _ in range(2):  # the lock is released after a refusal
        with pytest.raises(NewerDatabaseError) as caught:
            Store.open(data_dir)
        message = str(caught.value)
        assert "mindflayer-moderator 9.4.0 or newer" in message
        assert f"schema version {SCHEMA_VERSION + 5}" in message
        assert "Nothing was changed" in message
    after = {p.name: p.read_bytes() for p in data_dir.iterdir()}
    assert after == before


# -- a second instance ----------------------------------------------------------------


def test_second_instance_in_the_same_process_is_refused(data_dir: Path) -> None:
    with Store.open(data_dir):
        with pytest.raises(DatabaseInUseError) as caught:
            Store.open(data_dir)
        assert f"(process {os.getpid()})" in str(caught.value)
        assert "Close it first" in str(caught.value)
    Store.open(data_dir).close()  # free again once the first one closed


def test_second_instance_in_another_process_is_refused(data_dir: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import sys, time
                from moderator.storage import Store
                store = Store.open(sys.argv[1])
                print("ready", flush=True)
                time.sleep(60)
                """
            ),
            str(data_dir),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(DatabaseInUseError, match=f"process {holder.pid}"):
            Store.open(data_dir)
    finally:
        holder.kill()
        holder.wait()
    Store.open(data_dir).close()  # the kernel dropped the dead holder's lock


# -- writes that fail ----------------------------------------------------------------


class FailingCommit(sqlite3.Connection):
    """A real connection whose COMMIT can be made to fail like a full disk."""

    fail: bool = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if FailingCommit.fail and sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)


@pytest.fixture
def failing_store(data_dir: Path) -> Any:
    FailingCommit.fail = False
    store = Store.open(data_dir, connection_factory=FailingCommit)
    yield store
    FailingCommit.fail = False
    store.close()


def test_failed_commit_leaves_memory_equal_to_disk(failing_store: Store, data_dir: Path) -> None:
    game = failing_store.new_game(failing_store.new_series(), PLAYERS, 0)
    game.record(TurnPassed())
    FailingCommit.fail = True
    for entry in (TurnPassed(), MeetingStarted(()), Undo()):
        before = game.state
        with pytest.raises(StorageWriteError, match="disk is full") as caught:
            game.record(entry)
        assert "did not happen" in str(caught.value)
        assert game.state == before
        assert_memory_equals_disk(game, data_dir)
    FailingCommit.fail = False
    game.record(TurnPassed())  # the next action takes the sequence number the failed one had
    assert_memory_equals_disk(game, data_dir)


def test_failed_results_commit_keeps_the_game_unfinished(
    failing_store: Store, data_dir: Path
) -> None:
    series = failing_store.new_series()
    game = failing_store.new_game(series, PLAYERS, 0)
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    FailingCommit.fail = True
    with pytest.raises(StorageWriteError):
        game.record(ResultsDeclared((0,), (0, 0, 0, 0)))
    assert game.state.result is None
    assert_memory_equals_disk(game, data_dir)
    assert failing_store.series_games(series) == []
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    assert conn.execute("SELECT finished_at FROM games").fetchall() == [(None,)]
    conn.close()


def test_failed_new_series_and_new_game_leave_nothing(failing_store: Store) -> None:
    series = failing_store.new_series()
    FailingCommit.fail = True
    with pytest.raises(StorageWriteError, match="new series"):
        failing_store.new_series()
    with pytest.raises(StorageWriteError, match="new game"):
        failing_store.new_game(series, PLAYERS, 0)
    FailingCommit.fail = False
    assert failing_store._journal.query("SELECT count(*) FROM series") == [(1,)]
    assert failing_store._journal.query("SELECT count(*) FROM games") == [(0,)]
    assert failing_store.unfinished() is not None
    assert failing_store.new_game(series, PLAYERS, 0).number == 1


def test_real_sqlite_full_error_is_refused_cleanly(store: Store, data_dir: Path) -> None:
    """SQLite's own SQLITE_FULL, produced by capping the database size."""
    game = store.new_game(store.new_series(), PLAYERS, 0)
    conn = store._journal.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageWriteError, match="disk is full"):
        for _ in range(5000):
            game.record(TurnPassed())
    assert_memory_equals_disk(game, data_dir)
    conn.execute("PRAGMA max_page_count = 1000000")
    game.record(TurnPassed())
    assert_memory_equals_disk(game, data_dir)


def test_read_only_database_refuses_with_a_sentence(store: Store, data_dir: Path) -> None:
    game = store.new_game(store.new_series(), PLAYERS, 0)
    store._journal.conn.execute("PRAGMA query_only = ON")  # SQLITE_READONLY on any write
    with pytest.raises(StorageWriteError, match="cannot be written"):
        game.record(TurnPassed())
    with pytest.raises(StorageWriteError, match="cannot be written"):
        store.new_series()
    assert_memory_equals_disk(game, data_dir)
    store._journal.conn.execute("PRAGMA query_only = OFF")
    game.record(TurnPassed())
    assert_memory_equals_disk(game, data_dir)


def test_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageWriteError, match="cannot be created"):
        Store.open(blocker / "data")


def test_unwritable_lock_file_refuses_to_open(data_dir: Path) -> None:
    """Root ignores chmod, so make the lock file impossible to open another way."""
    (data_dir / f"{DATABASE_NAME}.lock").mkdir(parents=True)
    with pytest.raises(StorageWriteError, match="cannot be written"):
        Store.open(data_dir)
    assert not (data_dir / DATABASE_NAME).exists()
