"""Reading finished games' scores in bulk: the history, the exports, a series board.

A score comes from the game's score cache (`moderator.storage.score_cache`); only
a game without a readable cache is replayed from its log. The history is two
reads whatever the number of games (the series, then every game with results,
with every rename in a third), grouped here: linear, where one query per series
made 20,000 games take seconds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from moderator.domain import GameState
from moderator.domain.rules import GAMES_PER_SERIES
from moderator.storage import history
from moderator.storage.journal import Journal
from moderator.storage.records import GameScore, SeriesRecord, time_from_text
from moderator.storage.score_cache import score_from_text

#: The game rebuilt from its log (as seated, before renames), for a game without cache;
#: None when its log cannot be rebuilt (the store then tells the table it is left out).
Replay = Callable[[int], GameState | None]
#: A series' renames: old name -> the name the same player has now.
NamesOf = Callable[[int], Mapping[str, str]]

_WITH_RESULTS = "WHERE finished_at IS NOT NULL AND withdrawn_at IS NULL"


def series_scores(
    journal: Journal, where: str, params: tuple[object, ...], names_of: NamesOf, replay: Replay
) -> list[tuple[int, GameScore]]:
    """(series id, score) of each game `where` selects that has results, in its order."""
    rows = journal.query(
        "SELECT id, number, started_at, finished_at, series_id, score, "  # noqa: S608
        f"(SELECT max(seq) FROM log WHERE log.game_id = games.id) FROM games {where}",
        params,
    )
    scores: list[tuple[int, GameScore]] = []
    for game_id, number, started_at, finished_at, series_id, score, entries in rows:
        assert isinstance(game_id, int) and isinstance(number, int)
        assert isinstance(series_id, int)
        names = names_of(series_id)
        started = time_from_text(str(started_at))
        cached = score_from_text(score) if isinstance(finished_at, str) else None
        if cached is not None and cached.entries == entries and isinstance(finished_at, str):
            line = history.cached_game_score(
                game_id, number, cached.renamed(names), time_from_text(finished_at), started
            )
            scores.append((series_id, line))
            continue
        replayed = replay(game_id)
        if replayed is None:
            continue  # its log cannot be rebuilt: left out (the store said so)
        state = renamed(replayed, names)
        if state.result is None:
            continue
        # The cache is kept with the log; the fallback only covers a hand-edited file.
        moment = finished_at if isinstance(finished_at, str) else _last_time(journal, game_id)
        line = history.game_score(game_id, number, state, time_from_text(moment), started)
        scores.append((series_id, line))
    return scores


def finished_games(journal: Journal, replay: Replay) -> list[GameScore]:
    """Every game with results, of any series, oldest first."""
    names = all_renames(journal)
    return [
        score
        for _, score in series_scores(
            journal, f"{_WITH_RESULTS} ORDER BY id", (), lambda s: names.get(s, {}), replay
        )
    ]


def complete_series(journal: Journal, replay: Replay) -> list[SeriesRecord]:
    """Every complete series (3 games with results), oldest first."""
    started = {
        int(str(series_id)): str(moment)
        for series_id, moment in journal.query("SELECT id, started_at FROM series")
    }
    names = all_renames(journal)
    games: dict[int, list[GameScore]] = {}
    for series_id, score in series_scores(
        journal,
        f"{_WITH_RESULTS} ORDER BY series_id, number",
        (),
        lambda s: names.get(s, {}),
        replay,
    ):
        games.setdefault(series_id, []).append(score)
    return [
        history.series_record(series_id, time_from_text(started[series_id]), scores)
        for series_id, scores in sorted(games.items())
        if len(scores) >= GAMES_PER_SERIES and series_id in started
    ]


def all_renames(journal: Journal) -> dict[int, dict[str, str]]:
    """Every series' renames at once (one query instead of one per series)."""
    rows = journal.query(
        "SELECT g.series_id, r.old_name, r.new_name FROM renames r "
        "JOIN games g ON g.id = r.game_id "
        "WHERE g.withdrawn_at IS NULL ORDER BY g.series_id, g.number"
    )
    grouped: dict[int, dict[str, str]] = {}
    for series_id, old_name, new_name in rows:
        assert isinstance(series_id, int)
        grouped.setdefault(series_id, {})[str(old_name)] = str(new_name)
    return {series_id: latest_names(found) for series_id, found in grouped.items()}


def latest_names(renames: Mapping[str, str]) -> dict[str, str]:
    """Follow chains of renames (Noah -> Noah B -> Noah Bell) to the name used now."""
    latest: dict[str, str] = {}
    for old_name in renames:
        name, seen = old_name, {old_name}
        while name in renames and renames[name] not in seen:
            name = renames[name]
            seen.add(name)
        latest[old_name] = name
    return latest


def renamed(state: GameState, names: Mapping[str, str]) -> GameState:
    """The game with each player under the name they have now in the series."""
    if not any(name in names for name in state.players):
        return state
    return dataclasses.replace(
        state, players=tuple(names.get(name, name) for name in state.players)
    )


def _last_time(journal: Journal, game_id: int) -> str:
    rows = journal.query("SELECT max(at) FROM log WHERE game_id = ?", (game_id,))
    return str(rows[0][0])
