"""Writing a file the user named, without ever replacing what is not a regular file.

Exports (`history --csv/--json/--bgstats`) and `narrate --wav` write to a path
typed by the user. Writing a temp file and renaming it over the target keeps a
good file intact if the export is interrupted, but renamed over a device node,
a FIFO or a symlink it *replaces* that node: as root, `--csv /dev/null` would
turn the machine's `/dev/null` into a regular file for every process. So the
kind of target decides how it is written:

- a new path or a regular file: temp file in the same folder, flushed to disk,
  then `os.replace` (readers see the old file or the whole new one). A new file
  takes the user's umask; a replaced file keeps its permission bits.
- a character device or a FIFO (a terminal, `/dev/null`, `mkfifo` pipe): written
  straight into, like a shell redirection; nothing is created or renamed.
- `-`: standard output.
- a symlink: followed to what it points at, which then obeys the rules above;
  the link itself is never replaced. A link to nothing, or a loop, is refused.
- a folder, a block device, a socket, or a path in a folder that does not
  exist: refused with a sentence before anything is written (no folder is
  created).

Stdlib only (and `moderator.domain.worded`), free of the app's layers, so storage
and narration can both use it. Every refusal is an `OutputError` whose `str()` is
the English sentence; `moderator.i18n.refusals.refusal` says it in the table's.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from moderator.domain.worded import N_, Worded

#: The path that means "standard output".
STDOUT = "-"
_TEMP_ATTEMPTS = 100
_STDOUT_CLOSED = N_("Could not write to standard output: it is closed. Nothing was written.")
_LOOP = N_("Could not write {path}: it is a symbolic link that loops. Nothing was written.")
_NOT_WRITTEN = N_("Could not write {path} ({error}); nothing was written.")
_STDOUT_FAILED = N_("Could not write to standard output ({error}).")
_NOT_OPENED = N_("Could not open {path} ({error}); nothing was written.")


class OutputError(Worded):
    """The output could not be written; `str()` says why in English, `refusal` in the table's.

    A `Worded` error (template + fields) because this module sits below
    `moderator.i18n`: the path as the user gave it and the system's error text are
    fields, shown as they are.
    """


class Kind(enum.Enum):
    """How a target is written."""

    STDOUT = "stdout"
    #: A regular file or a new path: temp file + `os.replace`.
    FILE = "file"
    #: A character device or a FIFO: written straight into.
    STREAM = "stream"


@dataclass(frozen=True)
class Target:
    """A checked output target: what the user typed and where the bytes will go."""

    #: The path as the user gave it (used in messages).
    given: str
    kind: Kind
    #: The real destination (the symlink's target when the user named a link).
    path: Path | None = None
    #: Permission bits to keep when replacing an existing regular file.
    mode: int | None = None


def check_target(given: str | os.PathLike[str]) -> Target:
    """Decide how `given` will be written, or raise `OutputError` before any work.

    Call it before an expensive step (rendering audio) so a bad target is
    refused at once; `write_bytes` checks again at write time.
    """
    text = os.fspath(given)
    if text == STDOUT:
        if sys.stdout is None:
            raise OutputError(_STDOUT_CLOSED)  # said before any work (rendering audio)
        return Target(text, Kind.STDOUT)
    if not text:
        raise OutputError(N_("No output file was named."))
    path = Path(text)
    try:
        link = os.lstat(path)
    except FileNotFoundError:
        return _new_file(text, path)
    except OSError as error:
        raise OutputError(_NOT_WRITTEN, path=text, error=_reason(error)) from error
    real = path
    info = link
    if stat.S_ISLNK(link.st_mode):
        try:
            real = path.resolve(strict=True)
            info = os.stat(real)
        except RuntimeError as error:  # a loop, on Python versions that raise it
            raise OutputError(_LOOP, path=text) from error
        except FileNotFoundError as error:
            raise OutputError(
                N_(
                    "Could not write {path}: it is a symbolic link to {link}, which does not "
                    "exist (links are followed, never replaced). Nothing was written."
                ),
                path=text,
                link=os.readlink(path),
            ) from error
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise OutputError(_LOOP, path=text) from error
            raise OutputError(_NOT_WRITTEN, path=text, error=_reason(error)) from error
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return Target(text, Kind.FILE, real, stat.S_IMODE(mode))
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return Target(text, Kind.STREAM, real)
    if stat.S_ISDIR(mode):
        raise OutputError(
            N_(
                "Could not write {path}: it is a folder; give a file name "
                "(for example {example}). Nothing was written."
            ),
            path=text,
            example=str(path / "export"),
        )
    what = (
        N_("a block device")
        if stat.S_ISBLK(mode)
        else N_("a socket")
        if stat.S_ISSOCK(mode)
        else N_("not a regular file")
    )
    raise OutputError(
        N_("Could not write {path}: it is {what}. Nothing was written."), path=text, what=what
    )


def _new_file(text: str, path: Path) -> Target:
    folder = path.parent
    try:
        info = os.stat(folder)
    except FileNotFoundError as error:
        raise OutputError(
            N_(
                "Could not write {path}: the folder {folder} does not exist (no folder is "
                "created); create it first or choose another place. Nothing was written."
            ),
            path=text,
            folder=str(folder),
        ) from error
    except OSError as error:
        raise OutputError(_NOT_WRITTEN, path=text, error=_reason(error)) from error
    if not stat.S_ISDIR(info.st_mode):
        raise OutputError(
            N_("Could not write {path}: {folder} is not a folder. Nothing was written."),
            path=text,
            folder=str(folder),
        )
    return Target(text, Kind.FILE, path)


def write_bytes(given: str | os.PathLike[str], data: bytes) -> Target:
    """Write `data` to `given` following the rules in the module docstring.

    Returns the target as written. Raises `OutputError` (with nothing replaced
    and no temp file left behind) when it cannot.
    """
    target = check_target(given)
    if target.kind is Kind.STDOUT:
        _write_stdout(data)
    elif target.kind is Kind.STREAM:
        _write_stream(target, data)
    else:
        _replace_atomically(target, data)
    return target


def write_text(given: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Target:
    """`write_bytes` for text (no newline translation: `text` is written as is)."""
    return write_bytes(given, text.encode(encoding))


def print_text(text: str) -> None:
    """Write `text` on standard output as `print` would (text mode), or raise `OutputError`.

    For a report printed by a command (`mindflayer history > file`): a closed
    standard output, or one on a full disk, is a sentence instead of a traceback.
    `BrokenPipeError` passes through (the reader left: the command's `main` says
    nothing about it).
    """
    stream = sys.stdout
    if stream is None:
        raise OutputError(_STDOUT_CLOSED)
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        silence_stdout()
        raise OutputError(_STDOUT_FAILED, error=_reason(error)) from error


def silence_stdout() -> None:
    """Send what standard output still holds to the null device, so exit is quiet.

    After a failed write the unwritten bytes stay in Python's buffer and the
    interpreter flushes it again at exit, printing a second error; pointing file
    descriptor 1 at the null device (the way Python's documentation handles a
    broken pipe) lets that last flush succeed. Not a file the user named:
    nothing is created or replaced.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):
        target = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(target, sys.stdout.fileno())
        finally:
            os.close(target)


