"""The rulebook as data and pure functions.

Every number the app uses about the game lives here, taken from the rulebook
("Setup", "End of the Game", "If Playing a Series of Games"), so the other
layers never hard-code a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from moderator.domain.errors import IllegalAction

MIN_PLAYERS = 4
MAX_PLAYERS = 10
MEETINGS_PER_GAME = 3
GAMES_PER_SERIES = 3
#: The game ends "as soon as there are only 1 or 2 in play players".
ENDS_AT_IN_PLAY = 2
#: The box holds 12 Waffle Adventure cards: nobody can hold more.
MAX_WAFFLES = 12
REVEAL_FROM_PLAYERS = 6

_MIND_FLAYER_ROLE_CARDS: Mapping[int, int] = {4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 3, 10: 3}
_BACK_IN_BOX: Mapping[int, tuple[str, ...]] = {
    4: ("6+", "9+"),
    5: ("6+", "9+"),
    6: ("9+",),
    7: ("9+",),
    8: ("9+",),
    9: (),
    10: (),
}


class Team(StrEnum):
    """The two sides of the game."""

    SANE = "sane"
    POSSESSED = "possessed"


@dataclass(frozen=True)
class Setup:
    """What the table prepares for a given number of players."""

    players: int
    #: Mind Flayer cards dealt as secret role cards.
    mind_flayer: int
    #: Waffle cards dealt as role cards: one role card per player.
    waffle: int
    #: Adventure-card player symbols that go back in the box.
    back_in_box: tuple[str, ...]
    #: Whether the Possessed open their eyes to find each other.
    reveal: bool


def check_player_count(count: int) -> None:
    """Raise `IllegalAction` unless the game can be played with `count` players."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise IllegalAction(
            "The game is for {least} to {most} players, not {count}.",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=count,
        )


def setup_for(players: int) -> Setup:
    """The setup row of the rulebook for this many players."""
    check_player_count(players)
    mind_flayer = _MIND_FLAYER_ROLE_CARDS[players]
    return Setup(
        players=players,
        mind_flayer=mind_flayer,
        waffle=players - mind_flayer,
        back_in_box=_BACK_IN_BOX[players],
        reveal=players >= REVEAL_FROM_PLAYERS,
    )


def game_should_end(in_play: int, meetings_resolved: int) -> bool:
    """The rulebook's two ways a game ends."""
    return in_play <= ENDS_AT_IN_PLAY or meetings_resolved >= MEETINGS_PER_GAME


def winning_team(possessed: Iterable[int], in_play: Iterable[int]) -> Team:
    """Sane win if at least one Sane player is still in play; else the Possessed."""
    possessed_set = set(possessed)
    if any(seat not in possessed_set for seat in in_play):
        return Team.SANE
    return Team.POSSESSED


def team_of(seat: int, possessed: Iterable[int]) -> Team:
    """Which team a seat played on, once the teams are public."""
    return Team.POSSESSED if seat in set(possessed) else Team.SANE


def points(
    players: int, possessed: Iterable[int], waffles: Sequence[int], winner: Team
) -> tuple[int, ...]:
    """Series points: each winner (knocked out too) gets 1 + 1 per Waffle in hand."""
    possessed_set = set(possessed)
    return tuple(
        1 + waffles[seat] if team_of(seat, possessed_set) is winner else 0
        for seat in range(players)
    )


@dataclass(frozen=True)
class Standing:
    """One line of a series scoreboard."""

    name: str
    total: int
    #: 1 for the leader(s); equal totals share a rank.
    rank: int


def series_totals(games: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Points per player name summed over the games played so far."""
    totals: dict[str, int] = {}
    for game in games:
        for name, score in game.items():
            totals[name] = totals.get(name, 0) + score
    return totals


def standings(games: Sequence[Mapping[str, int]]) -> list[Standing]:
    """Players by total points, highest first; ties share a rank, names break order."""
    totals = series_totals(games)
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0].casefold()))
    result: list[Standing] = []
    for index, (name, total) in enumerate(ordered):
        rank = result[-1].rank if result and result[-1].total == total else index + 1
        result.append(Standing(name, total, rank))
    return result


def series_complete(games_played: int) -> bool:
    """A series is decided after its third game."""
    return games_played >= GAMES_PER_SERIES


def series_winners(games: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """The player(s) with the most points after 3 games; co-winners on a tie.

    The rulebook names no tie-break, so every player sharing the top total wins.
    Empty until the series is complete.
    """
    return winners_of(series_totals(games), len(games))


def winners_of(totals: Mapping[str, int], games_played: int) -> tuple[str, ...]:
    """`series_winners` from totals already summed (the history sums each series once).

    The top total's names in `standings` order (case-folded name; ties keep their order).
    """
    if not series_complete(games_played) or not totals:
        return ()
    top = max(totals.values())
    return tuple(sorted((name for name, total in totals.items() if total == top), key=str.casefold))
