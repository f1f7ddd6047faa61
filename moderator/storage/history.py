"""History and per-player stats, computed from replayed games with the domain's rules.

Only complete series count (three games with results): that is what "won the
series" means, and it keeps the stats equal to the sums of the history table.
Players are told apart by their exact name, as typed at setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from moderator.domain import GameState, Team
from moderator.domain.rules import series_totals, winners_of
from moderator.storage.records import GameScore, PlayerStats, SeriesRecord
from moderator.storage.score_cache import CachedScore


def game_score(
    game_id: int,
    number: int,
    state: GameState,
    finished_at: datetime,
    started_at: datetime | None = None,
) -> GameScore:
    """The score line of a game with results (the caller checks `state.result`)."""
    result = state.result
    if result is None:
        raise ValueError("A game without results has no score.")
    outcome = CachedScore(
        state.players, state.first_player, result.winner, result.possessed, result.points, 0
    )
    return cached_game_score(game_id, number, outcome, finished_at, started_at)


def cached_game_score(
    game_id: int,
    number: int,
    cached: CachedScore,
    finished_at: datetime,
    started_at: datetime | None = None,
) -> GameScore:
    """The score line of a finished game from its outcome (the score cache: no replay)."""
    return GameScore(
        game_id=game_id,
        number=number,
        players=cached.players,
        points=dict(zip(cached.players, cached.points, strict=True)),
        winner=cached.winner,
        finished_at=finished_at,
        possessed=frozenset(cached.players[seat] for seat in cached.possessed),
        first_player=cached.players[cached.first_player],
        started_at=started_at,
    )


def series_record(series_id: int, started_at: datetime, games: Sequence[GameScore]) -> SeriesRecord:
    """A complete series with its totals and winner(s) (co-winners on a tie)."""
    totals = series_totals([game.points for game in games])  # summed once, winners from it
    return SeriesRecord(
        series_id=series_id,
        started_at=started_at,
        finished_at=max(game.finished_at for game in games),
        games=tuple(games),
        totals=totals,
        winners=winners_of(totals, len(games)),
    )


#: The counters of a player's `PlayerStats`, in the order a `StatsTable` keeps them.
STATS_FIELDS = (
    "series_played",
    "series_won",
    "games_played",
    "games_won",
    "wins_as_sane",
    "wins_as_possessed",
    "points",
)
#: One list of counters per name, indexed as `STATS_FIELDS` (20,000 games: a dict per
#: name and a call per cell made the stats a third of the history's time).
StatsTable = dict[str, list[int]]


def player_stats(records: Sequence[SeriesRecord]) -> list[PlayerStats]:
    """Totals per player name: most series won first, then points, then name."""
    table: StatsTable = {}
    for record in records:
        for name in record.totals:
            table.setdefault(name, [0] * 7)[0] += 1
        for name in record.winners:
            table.setdefault(name, [0] * 7)[1] += 1
        for game in record.games:
            sane_won = game.winner is Team.SANE
            for name in game.players:
                stats = table.setdefault(name, [0] * 7)
                stats[2] += 1
                stats[6] += game.points[name]
                if (name in game.possessed) is not sane_won:  # on the winning team
                    stats[3] += 1
                    stats[4 if sane_won else 5] += 1
    return stats_of(table)


def stats_of(table: StatsTable) -> list[PlayerStats]:
    """The counted table as `PlayerStats`, best first (shared by the flat history path)."""
    result = [
        PlayerStats(name, **dict(zip(STATS_FIELDS, numbers, strict=True)))
        for name, numbers in table.items()
    ]
    result.sort(key=lambda s: (-s.series_won, -s.points, -s.games_won, s.name.casefold(), s.name))
    return result
