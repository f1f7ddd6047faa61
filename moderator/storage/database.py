"""Opening the database file safely: diagnose, quarantine, configure, migrate.

The order matters. The lock is already held (see `locking`), so nobody else is
writing. Then, before anything is written: a file that is not a database,
another program's SQLite database (told read-only, see `foreign`), or one that
fails `PRAGMA integrity_check`, is renamed aside untouched (with its `-wal`
sidecar, so SQLite can still open the pair for a rescue) and a fresh database
is started; a database from a newer schema is refused without changing a byte.
Only then is WAL switched on (that rewrites the header) and the schema migrated.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import moderator
from moderator.domain.worded import N_
from moderator.storage import schema
from moderator.storage.errors import (
    ForeignDatabaseError,
    NewerDatabaseError,
    Notice,
    StorageError,
    StorageWriteError,
)
from moderator.storage.foreign import (
    FOREIGN,
    HEADER_BYTES,
    belongs_to_another_program,
    foreign_file,
    foreign_message,
)
from moderator.storage.salvage import (
    DAMAGE_CODES,
    Salvage,
    is_damage,
    rebuild_indexes,
    salvage_rows,
)

DATABASE_NAME = "mindflayer.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"
_SIDECARS = ("-wal", "-shm", "-journal")
#: Waiting this long for SQLite's own locks covers a checkpoint by a reader.
BUSY_TIMEOUT_MS = 5000

ConnectionFactory = type[sqlite3.Connection]


def connect(path: Path, factory: ConnectionFactory = sqlite3.Connection) -> sqlite3.Connection:
    """A connection in autocommit mode: every transaction in the store is explicit."""
    conn = sqlite3.connect(
        str(path),
        isolation_level=None,
        check_same_thread=False,
        factory=factory,
        timeout=BUSY_TIMEOUT_MS / 1000,
    )
    return conn


def open_database(
    path: Path,
    now: Callable[[], datetime],
    factory: ConnectionFactory = sqlite3.Connection,
    check_integrity: bool = True,
) -> tuple[sqlite3.Connection, list[str]]:
    """Open (or create) the database at `path`; return it with notices for the table.

    `check_integrity=False` leaves `PRAGMA integrity_check` (a read of the whole
    file) to `integrity_problem` later: the app runs it after its first frame.
    """
    notices: list[str] = []
    refuse_special_file(path)
    problem = diagnose(path, check_integrity)
    if problem == FOREIGN:
        kept = quarantine(path, now())
        notices.append(
            Notice(
                N_(
                    "The file {name} is not a Mind Flayer score database (it belongs to "
                    "another program). It is kept untouched as {kept}, and a fresh score "
                    "database was started."
                ),
                name=path.name,
                kept=kept,
            )
        )
    elif problem is not None:
        notices.append(recover(path, now(), problem))
    for attempt in (1, 2):
        conn = connect(path, factory)
        try:
            configure(conn)
            schema.migrate(conn)
            database_id(conn, create=True)
        except sqlite3.Error as error:
            conn.close()
            if attempt == 1 and is_damage(error):  # damage the header check could not see
                notices.append(recover(path, now(), _unreadable(error)))
                continue
            raise StorageWriteError(
                N_(
                    "The score database in {folder} could not be prepared ({error}); "
                    "check that the folder can be written, or choose another with --data-dir."
                ),
                folder=path.parent,
                error=str(error),
            ) from error
        except BaseException:
            conn.close()
            raise
        break
    return conn, notices


def recover(path: Path, moment: datetime, problem: str) -> Notice:
    """Mend or salvage the damaged database at `path`, keep it aside untouched; say what.

    First `REINDEX` on a copy (damage to indexes alone loses nothing); otherwise
    every row that still reads is copied into a fresh file (`salvage`). Either
    way the damaged file (and its sidecars) is renamed aside as it is, and the
    mended or salvaged one takes its place. The lock is held: nobody else writes.
    """
    work = path.with_name(path.name + ".mending")
    fresh = path.with_name(path.name + ".salvaged")
    _remove_with_sidecars(work)
    _remove_with_sidecars(fresh)
    salvaged: Salvage | None = None
    try:
        # The damaged file is only ever copied: the mending and the reading are
        # done on the copy, so not even SQLite's sidecars appear beside it.
        repaired = _reindexed_copy(path, work)
        if not repaired:
            salvaged = _salvaged_copy(work, fresh)
            _remove_with_sidecars(work)
            work = fresh
    except OSError as error:
        _remove_with_sidecars(work)
        _remove_with_sidecars(fresh)
        raise StorageWriteError(
            N_(
                "The score database {path} is damaged and could not be copied for a rescue "
                "({error}); copy it somewhere safe, then remove it."
            ),
            path=path,
            error=str(error.strerror or error),
        ) from error
    kept = quarantine(path, moment)
    if not repaired and salvaged is None:
        _remove_with_sidecars(work)
        return Notice(
            N_(
                "The score database was damaged ({problem}). It is kept untouched as "
                "{kept}, and a fresh one was started."
            ),
            problem=problem,
            kept=kept,
        )
    os.replace(work, path)
    if repaired:
        return Notice(
            N_(
                "The score database's indexes were damaged ({problem}); they were rebuilt "
                "from its tables and every row was kept. The damaged file is kept untouched "
                "as {kept}."
            ),
            problem=problem,
            kept=kept,
        )
    assert salvaged is not None
    return Notice(
        N_(
            "The score database was damaged ({problem}). {recovered} The damaged file is "
            "kept untouched as {kept}; what could still be read is in a fresh database."
        ),
        problem=problem,
        recovered=salvaged.sentence(),
        kept=kept,
    )


def _reindexed_copy(path: Path, work: Path) -> bool:
    """Copy the file (and its WAL) to `work` and `REINDEX` it; True if it is then intact."""
    shutil.copyfile(path, work)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, work.with_name(work.name + "-wal"))
    conn = connect(work)
    try:
        intact = rebuild_indexes(conn)
        if intact:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA journal_mode = DELETE")  # one file to move into place
    except sqlite3.Error:
        intact = False
    finally:
        conn.close()
    return intact


def _salvaged_copy(path: Path, work: Path) -> Salvage | None:
    """Every row of `path` (a copy) that still reads, copied into a fresh file `work`.

    None when not even its schema reads.
    """
    source = connect(path)
    target = connect(work)
    try:
        return salvage_rows(source, target)
    except sqlite3.DatabaseError:
        return None  # not even its schema reads
    finally:
        source.close()
        target.close()


def _remove_with_sidecars(path: Path) -> None:
    for suffix in ("", *_SIDECARS):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()


def open_salvaged_reader(path: Path) -> tuple[sqlite3.Connection, Salvage]:
    """What still reads of the damaged database at `path`, copied into memory.

    For a reading command: nothing on disk is written (the file is opened
    read-only, the copy lives in memory and is migrated there).
    """
    source = _read_only(path)
    target = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        salvaged = salvage_rows(source, target)
        schema.migrate(target)
    except sqlite3.DatabaseError as error:
        target.close()
        raise StorageError(
            N_("The score database {path} cannot be read ({error})."), path=path, error=str(error)
        ) from error
    finally:
        source.close()
    return target, salvaged


def _read_only(path: Path) -> sqlite3.Connection:
    """`path` opened read-only; as immutable when its WAL cannot be shared (a read-only folder)."""
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(
        f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        conn = sqlite3.connect(
            f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False
        )
    except sqlite3.DatabaseError:
        pass  # damage: the salvage reads what it can
    return conn


def open_reader(path: Path, factory: ConnectionFactory = sqlite3.Connection) -> sqlite3.Connection:
    """A read-only connection that needs no write access to the folder.

    Nothing is repaired or migrated (a writer does that); reading a WAL database
    alongside its writer is safe in SQLite, so the history can be printed mid-game.
    In a folder that cannot be written, SQLite cannot create the `-shm` index a WAL
    reader needs ("attempt to write a readonly database"); when there is no WAL
    content to read, nobody can be writing there either, so the file is then read
    as immutable.
    """
    if not path.exists():
        raise StorageError(N_("There is no score database in {folder} yet."), folder=path.parent)
    refuse_special_file(path)
    uri = path.resolve().as_uri()
    try:
        conn = _checked_reader(f"{uri}?mode=ro", path, factory)
    except sqlite3.OperationalError as error:
        if not _wal_is_empty(path):
            raise StorageError(
                N_("The score database {path} cannot be read ({error})."),
                path=path,
                error=str(error),
            ) from error
        try:
            conn = _checked_reader(f"{uri}?mode=ro&immutable=1", path, factory)
        except sqlite3.Error as second:
            raise StorageError(
                N_("The score database {path} cannot be read ({error})."),
                path=path,
                error=str(second),
            ) from second
    except sqlite3.Error as error:
        raise StorageError(
            N_("The score database {path} cannot be read ({error})."), path=path, error=str(error)
        ) from error
    return conn


def refuse_special_file(path: Path) -> None:
    """Refuse a database path that is not a regular file, before anything opens it.

    Opening a FIFO waits for a writer forever (the app showed a blank screen
    with dead keys, `history` hung); a device or a folder is no database either.
    `stat` never blocks. A missing file is fine (a fresh database is made).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing, or unreadable: the opening that follows says so
    if not stat.S_ISREG(mode):
        raise StorageError(
            N_(
                "The score database {path} is not a file (a folder, a device or a pipe); "
                "move it away, or choose another folder with --data-dir."
            ),
            path=path,
        )


