"""Telling the table which game a damaged write-ahead log cost, and how many actions.

The progress file (see `progress`) holds the last acknowledged length of the
game in progress. On open, the game's log on disk is compared with it. The mark
names its database (`meta.database_id`), so a game whose row the damage took
away too is still reported, by the series and number the mark recorded, while a
different database (a fresh one, or one put in place of the old) is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from moderator.domain.worded import N_
from moderator.storage.errors import Notice
from moderator.storage.journal import Journal
from moderator.storage.progress import Mark, read_mark


@dataclass(frozen=True)
class LostActions:
    """A game whose log on disk ends before its last acknowledged action."""

    sentence: Notice
    #: The mark as the database is now.
    now: Mark


def lost_actions(journal: Journal, path: Path) -> LostActions | None:
    """Compare the game in progress with its progress mark; describe any loss."""
    mark = read_mark(path)
    if mark is None:
        return None
    same_database = mark.database_id is not None and mark.database_id == journal.database_id
    if mark.database_id is not None and journal.database_id is not None and not same_database:
        return None  # another database than the one the mark was written for
    rows = journal.query(
        "SELECT g.series_id, g.number, g.started_at, "
        "(SELECT count(*) FROM log WHERE game_id = g.id) FROM games g WHERE g.id = ?",
        (mark.game_id,),
    )
    series_id: object = mark.series_id
    number: object = mark.number
    if rows:
        series_id, number, started, count = rows[0]
        have = int(str(count))
        if str(started) != mark.started_at:
            return None  # another database than the one the mark was written for
    elif same_database or journal.query(
        "SELECT 1 FROM games WHERE id < ? LIMIT 1", (mark.game_id,)
    ):
        have = 0
    else:
        return None  # an old mark and a fresh database (the old one was set aside)
    if have >= mark.entries:
        return None
    return LostActions(
        _sentence(series_id, number, mark.entries, have),
        Mark(mark.game_id, mark.started_at, have, mark.series_id, mark.number, mark.database_id),
    )


def _sentence(series_id: object, number: object, saved: int, have: int) -> Notice:
    """The loss in one sentence; its parts are notices of their own, each translated."""
    which = (
        Notice(N_("Game {number} of series {series}"), number=number, series=series_id)
        if number is not None
        else Notice(N_("The last game"))
    )
    lost = saved - have
    # One lost action has words of its own; more are a plural pair (both forms
    # name the count, as every translation must: tests/test_i18n_catalogs.py).
    if have == 0:
        what = (
            Notice(N_("its only action"))
            if lost == 1
            else Notice.counting("all its {count} action", "all its {count} actions", lost)
        )
        left = Notice(N_("nothing of it is left on disk, not even its seating"))
    else:
        what = (
            Notice(N_("its last action"))
            if lost == 1
            else Notice.counting("its last {count} action", "its last {count} actions", lost)
        )
        left = Notice.counting("{count} is left on disk", "{count} are left on disk", have)
    return Notice(
        N_(
            "The score database's write-ahead log was damaged: {which} lost {what} "
            "(the table had saved {saved}; {left}). "
            "Everything before is kept; check the table and enter again what is missing."
        ),
        which=which,
        what=what,
        saved=saved,
        left=left,
    )


def missing_database(database: Path, progress: Path) -> Notice | None:
    """The sentence for an empty or missing database while the progress file names a game.

    A database cut to 0 bytes (or deleted) started afresh without a word, while
    the progress file still said which game was being played and how far.
    `database` is the file as it was before anything opened it.
    """
    mark = read_mark(progress)
    if mark is None:
        return None
    which = (
        Notice(N_("game {number} of series {series}"), number=mark.number, series=mark.series_id)
        if mark.number is not None
        else Notice(N_("the last game"))
    )
    return Notice.counting(
        "The score database {path} is empty or missing, but the progress file beside it "
        "names {which} with {count} saved action: that game, and every game before it, is "
        "not in this file. If you have a copy of the database, quit the moderator and put "
        "the copy back as {path}.",
        "The score database {path} is empty or missing, but the progress file beside it "
        "names {which} with {count} saved actions: that game, and every game before it, is "
        "not in this file. If you have a copy of the database, quit the moderator and put "
        "the copy back as {path}.",
        mark.entries,
        path=database,
        which=which,
    )


def is_empty_or_missing(database: Path) -> bool:
    """Whether `database` is absent or 0 bytes long (checked before anything opens it)."""
    try:
        return database.stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False
