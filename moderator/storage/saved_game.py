"""A game whose every action is committed to disk before it is applied in memory."""

from __future__ import annotations

import json
from dataclasses import dataclass

from moderator.domain import GameState, IllegalAction, Timeline
from moderator.domain.timeline import LogEntry, Undo, entry_to_json
from moderator.domain.worded import N_
from moderator.storage.journal import Journal
from moderator.storage.score_cache import score_text


def entry_text(entry: LogEntry) -> str:
    """The JSON text stored in `log.entry` (compact; names kept as typed, not escaped)."""
    return json.dumps(entry_to_json(entry), ensure_ascii=False, separators=(",", ":"))


class SavedGame:
    """One game of a series, bound to the database that holds its log.

    The write-ahead rule lives in `record`: the domain computes the timeline
    after the entry (`Timeline.after`, which refuses an illegal one), the entry
    is committed in its own transaction, and only then does `timeline` become
    the new one. A failed commit raises `StorageWriteError` and leaves
    `timeline` as it was, so what the table sees is always what a restart would
    rebuild.
    """

    def __init__(
        self, journal: Journal, game_id: int, series_id: int, number: int, timeline: Timeline
    ) -> None:
        self._journal = journal
        self.game_id = game_id
        self.series_id = series_id
        #: 1, 2 or 3 within its series.
        self.number = number
        #: The in-memory game; replaced only by `record`.
        self.timeline = timeline

    def __repr__(self) -> str:
        return (
            f"SavedGame(game_id={self.game_id}, series_id={self.series_id}, "
            f"number={self.number}, entries={len(self.timeline.log)})"
        )

    @property
    def state(self) -> GameState:
        """The current public state of the game."""
        return self.timeline.state

    @property
    def finished(self) -> bool:
        """Whether the results are entered (and not undone)."""
        return self.timeline.state.result is not None

    def record(self, entry: LogEntry) -> GameState:
        """Persist `entry` (an event, `Undo()` or `Redo()`), then apply it; return the state.

        Raises `IllegalAction` (nothing written) if the rules refuse it, and
        `StorageWriteError` (nothing changed) if it cannot be saved.
        """
        with self._journal.lock:
            following = self.timeline.after(entry)
            if isinstance(entry, Undo) and self.finished:
                self._check_results_can_be_undone()
            was_finished = self.finished
            now_finished = following.state.result is not None
            ended = following.state.is_over and not self.timeline.state.is_over
            seq = len(self.timeline.log) + 1
            at = self._journal.now_text()
            with self._journal.write(N_("that action")) as conn:
                conn.execute(
                    "INSERT INTO log (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                    (self.game_id, seq, at, entry_text(entry)),
                )
                if now_finished != was_finished:
                    conn.execute(
                        "UPDATE games SET finished_at = ? WHERE id = ?",
                        (at if now_finished else None, self.game_id),
                    )
                if following.state.result != self.timeline.state.result:
                    # The score cache moves with the results, in the same transaction.
                    conn.execute(
                        "UPDATE games SET score = ? WHERE id = ?",
                        (score_text(following.state, seq), self.game_id),
                    )
            self.timeline = following
            self._journal.acknowledge(self.game_id, seq)
            if ended or (now_finished and not was_finished):
                # The game's end and its results leave the WAL (see `progress`).
                self._journal.checkpoint()
            return following.state

    def _check_results_can_be_undone(self) -> None:
        """Once any later game has started, this game's results are settled.

        Otherwise a series could end up with two games awaiting results, or a
        finished series could reopen behind a newer one.
        """
        rows = self._journal.query(
            "SELECT 1 FROM games WHERE id > ? AND withdrawn_at IS NULL LIMIT 1", (self.game_id,)
        )
        if rows:
            raise IllegalAction(
                "Another game has started since game {number}: "
                "its results can no longer be undone.",
                number=self.number,
            )


@dataclass(frozen=True)
class Unfinished:
    """The series to resume at start-up, and its game in progress if any."""

    series_id: int
    #: The game without results, or None between games (the next one is not set up yet).
    game: SavedGame | None
