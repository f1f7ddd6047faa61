"""Crash-proof game log and series history in SQLite.

One database file per data folder (`mindflayer.sqlite3`), opened by one app at a
time. Every table action is committed in its own transaction before the screen
shows it, so a closed lid, a dead battery or `kill -9` loses nothing the table
saw. A lock held while open (on the data folder on Unix, on the lock file
`mindflayer.sqlite3.lock` on Windows; see `locking`) keeps a second app window
out. See `docs/architecture.md` (Storage) for
the contract the TUI relies on.
"""

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from moderator.storage.history_summary import HistorySummary, SeriesLine


def __getattr__(name: str) -> Any:
    """The History dialog's summary, loaded on first use: not on the way to the first frame."""
    if name in ("HistorySummary", "SeriesLine"):
        from moderator.storage import history_summary

        return getattr(history_summary, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DATABASE_NAME",
    "DatabaseInUseError",
    "ForeignDatabaseError",
    "GameScore",
    "HistorySummary",
    "NewerDatabaseError",
    "PlayerStats",
    "SavedGame",
    "SeriesLine",
    "SeriesRecord",
    "StorageError",
    "StorageWriteError",
    "Store",
    "Unfinished",
]
