"""Random but legal table play, shared by the crash child and the tests.

Choices go through `Timeline.check`, so whatever the domain allows (late
knock-outs, sit-outs, undo/redo) may happen, and nothing illegal is ever sent.
"""

from __future__ import annotations

import random

from moderator.domain import (
    Event,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    SitOutToggled,
    Timeline,
    TurnPassed,
    setup_for,
)
from moderator.domain.errors import IllegalAction
from moderator.domain.timeline import LogEntry, Redo, Undo

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def random_roster(rng: random.Random) -> tuple[list[str], int]:
    """4 to 10 distinct names and a first player."""
    players = rng.sample(NAMES, rng.randint(4, 10))
    return players, rng.randrange(len(players))


def random_results(timeline: Timeline, rng: random.Random) -> ResultsDeclared:
    """Results the rules accept: enough Possessed, Waffles within the box's 12."""
    state = timeline.state
    needed = setup_for(state.count).mind_flayer
    possessed = tuple(sorted(rng.sample(range(state.count), rng.randint(needed, state.count))))
    waffles = [0] * state.count
    for _ in range(rng.randint(0, 12)):
        waffles[rng.randrange(state.count)] += 1
    return ResultsDeclared(possessed, tuple(waffles))


def random_entry(timeline: Timeline, rng: random.Random) -> LogEntry | None:
    """A legal next entry for an unfinished game, or None once it has results."""
    state = timeline.state
    if state.result is not None:
        return None
    for _ in range(100):
        roll = rng.random()
        entry: LogEntry
        if roll < 0.06:
            entry = Undo()
        elif roll < 0.10:
            entry = Redo()
        elif state.is_over:
            entry = random_results(timeline, rng)
        else:
            entry = _random_event(timeline, rng)
        try:
            timeline.check(entry)
        except IllegalAction:
            continue
        return entry
    raise AssertionError(f"no legal entry found for {state!r}")  # pragma: no cover


def _random_event(timeline: Timeline, rng: random.Random) -> Event:
    state = timeline.state
    seat = rng.randrange(state.count)
    if state.meeting is None:
        return rng.choices(
            [TurnPassed(), PlayerKnockedOut(seat), MeetingStarted(_few_seats(state.count, rng))],
            weights=[6, 1, 2],
        )[0]
    return rng.choices(
        [MeetingResolved(), SitOutToggled(seat), PlayerKnockedOut(seat)], weights=[4, 1, 1]
    )[0]


def _few_seats(count: int, rng: random.Random) -> tuple[int, ...]:
    return tuple(sorted(rng.sample(range(count), rng.choice([0, 0, 0, 1, 2]))))
