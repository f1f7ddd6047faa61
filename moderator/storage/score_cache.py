"""The score line of a finished game, cached beside its log (`games.score`, schema v4).

The log stays the only truth: the cache is written in the same transaction as the
log entry that gives, changes or takes back the results (`SavedGame.record`), and
the migration fills it by replaying each finished game once. What it saves is the
replay itself: the history of 20,000 games read from the cache takes a fraction
of a second, replaying them takes seconds. A missing or unreadable cache (a
hand-edited file) falls back to the replay.

The text is compact JSON: ``{"players": [names as seated], "first_player": seat,
"winner": "sane" | "possessed", "possessed": [seats], "points": [per seat],
"entries": n}``. `entries` is the log's length when it was written: a log that
has grown since (a row added by hand) is replayed, so it is judged as the log says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
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
