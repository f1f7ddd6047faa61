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
from tests.storage.damage import corrupt_files

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
    assert failing_store.journal.query("SELECT count(*) FROM series") == [(1,)]
    assert failing_store.journal.query("SELECT count(*) FROM games") == [(0,)]
    assert failing_store.unfinished() is not None
    assert failing_store.new_game(series, PLAYERS, 0).number == 1


def test_real_sqlite_full_error_is_refused_cleanly(store: Store, data_dir: Path) -> None:
    """SQLite's own SQLITE_FULL, produced by capping the database size."""
    game = store.new_game(store.new_series(), PLAYERS, 0)
    conn = store.journal.conn
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
    store.journal.conn.execute("PRAGMA query_only = ON")  # SQLITE_READONLY on any write
    with pytest.raises(StorageWriteError, match="cannot be written"):
        game.record(TurnPassed())
    with pytest.raises(StorageWriteError, match="cannot be written"):
        store.new_series()
    assert_memory_equals_disk(game, data_dir)
    store.journal.conn.execute("PRAGMA query_only = OFF")
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


def test_data_folder_that_is_a_file_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "scores"
    blocker.write_text("not a folder")
    with pytest.raises(StorageWriteError) as caught:
        Store.open(blocker)
    assert str(caught.value).startswith(f"Data folder {blocker} is a file")
    assert "File exists" not in str(caught.value)
    assert blocker.read_text() == "not a folder"


# -- reading needs no write lock ------------------------------------------------------


def _history_args(data_dir: Path) -> Any:
    from moderator.cli import build_parser

    return build_parser().parse_args(["--data-dir", str(data_dir), "history"])


def _play_a_series(data_dir: Path) -> None:
    with Store.open(data_dir) as store:
        series = store.new_series()
        for _ in range(3):
            game = store.new_game(series, PLAYERS, 0)
            game.record(PlayerKnockedOut(1))
            game.record(PlayerKnockedOut(2))
            game.record(ResultsDeclared((0,), (0, 0, 0, 1)))


def test_history_reads_a_folder_where_the_lock_cannot_be_taken(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only folder refuses the lock file; root ignores chmod, so block it instead."""
    from moderator.history_report.command import run_history

    _play_a_series(data_dir)
    (data_dir / f"{DATABASE_NAME}.lock").unlink()
    (data_dir / f"{DATABASE_NAME}.lock").mkdir()
    with pytest.raises(StorageWriteError, match="cannot be written"):
        Store.open(data_dir)  # the app still needs the lock to write
    assert run_history(_history_args(data_dir)) == 0
    out, err = capsys.readouterr()
    assert "Winner: Dee (6 points)" in out and err == ""


class ReadOnlyFolderReader(sqlite3.Connection):
    """What SQLite does for a WAL reader in a folder it cannot write (measured as a
    non-root user): it cannot create the `-shm` file, so `mode=ro` fails."""

    opened: list[str] = []

    def __init__(self, database: str, *args: Any, **kwargs: Any) -> None:
        ReadOnlyFolderReader.opened.append(database)
        if "immutable=1" not in database:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        super().__init__(database, *args, **kwargs)


def test_read_only_store_in_a_folder_that_cannot_be_written(data_dir: Path) -> None:
    _play_a_series(data_dir)
    assert not (data_dir / f"{DATABASE_NAME}-wal").exists()  # a clean exit emptied it
    ReadOnlyFolderReader.opened.clear()
    with Store.open_read_only(data_dir, connection_factory=ReadOnlyFolderReader) as reader:
        (record,) = reader.history()
        assert record.winners == ("Dee",)
    assert ["immutable=1" in uri for uri in ReadOnlyFolderReader.opened] == [False, True]


def test_history_does_not_create_a_data_folder(tmp_path: Path) -> None:
    from moderator.history_report.command import run_history

    assert run_history(_history_args(tmp_path / "none")) == 0
    assert not (tmp_path / "none").exists()


# -- a damaged write-ahead log ----------------------------------------------------------

WAL_CHILD = textwrap.dedent(
    """
    import os, sys
    from moderator.domain import PlayerKnockedOut, ResultsDeclared, TurnPassed
    from moderator.storage import Store
    store = Store.open(sys.argv[1])
    series = store.new_series()
    first = store.new_game(series, ["Ann", "Bob", "Cyd", "Dee"], 0)
    for _ in range(60):  # a long first game: most of the WAL, were it not checkpointed
        first.record(TurnPassed())
    first.record(PlayerKnockedOut(1))
    first.record(PlayerKnockedOut(2))
    first.record(ResultsDeclared((0,), (0, 0, 0, 2)))
    second = store.new_game(series, ["Ann", "Bob", "Cyd", "Dee"], 1)
    for _ in range(12):
        second.record(TurnPassed())
    print(second.game_id, len(second.timeline.log), flush=True)
    os._exit(0)  # a crash: no clean close, so the WAL stays as it is
    """
)


def test_garbage_in_the_wal_costs_at_most_the_game_in_progress_and_is_reported(
    data_dir: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WAL_CHILD, str(data_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    game_id, entries = map(int, done.stdout.split())
    assert entries == 13
    wal = data_dir / f"{DATABASE_NAME}-wal"
    data = bytearray(wal.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = b"\xa5" * 64
    wal.write_bytes(bytes(data))

    with Store.open(data_dir) as store:
        (notice,) = store.notices
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        game = unfinished.game
        kept = len(game.timeline.log)
        assert game.game_id == game_id and 1 <= kept < entries
        assert "write-ahead log was damaged" in notice
        assert f"Game 2 of series {game.series_id} lost its last {entries - kept} actions" in notice
        assert f"the table had saved {entries}; {kept} are left on disk" in notice
        # The game that ended before the damage is whole: checkpointed at its end.
        (first,) = store.series_games(game.series_id)
        assert first.winner.value == "sane" and first.points["Dee"] == 3
        assert len(store.load_game(first.game_id).timeline.log) == 64
    with Store.open(data_dir) as store:
        assert store.notices == [], "the loss is reported once"