def _wal_is_empty(path: Path) -> bool:
    try:
        return path.with_name(path.name + "-wal").stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _checked_reader(uri: str, path: Path, factory: ConnectionFactory) -> sqlite3.Connection:
    """Open `uri` read-only and check the schema version (SQLite errors pass through)."""
    conn = sqlite3.connect(
        uri,
        uri=True,
        isolation_level=None,
        check_same_thread=False,
        timeout=BUSY_TIMEOUT_MS / 1000,
        factory=factory,
    )
    try:
        if belongs_to_another_program(conn):
            raise ForeignDatabaseError.saying(foreign_message(path))
        version = schema.user_version(conn)
        if version > schema.SCHEMA_VERSION:
            app_version = schema.recorded_app_version(conn)
            raise NewerDatabaseError.saying(newer_message(path, version, app_version))
        if version < schema.SCHEMA_VERSION:
            raise StorageError(
                N_(
                    "The score database {path} needs an upgrade, which needs a folder that "
                    "can be written; start the moderator once to upgrade it."
                ),
                path=path,
            )
    except BaseException:
        conn.close()
        raise
    return conn


def database_id(conn: sqlite3.Connection, *, create: bool) -> str | None:
    """This database's own random id (`meta.database_id`), made on first use by a writer.

    The progress file names it, so a game missing from the database can be told
    apart from another database (a fresh one, or one set aside and replaced).
    A row of `meta`, not a schema change.
    """
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'database_id'").fetchone()
        if row is not None or not create:
            return str(row[0]) if row is not None else None
        made = uuid.uuid4().hex
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('database_id', ?)", (made,)
            )
            conn.execute("COMMIT")
        except BaseException:
            schema.rollback_quietly(conn)
            raise
        return database_id(conn, create=False)
    except sqlite3.Error:
        if create:
            raise
        return None


