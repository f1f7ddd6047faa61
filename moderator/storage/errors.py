"""The storage layer's errors: each one is a sentence the table can read.

They share `StorageError` so the UI can catch one type, show `str(error)` and
carry on; the subclasses let it react differently (refuse to start, ask to close
the other window, keep the game on screen exactly as it was last saved).
"""

from __future__ import annotations


class StorageError(Exception):
    """Something about the score database stopped an action; `str()` says what."""


class NewerDatabaseError(StorageError):
    """The database was written by a newer version of the app; nothing was changed."""


class ForeignDatabaseError(StorageError):
    """The database file is another program's SQLite database; nothing was changed."""


class DatabaseInUseError(StorageError):
    """Another running moderator already has this database open."""


class StorageWriteError(StorageError):
    """An action could not be saved (read-only folder, full disk, I/O error).

    The action was not taken: the game in memory is still exactly what is on disk.
    """
