"""Plain read-only records the store hands out, and how times are written down.

Times are stored as ISO 8601 text in UTC (sortable, readable in any SQLite
browser, unambiguous across daylight-saving changes); the UI converts to local
time for display.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo

from moderator.domain import Team


def utc_now() -> datetime:
    """The default clock: whole seconds, so every export format round-trips exactly."""
    return datetime.now(UTC).replace(microsecond=0)


def time_to_text(moment: datetime) -> str:
    """A timezone-aware moment as UTC ISO text; naive moments are refused."""
    if moment.tzinfo is None:
        raise ValueError("Timestamps must be timezone-aware.")
    return moment.astimezone(UTC).isoformat()


def time_from_text(text: str) -> datetime:
    """Inverse of `time_to_text` (always timezone-aware)."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def clock_text(moment: datetime, zone: tzinfo | None = UTC, *, seconds: bool = True) -> str:
    """``YYYY-MM-DD HH:MM:SS`` (or ``HH:MM``) of `moment` in `zone` (None: local time).

    What ``strftime("%Y-%m-%d %H:%M:%S")`` gives, cut from the C `isoformat`:
    strftime costs several times more, and a 20,000-game export writes 60,000 times.
    """
    return moment.astimezone(zone).isoformat(" ", "seconds")[: 19 if seconds else 16]


@dataclass(frozen=True)
class GameScore:
    """One game that has results: who played, who won, the points it gave."""

    game_id: int
    #: 1, 2 or 3 within its series.
    number: int
    #: Names in clockwise seating order.
    players: tuple[str, ...]
    #: Series points per player name (0 for the losing team).
    points: Mapping[str, int]
    winner: Team
    #: When the results (still standing) were entered.
    finished_at: datetime
    #: The players who growled (the teams are public once the game is over).
    possessed: frozenset[str] = frozenset()
    #: Who took the first turn (from the game log's `GameStarted`); None when a
    #: source does not say (an export written before this was recorded).
    first_player: str | None = None
    #: When the game was set up; None when a source does not say.
    started_at: datetime | None = None

    def team_of(self, name: str) -> Team:
        """Which side `name` played on in this game."""
        return Team.POSSESSED if name in self.possessed else Team.SANE


@dataclass(frozen=True)
class SeriesRecord:
    """A complete series (three games with results), as the history shows it."""

    series_id: int
    started_at: datetime
    #: When the third game's results were entered.
    finished_at: datetime
    games: tuple[GameScore, ...]
    #: Points per player over the three games.
    totals: Mapping[str, int] = field(default_factory=dict)
    #: The player(s) with the most points; more than one on a tie.
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerStats:
    """One player's record over every complete series (players are told apart by name)."""

    name: str
    series_played: int
    series_won: int
    games_played: int
    games_won: int
    wins_as_sane: int
    wins_as_possessed: int
    points: int
