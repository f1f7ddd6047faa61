"""A damaged database gives back every row it still holds (issue 33 items 1 to 3, and 5's FIFO).

The damage is made as the issue found it: one 4 KiB page of the `log` table
overwritten in a database of 8 games, 4 bytes zeroed in an index page of `games`,
the file cut to 0 bytes while the progress file names the game in progress, a
FIFO where the database should be. The files are real SQLite files on disk.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from moderator.storage import DATABASE_NAME, Store
from tests.storage.damage import (
    PAGE,
    build,
    corrupt_files,
    database,
    overwrite_page,
    pages,
    zero_bytes,
)
from tests.storage.history_command import history

GAMES = 8


def logs(path: Path) -> dict[int, list[tuple[object, ...]]]:
    """Every game's log rows, read from a sound file."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found: dict[int, list[tuple[object, ...]]] = {}
        for game_id, seq, at, entry in conn.execute("SELECT * FROM log ORDER BY 1, 2"):
            found.setdefault(int(game_id), []).append((seq, at, entry))
        return found
    finally:
        conn.close()


def complete_series(whole: list[int]) -> int:
    """How many of the two complete series (games 1-3 and 4-6) have all their games whole."""
    return sum(all(game in whole for game in (first, first + 1, first + 2)) for first in (1, 4))


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def damaged_log(data_dir: Path) -> tuple[dict[int, list[tuple[object, ...]]], bytes]:
    """8 games (two complete series, a third with a game in progress), a log page overwritten.

    Returns the logs as they were and the damaged file's bytes.
    """
    build(data_dir, GAMES, turns=35)
    path = database(data_dir)
    before = logs(path)
    leaves = pages(path, "log")
    overwrite_page(path, leaves[len(leaves) // 2])
    return before, path.read_bytes()


def test_a_damaged_log_page_gives_back_every_game_that_still_reads(
    data_dir: Path, damaged_log: tuple[dict[int, list[tuple[object, ...]]], bytes]
) -> None:
    before, damaged = damaged_log
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        (kept,) = corrupt_files(data_dir)
        after = logs(database(data_dir))
        assert kept.read_bytes() == damaged, "the damaged file is kept untouched"
        assert str(kept) in notice
        whole = [game for game in before if after.get(game) == before[game]]
        partial = [game for game in after if after[game] != before[game]]
        lost = [game for game in before if game not in after]
        assert lost or partial, "the damage cost something"
        assert len(whole) >= GAMES - 3, "one page holds the actions of two or three games"
        complete = complete_series(whole)
        assert f"{len(whole)} of {GAMES} games and {complete} complete series were recovered" in (
            notice
        )
        if lost:
            assert "could not be read" in notice and str(lost[0]) in notice
        for game in partial:  # a prefix of its actions, exactly as they were
            assert after[game] == before[game][: len(after[game])]
        assert len(store.history()) == complete, "every series whose games read whole"
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert unfinished.game.game_id == GAMES, "the game in progress can be resumed"
    with Store.open(data_dir) as again:
        assert again.notices == [], "told once: the salvaged file is sound"


def test_the_app_start_salvages_what_the_deferred_check_finds(
    data_dir: Path, damaged_log: tuple[dict[int, list[tuple[object, ...]]], bytes]
) -> None:
    """The app opens without the check and runs it after its first frame."""
    with Store.open(data_dir, check_integrity=False) as store:
        notices = store.check_integrity()
        (notice,) = notices
        assert f"of {GAMES} games and " in notice and "complete series were recovered" in notice
        assert len(store.history()) == complete_series(list(logs(database(data_dir))))
        assert len(corrupt_files(data_dir)) == 1


def test_history_reads_what_reads_and_writes_nothing(
    data_dir: Path,
    damaged_log: tuple[dict[int, list[tuple[object, ...]]], bytes],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It set the file aside, started an empty one and printed "No complete series yet"."""
    before = files(data_dir)
    assert history(data_dir) == 0
    out, err = capsys.readouterr()
    assert "No complete series yet" not in out
    assert out.count("Series ") >= 1, out
    assert "is damaged" in err and f"of {GAMES} games and " in err and "could not be read" in err
    assert "the file was not changed" in err
    after = files(data_dir)
    assert corrupt_files(data_dir) == []
    assert after[DATABASE_NAME] == before[DATABASE_NAME]
    assert set(after) - set(before) <= {DATABASE_NAME + "-shm", DATABASE_NAME + "-wal"}
    assert history(data_dir, "--json", "-") == 0, "the exports read the same rows"
    assert '"series"' in capsys.readouterr().out


def test_damage_to_an_index_alone_is_mended_and_nothing_is_lost(data_dir: Path) -> None:
    build(data_dir, GAMES, turns=35)
    path = database(data_dir)
    before = logs(path)
    (page,) = pages(path, "games_series_finished")
    zero_bytes(path, page * PAGE - 40, 4)  # inside the page's cells
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        assert "indexes were damaged" in notice and "every row was kept" in notice
        assert "games_series_finished" in notice
        assert logs(path) == before
        assert len(store.history()) == 2
    (kept,) = corrupt_files(data_dir)
    assert str(kept) in notice


def test_damage_past_the_middle_of_a_table_does_not_stop_its_reading(data_dir: Path) -> None:
    """The reading jumps over a damaged stretch of `games` and goes on after it."""
    build(data_dir, 240, turns=0, last_open=False)
    path = database(data_dir)
    before = logs(path)
    leaves = pages(path, "games")
    assert len(leaves) >= 3
    overwrite_page(path, leaves[1])
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        after = logs(path)
        assert max(after) == 240, "the games after the damaged page came back"
        lost = sorted(set(before) - set(after))
        assert lost and min(lost) > 1 and max(lost) < 240
        assert all(after[game] == before[game] for game in after)
        assert f"{len(after)} of 240 games" in notice
        assert store.journal.query("SELECT count(*) FROM game_players")[0][0] == 4 * len(after)


def test_a_database_cut_to_0_bytes_says_which_game_it_held(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(data_dir, 2, turns=38)  # game 2 of series 1 in progress, 39 actions
    database(data_dir).write_bytes(b"")
    assert history(data_dir) == 0
    err = capsys.readouterr().err
    assert "is empty or missing, but the progress file beside it names game 2 of series 1 " in err
    assert "with 39 saved actions" in err
    assert database(data_dir).read_bytes() == b"", "history wrote nothing"
    with Store.open(data_dir) as store:
        (notice,) = store.notices
        assert "names game 2 of series 1 with 39 saved actions" in notice
        assert str(database(data_dir)) in notice
    with Store.open(data_dir) as again:
        assert again.notices == [], "told once"


def test_a_missing_database_with_a_progress_file_says_so(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(data_dir, 1, turns=5)
    database(data_dir).unlink()
    assert history(data_dir) == 0
    assert "names game 1 of series 1 with 6 saved actions" in capsys.readouterr().err
    assert not database(data_dir).exists()


OPEN_STORE = """
import sys
from moderator.storage import Store, StorageError
try:
    Store.open(sys.argv[1])
except StorageError as error:
    print(error)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_where_the_database_should_be_is_refused_without_blocking(data_dir: Path) -> None:
    """It hung `history` and the app (blank screen, keys dead).

    Both run in a child, so a regression hangs the child (and is reported), not the suite.
    """
    data_dir.mkdir(parents=True)
    os.mkfifo(database(data_dir))
    refusal = f"The score database {database(data_dir)} is not a file"
    for command in (
        [sys.executable, "-c", OPEN_STORE, str(data_dir)],
        [sys.executable, "-m", "moderator", "--data-dir", str(data_dir), "history"],
    ):
        child = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert refusal in child.stdout + child.stderr, command
