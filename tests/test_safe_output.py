"""Output files a user names: device nodes, FIFOs and symlinks are never replaced.

Device nodes are copies made with `mknod` in a temp folder (a null device and a
full device): a test must never point an export at the machine's real /dev/null
or /dev/full, because a rename over them would replace them for every process.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator import safe_output
from moderator.safe_output import OutputError, write_bytes
from tests.device_nodes import FULL_DEVICE, NULL_DEVICE, FifoReader, assert_same_device, make_device


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_null_device_is_written_into_not_replaced(tmp_path: Path) -> None:
    null = make_device(tmp_path, "null", NULL_DEVICE)
    target = write_bytes(null, b"series_id,player\r\n" * 100)
    assert target.kind is safe_output.Kind.STREAM
    assert_same_device(null, NULL_DEVICE)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"], "no temp file left"


def test_a_full_device_reports_the_disk_full_and_stays_a_device(tmp_path: Path) -> None:
    full = make_device(tmp_path, "full", FULL_DEVICE)
    with pytest.raises(OutputError, match="No space left on device") as caught:
        write_bytes(full, b"x" * 10_000)
    assert str(caught.value).startswith(f"Could not write {full}")
    assert_same_device(full, FULL_DEVICE)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]


def test_a_fifo_gets_the_bytes_and_stays_a_fifo(tmp_path: Path) -> None:
    pipe = FifoReader(tmp_path)
    data = "Ann,Bob,👾\n".encode() * 5000  # larger than a pipe buffer
    write_bytes(pipe.path, data)
    assert pipe.join() == [data]
    assert stat.S_ISFIFO(os.lstat(pipe.path).st_mode)


def test_a_symlink_is_followed_and_stays_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real" / "scores.csv"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    write_bytes(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640, "a replaced file keeps its mode"
    assert sorted(p.name for p in real.parent.iterdir()) == ["scores.csv"]


def test_a_symlink_to_a_device_writes_into_the_device(tmp_path: Path) -> None:
    null = make_device(tmp_path, "null", NULL_DEVICE)
    link = tmp_path / "out.json"
    link.symlink_to(null)
    write_bytes(link, b"{}")
    assert link.is_symlink()
    assert_same_device(null, NULL_DEVICE)


def test_a_dangling_symlink_is_refused_with_a_sentence(tmp_path: Path) -> None:
    link = tmp_path / "out.csv"
    link.symlink_to(tmp_path / "missing" / "x.csv")
    with pytest.raises(OutputError, match=r"symbolic link to .* which does not exist"):
        write_bytes(link, b"data")
    assert link.is_symlink() and not (tmp_path / "missing").exists()


def test_a_symlink_loop_is_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.symlink_to(second)
    second.symlink_to(first)
    with pytest.raises(OutputError, match="loops"):
        write_bytes(first, b"data")
    assert first.is_symlink() and second.is_symlink()


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="it is a folder; give a file name"):
        safe_output.check_target(tmp_path)


def test_a_missing_folder_is_an_error_and_is_not_created(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match=r"does not exist .no folder is created"):
        write_bytes(tmp_path / "nope" / "deeper" / "a.csv", b"x")
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_takes_the_users_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_bytes(tmp_path / "export.csv", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "export.csv").stat().st_mode) == mode


def test_a_regular_file_is_replaced_atomically(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "export.csv"
    target.write_text("old")
    inode = target.stat().st_ino
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_ino != inode, "a new file was renamed into place"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.csv"]


def test_dash_means_standard_output(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    write_bytes("-", b"to stdout\n")
    assert capfdbinary.readouterr().out == b"to stdout\n"


def test_the_module_imports_nothing_of_the_app_and_no_third_party_code() -> None:
    """Storage and narration both use it: it must not pull in any layer.

    Its errors are `Worded` (moderator.domain.worded, to be translated where they
    are shown), so the pure domain package comes with it; nothing else of the app.
    """
    code = (
        "import sys, moderator.safe_output;"
        "mine = sorted(m for m in sys.modules if m.startswith('moderator')"
        " and not m.startswith('moderator.domain'));"
        "bad = [m for m in ('textual', 'rich', 'pyttsx3', 'sqlite3', 'platformdirs')"
        " if m in sys.modules];"
        "print(','.join(mine), '|', ','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "moderator,moderator.safe_output |"


def test_a_fifo_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    """Opening it for writing blocked until a reader came: forever, with none."""
    if os.name != "posix":
        pytest.skip("FIFOs are POSIX")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def export() -> None:
        try:
            write_bytes(fifo, b"series_id\r\n")
            outcome.append(None)
        except BaseException as error:  # handed to the test's thread
            outcome.append(error)

    worker = threading.Thread(target=export, daemon=True)
    worker.start()
    # Without the fix the open never returns: the join's limit only ends a failing test.
    worker.join(60)
    assert outcome, "the export blocked on a FIFO without reader"
    (error,) = outcome
    assert isinstance(error, OutputError)
    assert "nobody is reading it" in str(error) and str(fifo) in str(error)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_dash_with_standard_output_closed_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python sets sys.stdout to None when fd 1 was closed at start: AttributeError before."""
    monkeypatch.setattr(sys, "stdout", None)
    with pytest.raises(OutputError, match="standard output: it is closed"):
        safe_output.check_target("-")
    with pytest.raises(OutputError, match="standard output: it is closed"):
        safe_output.print_text("report\n")
