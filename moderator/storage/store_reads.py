"""Reading the score database: games rebuilt from their logs, resume, history, names.

`Store` (moderator.storage.store) opens the file and writes; this base holds
every read, which needs only the journal: a game replayed from its log (the one
truth), the series to resume, scores, history, and the names of a series'
players as they are now (renames applied).
"""

from __future__ import annotations

import json
from pathlib import Path

from moderator.domain import GameState, Timeline
from moderator.domain.rules import GAMES_PER_SERIES
from moderator.domain.timeline import entry_from_json
from moderator.domain.worded import N_
from moderator.storage import history, scores
from moderator.storage.errors import Notice, StorageError
from moderator.storage.history_summary import HistorySummary, summary
from moderator.storage.journal import Journal
from moderator.storage.records import (
    GameScore,
    PlayerStats,
    SeriesRecord,
)
from moderator.storage.saved_game import SavedGame, Unfinished
from moderator.storage.set_aside import (
    UnreadableGameError,
    left_out_sentence,
    unreadable_reason,
)


class StoreReads:
    """The reads of an open score database (see the module); `Store` adds opening and writing."""

    path: Path
    notices: list[str]
    _journal: Journal
    _games: dict[int, SavedGame]

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