def configure(conn: sqlite3.Connection) -> None:
    """WAL + synchronous=FULL: a committed action survives a power cut; FKs enforced."""
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")


def diagnose(path: Path, check_integrity: bool = True) -> str | None:
    """Why the file at `path` cannot be used as our database, or None if it can.

    `check_integrity=False` skips `PRAGMA integrity_check` (see `integrity_problem`).

    Raises `NewerDatabaseError` for a newer schema and `StorageError` when the file
    cannot be read right now (that is not damage, so nothing is moved).
    """
    try:
        with path.open("rb") as file:
            header = file.read(HEADER_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StorageError(
            N_("The score database {path} cannot be read ({error})."),
            path=path,
            error=str(error.strerror or error),
        ) from error
    if not header:
        return None  # An empty file is an empty database: SQLite builds it in place.
    if header[: len(SQLITE_HEADER)] != SQLITE_HEADER:
        return Notice(N_("it is not an SQLite database"))
    try:
        if foreign_file(path, header):
            return FOREIGN  # decided read-only: nothing of it is written, not even its WAL
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", None) in DAMAGE_CODES:
            return _unreadable(error)
        raise StorageError(
            N_("The score database {path} cannot be read ({error})."), path=path, error=str(error)
        ) from error
    conn = connect(path)
    try:
        version = schema.user_version(conn)
        if version > schema.SCHEMA_VERSION:
            raise NewerDatabaseError.saying(
                newer_message(path, version, schema.recorded_app_version(conn))
            )
        if check_integrity:
            return integrity_problem(conn)
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", None) in DAMAGE_CODES:
            return _unreadable(error)
        raise StorageError(
            N_("The score database {path} cannot be read ({error})."), path=path, error=str(error)
        ) from error
    finally:
        conn.close()
    return None


def _unreadable(error: sqlite3.Error) -> Notice:
    """The reason for a file SQLite itself calls damaged (its words kept as they are)."""
    return Notice(N_("SQLite cannot read it: {error}"), error=str(error))


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """What `PRAGMA integrity_check` finds wrong (a sentence part), or None if nothing.

    It reads every page: ~0.5 s at 20,000 games, which is why the app runs it
    after its first frame, on its own connection, off the UI thread.
    """
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", None) in DAMAGE_CODES:
            return _unreadable(error)
        raise
    if rows != [("ok",)]:
        return Notice(N_("it failed its integrity check: {problem}"), problem=_first_problem(rows))
    return None


def _first_problem(rows: list[tuple[object, ...]]) -> str:
    lines = [
        line.strip()
        for row in rows
        for line in str(row[0]).splitlines()
        if line.strip() and not line.startswith("***")
    ]
    return lines[0] if lines else N_("unknown damage")


def newer_message(path: Path, version: int, app_version: str | None) -> Notice:
    """The sentence for a database this app is too old to open."""
    needed = (
        Notice(N_("mindflayer-moderator {version} or newer"), version=app_version)
        if app_version and _is_newer(app_version, moderator.__version__)
        else Notice(N_("a newer mindflayer-moderator"))
    )
    return Notice(
        N_(
            "The score database {path} was written by {needed} (schema version {version}); "
            "this is version {app_version}, which reads schema version "
            "{schema_version} at most. Nothing was changed: update the app, "
            "or start with another --data-dir."
        ),
        path=path,
        needed=needed,
        version=version,
        app_version=moderator.__version__,
        schema_version=schema.SCHEMA_VERSION,
    )


def _is_newer(recorded: str, current: str) -> bool:
    """Whether version `recorded` is later than `current` (a development build that
    changed the schema under the same number is not: it would read "0.1.0 or newer;
    this is 0.1.0")."""

    def parts(text: str) -> tuple[int, ...] | None:
        numbers = text.split("+")[0].split(".")
        return tuple(int(n) for n in numbers) if all(n.isdigit() for n in numbers) else None

    mine, theirs = parts(current), parts(recorded)
    if mine is None or theirs is None:
        return recorded != current
    return theirs > mine


def quarantine(path: Path, moment: datetime) -> Path:
    """Rename the damaged file (and its sidecars) aside, untouched; return the new path."""
    stamp = moment.strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    try:
        os.rename(path, target)
        for suffix in _SIDECARS:
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.rename(side, target.with_name(target.name + suffix))
    except OSError as error:
        raise StorageWriteError(
            N_(
                "The score database {path} is damaged and could not be moved aside "
                "({error}); copy it somewhere safe, then remove it."
            ),
            path=path,
            error=str(error.strerror or error),
        ) from error
    return target
