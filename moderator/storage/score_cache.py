"""The score line of a finished game, cached beside its log (`game_scores`, schema v5).

The log stays the only truth: the cache is written in the same transaction as the
log entry that gives, changes or takes back the results (`SavedGame.record`), and
the migration fills it by replaying each finished game once. What it saves is the
replay itself: the history of 20,000 games read from the cache takes a fraction
of a second, replaying them takes seconds. A missing or unreadable cache (a
hand-edited file) falls back to the replay.

Schema v5 keeps it as one `game_scores` row per seat, each number in its own column
(`score_rows`, `score_from_rows`): parsing v4's JSON text (`games.score`, still
written by the v4 migration only) was a quarter of a second at 20,000 games. The
v4 text is compact JSON: ``{"players": [names as seated], "first_player": seat,
"winner": "sane" | "possessed", "possessed": [seats], "points": [per seat],
"entries": n}``. `entries` is the log's length when it was written: a log that
has grown since (a row added by hand) is replayed, so it is judged as the log says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moderator.domain import GameState, Team

_TEAMS = {team.value: team for team in Team}


@dataclass(frozen=True)
class CachedScore:
    """A finished game's outcome as the cache holds it (names as seated)."""

    players: tuple[str, ...]
    first_player: int
    winner: Team
    possessed: frozenset[int]
    points: tuple[int, ...]
    #: The game's log length when the cache was written.
    entries: int

    def renamed(self, names: Mapping[str, str]) -> CachedScore:
        """The same outcome with each player under the name they have now in the series."""
        if not names or not any(name in names for name in self.players):  # most series
            return self
        return CachedScore(
            tuple(names.get(name, name) for name in self.players),
            self.first_player,
            self.winner,
            self.possessed,
            self.points,
            self.entries,
        )


def score_text(state: GameState, entries: int) -> str | None:
    """The cache text for `state` after `entries` log entries, or None without results."""
    result = state.result
    if result is None:
        return None
    document = {
        "players": list(state.players),
        "first_player": state.first_player,
        "winner": result.winner.value,
        "possessed": sorted(result.possessed),
        "points": list(result.points),
        "entries": entries,
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


#: One seat of a score line: (game_id, seat, player, points, possessed, first_player,
#: winner, entries), as `game_scores` holds it.
ScoreRow = tuple[int, int, str, int, int, int, str, int]
SCORE_ROW_INSERT = (
    "INSERT INTO game_scores (game_id, seat, player, points, possessed, first_player, "
    "winner, entries) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def score_rows(game_id: int, state: GameState, entries: int) -> list[ScoreRow]:
    """The `game_scores` rows for `state` after `entries` log entries (none without results)."""
    result = state.result
    if result is None:
        return []
    winner = result.winner.value
    return [
        (
            game_id,
            seat,
            name,
            points,
            int(seat in result.possessed),
            state.first_player,
            winner,
            entries,
        )
        for seat, (name, points) in enumerate(zip(state.players, result.points, strict=True))
    ]


def score_from_rows(rows: Sequence[Sequence[object]]) -> CachedScore | None:
    """The outcome from one game's rows (seat, player, points, possessed, first, winner,
    entries), in seat order; None if they do not make one (a hand-edited file: replay)."""
    try:
        players = tuple(str(row[1]) for row in rows)
        points = tuple(int(row[2]) for row in rows)  # type: ignore[call-overload]
        possessed = frozenset(index for index, row in enumerate(rows) if row[3])
        first, winner, entries = rows[0][4], _TEAMS[str(rows[0][5])], rows[0][6]
    except (ValueError, TypeError, KeyError, IndexError):
        return None
    seats = range(len(players))
    if (
        not isinstance(first, int)
        or not isinstance(entries, int)
        or first not in seats
        or [row[0] for row in rows] != list(seats)
    ):
        return None
    return CachedScore(players, first, winner, possessed, points, entries)


def score_from_text(text: object) -> CachedScore | None:
    """The cached outcome, or None if there is none or it cannot be read (then replay)."""
    if not isinstance(text, str):
        return None
    try:
        document: Any = json.loads(text)
        players = tuple(map(str, document["players"]))
        points = tuple(map(int, document["points"]))
        possessed = frozenset(map(int, document["possessed"]))
        first = int(document["first_player"])
        winner = _TEAMS[document["winner"]]
        entries = int(document["entries"])
    except (ValueError, TypeError, KeyError):
        return None
    seats = range(len(players))
    if len(points) != len(players) or first not in seats or not possessed <= set(seats):
        return None
    return CachedScore(players, first, winner, possessed, points, entries)
