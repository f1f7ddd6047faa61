"""A small history whose figures are counted by hand (issue 37's pictures are checked on it).

Five complete series, written through the store with a pinned clock (each game
starts and ends when the table below says), so every figure is known:

=======  =========  ===========================  ==========================  =========
series   ended      players                      games (winning team)        won by
=======  =========  ===========================  ==========================  =========
1        Jan 10     Ann Bob Cyd Dee              Possessed, Sane, Sane       Ann
2        Jan 24     Ann Bob Cyd Dee              Sane, Sane, Possessed       Bob
3        Feb 7      Eve Fay Gus Hal Ivy          Possessed, Possessed, Sane  Fay
4        Feb 21     Ann Bob Cyd Dee              Sane, Possessed, Sane       Ann
5        Mar 7      Ann Bob Cyd Dee              Sane, Sane, Sane            Ann
=======  =========  ===========================  ==========================  =========

Every game lasts 20 minutes but series 4's third (12 minutes) and series 3's
second (7 minutes). The figures a test expects are worked out in its own text.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import Store

TABLE = ("Ann", "Bob", "Cyd", "Dee")
OTHERS = ("Eve", "Fay", "Gus", "Hal", "Ivy")

#: (players, day it is played, [(possessed seats, waffles per seat, minutes)] * 3).
SERIES = [
    (TABLE, (1, 10), [((0, 1), (1, 0, 0, 0), 20), ((2,), (0,) * 4, 20), ((3,), (0, 0, 2, 0), 20)]),
    (TABLE, (1, 24), [((0,), (0,) * 4, 20), ((0,), (0,) * 4, 20), ((0, 1), (0, 2, 0, 0), 20)]),
    (OTHERS, (2, 7), [((0, 1), (0,) * 5, 20), ((0, 1), (0,) * 5, 7), ((0,), (0,) * 5, 20)]),
    (TABLE, (2, 21), [((2,), (2, 0, 0, 0), 20), ((0, 1), (0,) * 4, 20), ((3,), (0,) * 4, 12)]),
    (TABLE, (3, 7), [((3,), (1, 0, 0, 0), 20), ((3,), (0,) * 4, 20), ((3,), (0,) * 4, 20)]),
]


class Clock:
    """The store's clock, set by the builder before each write."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def build(folder: Path, others_last: bool = False) -> None:
    """Write the five series into a new database in `folder`.

    `others_last`: then a sixth, series 3 played again on April 4 (the other table
    played last).
    """
    clock = Clock()
    played = [*SERIES, (OTHERS, (4, 4), SERIES[2][2])] if others_last else SERIES
    with Store.open(folder, clock=clock) as store:
        for players, (month, day), games in played:
            clock.now = datetime(2026, month, day, 19, 0, tzinfo=UTC)
            series = store.new_series()
            for possessed, waffles, minutes in games:
                game = store.new_game(series, players, 0)
                clock.now += timedelta(minutes=minutes)
                for seat in range(2, len(players)):  # two left in play: the game is over
                    game.record(PlayerKnockedOut(seat))
                game.record(ResultsDeclared(possessed, waffles))
                clock.now += timedelta(minutes=5)
