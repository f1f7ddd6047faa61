"""Crash-proof game log and series history in SQLite.

One database file per data folder (`mindflayer.sqlite3`), opened by one app at a
time. Every table action is committed in its own transaction before the screen
shows it, so a closed lid, a dead battery or `kill -9` loses nothing the table
saw. A lock held while open (on the data folder on Unix, on the lock file
`mindflayer.sqlite3.lock` on Windows; see `locking`) keeps a second app window
out. See `docs/architecture.md` (Storage) for
the contract the TUI relies on.
"""

from moderator.storage.database import DATABASE_NAME
from moderator.storage.errors import (
    DatabaseInUseError,
    ForeignDatabaseError,
    NewerDatabaseError,
    StorageError,
    StorageWriteError,
)
from moderator.storage.records import GameScore, PlayerStats, SeriesRecord
from moderator.storage.saved_game import SavedGame, Unfinished
from moderator.storage.store import Store

__all__ = [
    "DATABASE_NAME",
    "DatabaseInUseError",
    "ForeignDatabaseError",
    "GameScore",
    "NewerDatabaseError",
    "PlayerStats",
    "SavedGame",
    "SeriesRecord",
    "StorageError",
    "StorageWriteError",
    "Store",
    "Unfinished",
]
