"""A damaged write-ahead log in a fresh database: the table is told what it cost.

Issue 15 item 1. A real child process opens a fresh data folder, starts a game of
four players and records twelve turns (like Ctrl+S and `n` x12 at the table),
then is killed (`Popen.kill`: SIGKILL on Unix) so the WAL stays as it was. The
test writes 64 garbage bytes into the WAL and reopens: whatever the damage, the
sentence names the game and how many actions it lost.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from moderator.storage import DATABASE_NAME, Store

CHILD = textwrap.dedent(
    """
    import sys
    from moderator.domain import TurnPassed
    from moderator.storage import Store
    store = Store.open(sys.argv[1])
    if sys.argv[2] == "no-checkpoint":  # a fault: every checkpoint after opening fails
        store.journal.checkpoint = lambda: False
    game = store.new_game(store.new_series(), ["Ann", "Bob", "Cyd", "Dee"], 0)
    for _ in range(12):
        game.record(TurnPassed())
    print(game.game_id, len(game.timeline.log), flush=True)
    sys.stdin.read()  # killed here, mid-session
    """
)
WAL_HEADER = 32
FRAME_HEADER = 24


def play_and_kill(data_dir: Path, mode: str = "normal") -> int:
    """Run the child to its twelfth turn, kill it; return the entries it acknowledged."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        game_id, entries = map(int, child.stdout.readline().split())
    finally:
        child.kill()
        child.wait()
    assert (game_id, entries) == (1, 13)
    return entries


def damage(data_dir: Path, where: str) -> None:
    wal = data_dir / f"{DATABASE_NAME}-wal"
    data = bytearray(wal.read_bytes())
    page_size = int.from_bytes(data[8:12], "big")
    frame = FRAME_HEADER + page_size
    frames = (len(data) - WAL_HEADER) // frame
    assert frames >= 4, f"the WAL holds only {frames} frames"
    offset = {
        "offset-132": 132,
        "wal-header": 0,
        "middle-frame": WAL_HEADER + (frames // 2) * frame + FRAME_HEADER + 100,
        "last-frame": WAL_HEADER + (frames - 1) * frame + FRAME_HEADER + 100,
    }[where]
    data[offset : offset + 64] = b"\xa5" * 64
    wal.write_bytes(bytes(data))


@pytest.mark.parametrize("where", ["offset-132", "wal-header", "middle-frame", "last-frame"])
def test_damaged_wal_of_a_fresh_database_names_the_game_and_its_loss(
    data_dir: Path, where: str
) -> None:
    entries = play_and_kill(data_dir)
    damage(data_dir, where)
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        kept = len(unfinished.game.timeline.log)
        assert 1 <= kept < entries  # the game's start is in the database file
        lost = entries - kept
        assert notice.startswith("The score database's write-ahead log was damaged: ")
        what = "its last action" if lost == 1 else f"its last {lost} actions"
        assert f"Game 1 of series 1 lost {what}" in notice
        assert f"the table had saved {entries}; {kept} " in notice
    with Store.open(data_dir) as store:
        assert store.notices == [], "the loss is told once"


def test_a_game_whose_row_the_damage_took_is_still_named(data_dir: Path) -> None:
    """Even with no checkpoint after opening (a fault), the game is named from the mark."""
    entries = play_and_kill(data_dir, "no-checkpoint")
    damage(data_dir, "offset-132")  # the first frame: SQLite drops the whole WAL
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        assert store.unfinished() is None  # the series and the game went with the WAL
        assert f"Game 1 of series 1 lost all its {entries} actions" in notice
        assert "nothing of it is left on disk" in notice
    with Store.open(data_dir) as store:
        assert store.notices == []


def test_a_deleted_database_is_said_once_not_counted_as_a_wal_loss(data_dir: Path) -> None:
    """Deleted on purpose or lost, the table is told once what the progress file named
    (issue 33: a database gone while a game was played started afresh without a word)."""
    entries = play_and_kill(data_dir)
    for path in data_dir.iterdir():
        if path.name.startswith(DATABASE_NAME) and not path.name.endswith((".lock", ".progress")):
            path.unlink()
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        assert "is empty or missing, but the progress file beside it names game 1 of series 1" in (
            notice
        )
        assert f"with {entries} saved actions" in notice and "write-ahead log" not in notice
        assert store.unfinished() is None
    with Store.open(data_dir) as store:
        assert store.notices == []


def test_an_undamaged_wal_after_a_kill_loses_nothing(data_dir: Path) -> None:
    entries = play_and_kill(data_dir)
    with Store.open(data_dir) as store:
        assert store.notices == []
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert len(unfinished.game.timeline.log) == entries


def test_a_mark_written_by_the_previous_version_is_still_read(data_dir: Path) -> None:
    """0.1.0 wrote `game_id entries started_at`; its loss is still reported."""
    from moderator.domain import TurnPassed

    with Store.open(data_dir) as store:
        game = store.new_game(store.new_series(), ["Ann", "Bob", "Cyd", "Dee"], 0)
        game.record(TurnPassed())
        started = store.journal.query("SELECT started_at FROM games")[0][0]
    (data_dir / f"{DATABASE_NAME}.progress").write_text(f"{game.game_id} 5 {started}\n")
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        assert "Game 1 of series 1 lost its last 3 actions (the table had saved 5; 2 " in notice
