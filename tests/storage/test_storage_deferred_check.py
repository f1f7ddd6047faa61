"""The integrity check the app runs after its first frame does what the start-up check did."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from moderator.domain import TurnPassed
from moderator.storage import DATABASE_NAME, Store
from tests.storage.damage import corrupt_files

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")


def orphaned_page_database(data_dir: Path) -> bytes:
    """A database with a game in progress whose only damage `integrity_check` sees."""
    with Store.open(data_dir) as store:
        game = store.new_game(store.new_series(), PLAYERS, 0)
        for _ in range(30):
            game.record(TurnPassed())
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("DELETE FROM sqlite_master WHERE name = 'games_unfinished'")
    conn.commit()
    conn.close()
    return (data_dir / DATABASE_NAME).read_bytes()


def test_the_deferred_check_moves_a_damaged_file_aside_and_salvages_it(data_dir: Path) -> None:
    original = orphaned_page_database(data_dir)
    with Store.open(data_dir, check_integrity=False) as store:
        assert store.notices == [] and corrupt_files(data_dir) == []
        assert store.unfinished() is not None, "read as it is until the check runs"
        notices = store.check_integrity()
        (kept,) = corrupt_files(data_dir)
        assert kept.read_bytes() == original
        (notice,) = notices
        assert "failed its integrity check: Page" in notice and str(kept) in notice
        assert "Its 1 game was recovered in full." in notice
        assert store.notices == notices
        unfinished = store.unfinished()
        assert unfinished is not None, "every row read: the game is there to resume"
        assert unfinished.game is not None and len(unfinished.game.timeline.log) == 31
        assert store.new_series() == 2
        assert store.check_integrity() == [], "once"
    with Store.open(data_dir) as again:
        assert again.notices == [] and again.unfinished() is not None


def test_the_deferred_check_of_a_sound_file_changes_nothing(data_dir: Path) -> None:
    with Store.open(data_dir) as store:
        store.new_series()
    before = (data_dir / DATABASE_NAME).read_bytes()
    with Store.open(data_dir, check_integrity=False) as store:
        assert store.check_integrity() == []
        assert store.unfinished() is not None
    assert corrupt_files(data_dir) == []
    assert (data_dir / DATABASE_NAME).read_bytes() == before


def test_a_store_opened_with_the_check_has_nothing_left_to_check(data_dir: Path) -> None:
    orphaned_page_database(data_dir)
    with Store.open(data_dir) as store:
        (kept,) = corrupt_files(data_dir)
        assert str(kept) in store.notices[0]
        assert store.check_integrity() == []


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds descriptors in /proc")
def test_the_deferred_check_starts_afresh_while_a_child_is_forking(data_dir: Path) -> None:
    """A child forked at that moment holds a copy of the lock's descriptor until its exec.

    The app starts the voice's child process beside the check; the check used to drop
    the lock and take it again, found it held by that copy, and told the table that
    another moderator (this very process) had the database, leaving the store closed
    (two loaded suite runs in four). The copy is made here as `fork` makes it.
    """
    orphaned_page_database(data_dir)
    with Store.open(data_dir, check_integrity=False) as store:
        folder = str(data_dir.resolve())
        descriptors = [int(name) for name in os.listdir("/proc/self/fd")]
        held = [fd for fd in descriptors if _points_to(fd) == folder]
        assert held, "the store holds its folder's lock by a descriptor of the folder"
        copies = [os.dup(fd) for fd in held]  # the forking child's copies
        try:
            notices = store.check_integrity()
        finally:
            for fd in copies:
                os.close(fd)
        (notice,) = notices
        assert "failed its integrity check" in notice
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None, "salvaged, in use"
        unfinished.game.record(TurnPassed())


def _points_to(fd: int) -> str | None:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
