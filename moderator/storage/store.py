"""The score database as the app sees it: series, games, resume, history.

`Store.open` takes the instance lock, opens (or repairs, or refuses) the file and
migrates it; every method after that is one short transaction or one read. The
game log is the only truth: states, results and history are rebuilt by replaying
it, and the `games.finished_at` cache is written in the same transaction as the
log entry that changes it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from moderator.domain import GameState, IllegalAction, Timeline
from moderator.domain.names import clean_roster
from moderator.domain.rules import GAMES_PER_SERIES
from moderator.domain.timeline import entry_from_json
from moderator.domain.worded import N_
from moderator.storage import history, scores
from moderator.storage.database import (
    DATABASE_NAME,
    ConnectionFactory,
    connect,
    database_id,
    integrity_problem,
    open_database,
    open_reader,
)
from moderator.storage.errors import Notice, StorageError, StorageWriteError
from moderator.storage.journal import Journal
from moderator.storage.locking import DatabaseLock
from moderator.storage.progress import ProgressFile
from moderator.storage.records import (
    GameScore,
    PlayerStats,
    SeriesRecord,
    utc_now,
)
from moderator.storage.salvage import is_damage
from moderator.storage.saved_game import SavedGame, Unfinished, entry_text
from moderator.storage.set_aside import (
    UnreadableGameError,
    left_out_sentence,
    set_aside_open_games,
    unreadable_reason,
)
from moderator.storage.wal_loss import is_empty_or_missing, lost_actions, missing_database

if TYPE_CHECKING:
    from moderator.storage.history_summary import HistorySummary


class Store:
    """The open score database of one running app (one per data folder)."""

    def __init__(
        self, path: Path, journal: Journal, lock: DatabaseLock | None, notices: list[str]
    ) -> None:
        """Use `Store.open`; this only binds what it prepared."""
        #: The database file.
        self.path = path
        #: Sentences for the table about what happened while opening (e.g. a repair).
        self.notices = notices
        self._journal = journal
        self._lock = lock
        self._games: dict[int, SavedGame] = {}
        #: Opens this folder again with every check, while `check_integrity` is pending.
        self._reopen: Callable[[DatabaseLock | None], Store] | None = None

    @classmethod
    def open(
        cls,
        data_dir: Path | str,
        *,
        clock: Callable[[], datetime] = utc_now,
        connection_factory: ConnectionFactory = sqlite3.Connection,
        check_integrity: bool = True,
        held_lock: DatabaseLock | None = None,
    ) -> Store:
        """Open the database in `data_dir` (created if needed) for this app instance.

        Raises `DatabaseInUseError` if another instance has it, `NewerDatabaseError`
        if a newer app wrote it, `StorageWriteError` if the folder cannot be written.
        `clock` and `connection_factory` exist so tests can pin time and inject faults.
        `check_integrity=False` leaves the integrity check to `check_integrity()`
        (the app runs it after its first frame). `held_lock`: this folder's lock,
        already held (the deferred check starting afresh), used instead of a new one.
        """
        folder = Path(data_dir)
        if folder.exists() and not folder.is_dir():
            raise StorageWriteError.saying(folder_is_a_file(folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageWriteError(
                N_(
                    "The score folder {folder} cannot be created ({error}); "
                    "choose another one with --data-dir."
                ),
                folder=folder,
                error=str(error.strerror or error),
            ) from error
        path = folder / DATABASE_NAME
        lock = held_lock or DatabaseLock(folder / f"{DATABASE_NAME}.lock")
        if held_lock is None:
            lock.acquire()
        was_empty = is_empty_or_missing(path)
        try:
            conn, notices = open_database(path, clock, connection_factory, check_integrity)
        except BaseException:
            lock.release()
            raise
        progress = ProgressFile(progress_path(path))
        journal = Journal(conn, clock, progress, database_id(conn, create=False))
        try:
            lost = lost_actions(journal, progress.path)
            # What an earlier session left in the WAL (and a new schema) goes to the file.
            journal.checkpoint()
        except BaseException as error:
            journal.close()
            if not check_integrity and is_damage(error):  # met before the deferred check
                return cls.open(
                    folder, clock=clock, connection_factory=connection_factory, held_lock=lock
                )
            lock.release()
            raise
        if lost is not None:
            notices.append(lost.sentence)
            progress.write(lost.now)  # told once; the table replays what is missing
        elif was_empty and (said := missing_database(path, progress.path)) is not None:
            notices.append(said)  # told once: the file is no longer empty
        store = cls(path, journal, lock, notices)
        try:
            notices += set_aside_open_games(journal, store.unfinished, path)
        except BaseException:
            store.close()
            raise
        if not check_integrity:
            # The full check, with the same folder, clock and factory, when asked for.
            store._reopen = lambda held: cls.open(
                folder, clock=clock, connection_factory=connection_factory, held_lock=held
            )
        return store

    @classmethod
    def open_read_only(
        cls,
        data_dir: Path | str,
        *,
        connection_factory: ConnectionFactory = sqlite3.Connection,
    ) -> Store:
        """Read the database without the lock (for `mindflayer history`).

        Works beside a running app and in a folder that cannot be written. Takes
        no lock, repairs and migrates nothing; every write raises
        `StorageWriteError`. Raises `StorageError` if there is no database yet.
        `connection_factory` lets tests inject faults.
        """
        path = Path(data_dir) / DATABASE_NAME
        conn = open_reader(path, connection_factory)
        journal = Journal(conn, utc_now, None, database_id(conn, create=False))
        try:
            lost = lost_actions(journal, progress_path(path))
        except BaseException:
            journal.close()
            raise
        return cls(path, journal, None, [lost.sentence] if lost is not None else [])

    @property
    def journal(self) -> Journal:
        """The connection under the store, for the bulk readers (`history_rows`) and tests.

        The one documented way in for a test that reads the database
        (`journal.query`), changes it behind the store's back (`journal.conn`) or
        injects a fault (a failing `journal.checkpoint`): tests never reach for the
        store's private attributes (`tests/storage/test_storage_public_reads.py`).
        """
        return self._journal

    def check_integrity(self) -> list[str]:
        """Run the integrity check `open(check_integrity=False)` left; notices for the table.

        The check reads the whole file on a connection of its own (the table's
        reads and writes go on meanwhile; safe on a worker thread). A damaged
        file is handled as `open` handles it: this store closes, the file is
        opened again with every check, so it is moved aside untouched and a fresh
        database starts; this store then uses that one (the notices say so; the
        games loaded before are gone with the old file). Nothing to do: [].
        """
        reopen, self._reopen = self._reopen, None
        if reopen is None:
            return []
        conn = connect(self.path)
        try:
            problem = integrity_problem(conn)
        except sqlite3.Error as error:  # not damage (busy, I/O): nothing is moved
            raise StorageError(
                N_("The score database {path} cannot be read ({error})."),
                path=self.path,
                error=str(error),
            ) from error
        finally:
            conn.close()
        if problem is None:
            return []
        with self._journal.lock:
            # The lock stays held: dropped and taken again, it was found held by a
            # child process forking at that moment (the voice's, started beside this
            # check), whose copy of the descriptor keeps the lock until its exec; the
            # table was told "another moderator" (this one) has the database.
            held = self._lock
            self._close(release=False)
            fresh = reopen(held)
            self._journal, self._lock, self.notices = fresh._journal, fresh._lock, fresh.notices
            self._games = {}
        return list(self.notices)

    def close(self) -> None:
        """Close the database and let another instance open it (safe to call twice).

        A clean exit checkpoints first, so the WAL is empty between sessions.
        """
        self._close(release=True)

    def _close(self, release: bool) -> None:
        """Checkpoint and close the database; drop the lock only if `release`."""
        if self._lock is not None and self._lock.held:
            self._journal.checkpoint()
        self._journal.close()
        if release and self._lock is not None:
            self._lock.release()
        self._games.clear()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- reading (the journal only: a game replayed from its log is the one truth) -----

    def renames(self, series_id: int) -> dict[str, str]:
        """Old name -> the name the same player has now, for the series' games."""
        rows = self._journal.query(
            "SELECT r.old_name, r.new_name FROM renames r JOIN games g ON g.id = r.game_id "
            "WHERE g.series_id = ? AND g.withdrawn_at IS NULL ORDER BY g.number",
            (series_id,),
        )
        return scores.latest_names({str(old): str(new) for old, new in rows})

    def load_game(self, game_id: int) -> SavedGame:
        """The game rebuilt from its log, undo history included (the same object each time)."""
        with self._journal.lock:
            if game_id in self._games:
                return self._games[game_id]
            rows = self._journal.query(
                "SELECT series_id, number FROM games WHERE id = ?", (game_id,)
            )
            if not rows:
                raise StorageError(
                    N_("There is no game {game} in the score database."), game=game_id
                )
            series_id, number = rows[0]
            assert isinstance(series_id, int) and isinstance(number, int)
            game = SavedGame(
                self._journal, game_id, series_id, number, self._replay(game_id, series_id, number)
            )
            self._games[game_id] = game
            return game

    def unfinished(self) -> Unfinished | None:
        """The newest series neither complete nor abandoned, to resume at start-up."""
        rows = self._journal.query(
            "SELECT id FROM series WHERE abandoned_at IS NULL "
            "AND (SELECT count(*) FROM games WHERE series_id = series.id "
            "     AND finished_at IS NOT NULL) < ? "
            "ORDER BY id DESC LIMIT 1",
            (GAMES_PER_SERIES,),
        )
        if not rows:
            return None
        series_id = rows[0][0]
        assert isinstance(series_id, int)
        open_games = self._journal.query(
            "SELECT id FROM games WHERE series_id = ? AND finished_at IS NULL "
            "AND withdrawn_at IS NULL "
            "ORDER BY number DESC LIMIT 1",
            (series_id,),
        )
        game = None
        if open_games:
            game_id = open_games[0][0]
            assert isinstance(game_id, int)
            game = self.load_game(game_id)
        return Unfinished(series_id, game)

    def series_games(self, series_id: int) -> list[GameScore]:
        """The series' games whose replayed log has results, in order."""
        where = "WHERE series_id = ? AND withdrawn_at IS NULL ORDER BY number"
        return [
            score
            for _, score in scores.series_scores(
                self._journal, where, (series_id,), self.renames, self._replayed
            )
        ]

    def finished_games(self) -> list[GameScore]:
        """Every game with results, of any series (complete or not), oldest first.

        A game played to its results was played, even in a series the table
        later abandoned: this is what a play log such as BG Stats wants.
        """
        return scores.finished_games(self._journal, self._replayed)

    def _replayed(self, game_id: int) -> GameState | None:
        """The game rebuilt from its log (for a game without a readable score cache).

        None (and a notice) when its log cannot be replayed: it is left out.
        """
        try:
            return self.load_game(game_id).state
        except UnreadableGameError as error:
            self._tell(left_out_sentence(error, self.path))
            return None

    # -- history ------------------------------------------------------------------

    def history(self) -> list[SeriesRecord]:
        """Every complete series (3 games with results), oldest first.

        Read in bulk from the score cache (`scores.complete_series`): linear in games.
        """
        return scores.complete_series(self._journal, self._replayed)

    def history_summary(self, newest: int) -> HistorySummary:
        """The newest `newest` complete series, how many there are, and every player's record.

        What the History dialog shows, from flat rows (`history_summary`): a fraction
        of `history()`'s time on a long history, and the same lines.
        """
        # Loaded when the History dialog first asks, not on the way to the first frame.
        from moderator.storage.history_summary import summary

        return summary(self._journal, newest, self.history)

    def player_stats(self) -> list[PlayerStats]:
        """Per-player totals over every complete series, best first."""
        return history.player_stats(self.history())

    def known_players(self) -> list[str]:
        """Every name seated before, most recently seated first (for quick setup)."""
        rows = self._journal.query(
            "SELECT p.name FROM players p JOIN game_players gp ON gp.player_id = p.id "
            "GROUP BY p.id ORDER BY max(gp.game_id) DESC, p.name"
        )
        return [str(row[0]) for row in rows]

    # -- helpers ------------------------------------------------------------------

    def _series_names(self, series_id: int) -> set[str]:
        """The names (as they are now) of the players of the series' games so far."""
        rows = self._journal.query(
            "SELECT DISTINCT p.name FROM players p JOIN game_players gp ON gp.player_id = p.id "
            "JOIN games g ON g.id = gp.game_id WHERE g.series_id = ? AND g.withdrawn_at IS NULL",
            (series_id,),
        )
        names = self.renames(series_id)
        return {names.get(str(row[0]), str(row[0])) for row in rows}

    def series_names(self, series_id: int) -> list[str]:
        """The players of the series' games so far, by the name each has now, sorted."""
        return sorted(self._series_names(series_id), key=str.casefold)

    def _tell(self, sentence: str) -> None:
        """Add a sentence to `notices`, once."""
        if sentence not in self.notices:
            self.notices.append(sentence)

    def _replay(self, game_id: int, series_id: int, number: int) -> Timeline:
        rows = self._journal.query(
            "SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        where: str = N_("its log")
        try:
            if [seq for seq, _ in rows] != list(range(1, len(rows) + 1)):
                raise ValueError("its entries are not numbered 1, 2, 3…")
            entries = []
            for seq, text in rows:
                where = Notice(N_("entry {seq}"), seq=seq)
                entries.append(entry_from_json(json.loads(str(text))))
            where = N_("its log")
            return Timeline.from_log(entries)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            # IllegalAction is a ValueError; a malformed row can raise any of these.
            raise UnreadableGameError(
                game_id, series_id, number, unreadable_reason(where, error)
            ) from error

    # -- series and games ---------------------------------------------------------

    def new_series(self) -> int:
        """Start a series (its games follow with `new_game`); return its id."""
        with self._journal.write(N_("the new series")) as conn:
            cursor = conn.execute(
                "INSERT INTO series (started_at) VALUES (?)", (self._journal.now_text(),)
            )
            series_id = cursor.lastrowid
        assert series_id is not None
        return series_id

    def new_game(
        self,
        series_id: int,
        players: Sequence[str],
        first_player: int,
        renames: Mapping[str, str] | None = None,
        said_as: Sequence[str] = (),
    ) -> SavedGame:
        """Seat the players for the series' next game and persist its `GameStarted`.

        The roster is checked by the domain first (`IllegalAction`, nothing written);
        a series has at most three games, each started once the previous has results.
        `renames` maps a name of the series' earlier games to the new name the same
        player has in this roster (the table said so): the series totals carry the
        points over. It is saved with the game, in the same transaction.
        `said_as` is how each name is said, by seat: it lives in the `GameStarted`
        entry's JSON (no column, no migration), so old logs load as they were.
        """
        with self._journal.lock:
            timeline = Timeline.start(clean_roster(players), first_player, said_as)
            self._check_series_open(series_id)
            games = self._journal.query(
                "SELECT number, finished_at FROM games "
                "WHERE series_id = ? AND withdrawn_at IS NULL ORDER BY number",
                (series_id,),
            )
            if len(games) >= GAMES_PER_SERIES:
                raise IllegalAction(
                    "A series has {games} games and this one has had them all: start a new series.",
                    games=GAMES_PER_SERIES,
                )
            if games and games[-1][1] is None:
                raise IllegalAction(
                    "Game {number} of this series has no results yet: "
                    "enter them before starting the next game.",
                    number=games[-1][0],
                )
            number = len(games) + 1
            names = timeline.state.players
            carried = self._check_renames(series_id, names, dict(renames or {}))
            started = timeline.log[0]
            with self._journal.write(N_("the new game")) as conn:
                at = self._journal.now_text()
                game_id = conn.execute(
                    "INSERT INTO games (series_id, number, started_at) VALUES (?, ?, ?)",
                    (series_id, number, at),
                ).lastrowid
                assert game_id is not None
                for seat, name in enumerate(names):
                    conn.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
                    conn.execute(
                        "INSERT INTO game_players (game_id, seat, player_id) "
                        "SELECT ?, ?, id FROM players WHERE name = ?",
                        (game_id, seat, name),
                    )
                conn.execute(
                    "INSERT INTO log (game_id, seq, at, entry) VALUES (?, 1, ?, ?)",
                    (game_id, at, entry_text(started)),
                )
                for old_name, new_name in carried.items():
                    conn.execute(
                        "INSERT INTO renames (game_id, old_name, new_name) VALUES (?, ?, ?)",
                        (game_id, old_name, new_name),
                    )
            game = SavedGame(self._journal, game_id, series_id, number, timeline)
            self._games[game_id] = game
            self._journal.acknowledge(game_id, 1)
            # The game's row and seating leave the WAL: damage to it can then cost
            # only actions, and the table is told how many (see `wal_loss`).
            self._journal.checkpoint()
            return game

    def withdraw_game(self, game_id: int) -> None:
        """Take back a game started by accident: nothing was played in it yet.

        Its row, seating and log stay (the log is append-only) but it no longer
        counts: its series is as before the start (the number is free again, a
        rename recorded with it is void) and it is never offered to resume.
        Refused (`IllegalAction`) once anything was done in it (even if undone),
        the end of the eyes-closed reveal aside (`Timeline.just_started`).
        """
        with self._journal.lock:
            game = self.load_game(game_id)
            if not game.timeline.just_started:
                raise IllegalAction(
                    "Game {number} has been played: only a game with nothing "
                    "done yet can be taken back.",
                    number=game.number,
                )
            with self._journal.write(N_("taking the game back")) as conn:
                conn.execute(
                    "UPDATE games SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL",
                    (self._journal.now_text(), game_id),
                )
            del self._games[game_id]

    def abandon_series(self, series_id: int) -> None:
        """The table starts afresh instead of resuming: the series is no longer offered.

        A complete series stays in the history; abandoning it changes nothing.
        """
        self._check_series_exists(series_id)
        with self._journal.write(N_("abandoning the series")) as conn:
            conn.execute(
                "UPDATE series SET abandoned_at = ? WHERE id = ? AND abandoned_at IS NULL "
                "AND (SELECT count(*) FROM games WHERE series_id = series.id "
                "     AND finished_at IS NOT NULL) < ?",
                (self._journal.now_text(), series_id, GAMES_PER_SERIES),
            )

    # -- helpers ------------------------------------------------------------------

    def _check_series_exists(self, series_id: int) -> tuple[object, ...]:
        rows = self._journal.query("SELECT id, abandoned_at FROM series WHERE id = ?", (series_id,))
        if not rows:
            raise IllegalAction("There is no series {series}.", series=series_id)
        return rows[0]

    def _check_series_open(self, series_id: int) -> None:
        if self._check_series_exists(series_id)[1] is not None:
            raise IllegalAction("This series was abandoned: start a new series instead.")

    def _check_renames(
        self, series_id: int, roster: Sequence[str], renames: dict[str, str]
    ) -> dict[str, str]:
        """The renames, checked: an earlier player's name to a new name of this roster."""
        if not renames:
            return {}
        earlier = self._series_names(series_id)
        for old_name, new_name in renames.items():
            if old_name not in earlier or old_name in roster:
                raise IllegalAction(
                    "{name} is not a player of an earlier game who left this roster.",
                    name=old_name,
                )
            if new_name not in roster or new_name in earlier:
                raise IllegalAction("{name} is not a new name of this roster.", name=new_name)
        if len(set(renames.values())) != len(renames):
            raise IllegalAction("Two earlier players cannot become the same player.")
        return renames


def folder_is_a_file(folder: Path) -> Notice:
    """The sentence for a data folder path that names a file."""
    return Notice(
        N_(
            "Data folder {folder} is a file, not a folder; move the file away or "
            "choose another folder with --data-dir."
        ),
        folder=folder,
    )


def progress_path(database: Path) -> Path:
    """The progress file beside `database` (see `moderator.storage.progress`)."""
    return database.with_name(database.name + ".progress")