def _write_stdout(data: bytes) -> None:
    stream = sys.stdout
    if stream is None:
        # Started with standard output closed (`>&-`): Python then has no sys.stdout.
        raise OutputError(_STDOUT_CLOSED)
    try:
        stream.flush()
        stream.buffer.write(data)
        stream.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        silence_stdout()
        raise OutputError(_STDOUT_FAILED, error=_reason(error)) from error


def _write_stream(target: Target, data: bytes) -> None:
    assert target.path is not None
    fd = _open_stream(target)
    try:
        _write_all(fd, data)
    except OSError as error:
        raise OutputError(
            N_("Could not write {path} ({error}); the output is incomplete."),
            path=target.given,
            error=_reason(error),
        ) from error
    finally:
        os.close(fd)


def _open_stream(target: Target) -> int:
    """Open a device or FIFO for writing, without waiting for a reader that never comes.

    Opening a FIFO for writing blocks until something opens it for reading: an
    export into a pipe nobody reads would hang forever. On POSIX it is opened
    non-blocking (a FIFO without reader then fails at once with ENXIO, said as
    "nobody is reading it"), then switched back to blocking writes. Windows has
    no FIFOs (nor O_NOCTTY, O_NONBLOCK): there it is a plain open.
    """
    assert target.path is not None
    # No O_CREAT: if the node vanished meanwhile, nothing is created in its place.
    flags = os.O_WRONLY
    if os.name == "posix":
        flags |= os.O_NOCTTY | os.O_NONBLOCK
    try:
        fd = os.open(target.path, flags)
    except OSError as error:
        if error.errno == errno.ENXIO and _is_fifo(target.path):
            raise OutputError(
                N_(
                    "Could not write {path}: it is a FIFO (named pipe) and nobody is "
                    "reading it; start the reader first, then write again. Nothing was written."
                ),
                path=target.given,
            ) from error
        raise OutputError(_NOT_OPENED, path=target.given, error=_reason(error)) from error
    if os.name == "posix":
        try:
            os.set_blocking(fd, True)  # the writes wait for a slow reader, as usual
        except OSError as error:
            os.close(fd)
            raise OutputError(_NOT_OPENED, path=target.given, error=_reason(error)) from error
    return fd


def _is_fifo(path: Path) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _replace_atomically(target: Target, data: bytes) -> None:
    assert target.path is not None
    path = target.path
    fd, temp = _create_temp(target)
    try:
        try:
            if target.mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, target.mode)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise OutputError(_NOT_WRITTEN, path=target.given, error=_reason(error)) from error
    _sync_folder(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    """All of `data` into `fd` (`os.write` may take only part of it, into a pipe say)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _create_temp(target: Target) -> tuple[int, Path]:
    """A new temp file beside the target, created with 0666 so the umask applies."""
    assert target.path is not None
    folder = target.path.parent
    for _ in range(_TEMP_ATTEMPTS):
        # os.urandom, not `secrets`: that module (hashlib, hmac, base64) costs the
        # app's first frame ~2 ms, and a temp name needs no more than random bytes.
        temp = folder / f".{target.path.name}.{os.urandom(4).hex()}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            raise OutputError(_NOT_WRITTEN, path=target.given, error=_reason(error)) from error
        return fd, temp
    raise OutputError(
        N_("Could not write {path}: no free temporary name in {folder}."),
        path=target.given,
        folder=str(folder),
    )


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every platform allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
