"""Another program's SQLite file is never written to; a newer one is said plainly.

Issue 15 item 3. A valid SQLite database without our `application_id` (any
`user_version`) is not a Mind Flayer database: `history` refuses it and leaves
the folder byte for byte as it was (it used to switch it to WAL and fail with
"check that the folder can be written", or move it aside); the app moves it
aside untouched and starts a fresh database, saying so.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import moderator
from moderator.cli import build_parser
from moderator.history_report.command import run_history
from moderator.storage import DATABASE_NAME, NewerDatabaseError, Store
from moderator.storage.database import newer_message
from moderator.storage.errors import ForeignDatabaseError
from moderator.storage.schema import APPLICATION_ID, SCHEMA_VERSION


def foreign_database(data_dir: Path, user_version: int, application_id: int = 0) -> Path:
    data_dir.mkdir()
    path = data_dir / DATABASE_NAME
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('waffles')")
    conn.execute(f"PRAGMA user_version = {user_version}")
    conn.execute(f"PRAGMA application_id = {application_id}")
    conn.commit()
    conn.close()
    return path


HOT_WAL = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA wal_autocheckpoint = 0")
conn.execute(f"PRAGMA user_version = {sys.argv[2]}")
conn.execute("CREATE TABLE recipes (name TEXT)")
conn.execute("INSERT INTO recipes VALUES ('waffles')")
os._exit(0)  # the other program stops without closing: its WAL is still to be checkpointed
"""


def foreign_database_with_a_hot_wal(data_dir: Path, user_version: int) -> Path:
    data_dir.mkdir()
    path = data_dir / DATABASE_NAME
    subprocess.run([sys.executable, "-c", HOT_WAL, str(path), str(user_version)], check=True)
    assert (data_dir / f"{DATABASE_NAME}-wal").stat().st_size > 0
    return path


def folder_bytes(data_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data_dir.iterdir())}


CASES = [
    pytest.param(0, 0, id="no-version"),
    pytest.param(1, 0, id="version-1"),
    pytest.param(SCHEMA_VERSION + 4, 0, id="version-above-ours"),
    pytest.param(2, 0x12345678, id="other-application-id"),
]


@pytest.mark.parametrize(("user_version", "application_id"), CASES)
def test_history_refuses_another_programs_database_and_changes_nothing(
    data_dir: Path, user_version: int, application_id: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path = foreign_database(data_dir, user_version, application_id)
    before = folder_bytes(data_dir)
    args = build_parser().parse_args(["--data-dir", str(data_dir), "history"])
    assert run_history(args) == 1
    err = capsys.readouterr().err
    assert f"The file {path} is not a Mind Flayer score database" in err
    assert "newer" not in err and "can be written" not in err
    assert folder_bytes(data_dir) == before
    with pytest.raises(ForeignDatabaseError):
        Store.open_read_only(data_dir)
    assert folder_bytes(data_dir) == before


@pytest.mark.parametrize(("user_version", "application_id"), CASES)
def test_the_app_moves_another_programs_database_aside_untouched(
    data_dir: Path, user_version: int, application_id: int
) -> None:
    path = foreign_database(data_dir, user_version, application_id)
    original = path.read_bytes()
    with Store.open(data_dir) as store:
        (kept,) = [p for p in data_dir.iterdir() if ".corrupt-" in p.name]
        assert kept.read_bytes() == original
        (notice,) = store.notices
        assert notice.startswith(f"The file {DATABASE_NAME} is not a Mind Flayer score database")
        assert f"kept untouched as {kept}" in notice and "damaged" not in notice
        assert store.new_series() == 1


def test_newer_sentence_does_not_contradict_itself(data_dir: Path) -> None:
    """A newer schema recorded under this very version (a development build)."""
    with Store.open(data_dir):
        pass
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(NewerDatabaseError) as caught:
        Store.open(data_dir)
    message = str(caught.value)
    assert f"{moderator.__version__} or newer" not in message
    assert "written by a newer mindflayer-moderator" in message
    assert f"this is version {moderator.__version__}" in message


@pytest.mark.parametrize(
    ("recorded", "said"),
    [("9.4.0", "mindflayer-moderator 9.4.0 or newer"), ("0.0.9", "a newer mindflayer-moderator")],
)
def test_newer_sentence_names_only_a_later_version(recorded: str, said: str) -> None:
    message = newer_message(Path("scores.sqlite3"), SCHEMA_VERSION + 1, recorded)
    assert f"written by {said} (schema" in message


def test_our_own_database_is_recognized(data_dir: Path) -> None:
    with Store.open(data_dir):
        pass
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()
    with Store.open_read_only(data_dir) as reader:
        assert reader.notices == []


@pytest.mark.parametrize("user_version", [0, 1])
def test_another_programs_write_ahead_log_is_not_checkpointed(
    data_dir: Path, user_version: int
) -> None:
    """A read-write connection closing would fold the WAL into the file: none is opened."""
    path = foreign_database_with_a_hot_wal(data_dir, user_version)
    before = {name: data for name, data in folder_bytes(data_dir).items() if "-shm" not in name}
    args = build_parser().parse_args(["--data-dir", str(data_dir), "history"])
    assert run_history(args) == 1
    after = {name: data for name, data in folder_bytes(data_dir).items() if "-shm" not in name}
    assert after == before
    with Store.open(data_dir) as store:
        assert "is not a Mind Flayer score database" in store.notices[0]
    (kept,) = [p for p in data_dir.iterdir() if p.name.endswith("Z") and ".corrupt-" in p.name]
    assert kept.read_bytes() == before[DATABASE_NAME]
    wal = f"{DATABASE_NAME}-wal"
    assert kept.with_name(kept.name + "-wal").read_bytes() == before[wal]
    assert path.exists()  # the fresh database
