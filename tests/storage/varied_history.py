"""A varied history played into a store: many series of 4-10 seated players (unicode, wide
and formula names, names equal but for case), random legal results, co-winners, chained
renames, a withdrawn game, an abandoned series and an unfinished game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from moderator.domain import PlayerKnockedOut, ResultsDeclared, Timeline, TurnPassed
from moderator.storage import Store
from tests.storage.storage_play import random_results

NAMES = (
    "Ann",
    "ann",
    "Zoë",
    "José",
    "李雷",
    "🦇 Bat",
    "=SUM(A1)",
    "+Eve",
    "'Quote",
    'O"Neil, Jr',
    "Émile",
    "emile",
    "Bob",
    "Cyd",
)


def play(store: Store, series: int, roster: Sequence[str], rng: random.Random, **kw: object) -> int:
    """One game of `roster` to random (legal) results; its id."""
    game = store.new_game(series, roster, rng.randrange(len(roster)), **kw)  # type: ignore[arg-type]
    for _ in range(rng.randint(0, 2)):
        game.record(TurnPassed())
    state = game.state
    for seat in range(state.count - 2):
        game.record(PlayerKnockedOut(seat))
    game.record(random_results(Timeline.from_log(game.timeline.log), rng))
    return game.game_id


def roster_of(rng: random.Random) -> list[str]:
    """4 to 10 names, no two the same but for case (one roster refuses that; two may not)."""
    roster: dict[str, str] = {}
    for name in rng.sample(NAMES, len(NAMES)):
        roster.setdefault(name.casefold(), name)
    return list(roster.values())[: rng.randint(4, 10)]


def varied_history(store: Store) -> None:
    """The history the rows and the summary are checked on (seeded: the same every run)."""
    rng = random.Random(15)
    for _ in range(12):
        series = store.new_series()
        roster = roster_of(rng)
        for _ in range(3):
            play(store, series, roster, rng)
    tie = store.new_series()  # co-winners: everyone scores the same
    for _ in range(3):
        game = store.new_game(tie, ["Ann", "李雷", "Bob", "Cyd"], 1)
        game.record(PlayerKnockedOut(0))
        game.record(PlayerKnockedOut(2))
        game.record(ResultsDeclared((0, 2), (0, 0, 0, 0)))  # Sane win: 李雷 and Cyd 1 each
    chain = store.new_series()  # Noah -> Noah B -> Noah Bell, carried over the series
    play(store, chain, ["Ann", "Noah", "Zoë", "Bob"], rng)
    play(store, chain, ["Ann", "Noah B", "Zoë", "Bob"], rng, renames={"Noah": "Noah B"})
    store.withdraw_game(store.new_game(chain, ["Ann", "Nope", "Zoë", "Bob"], 0).game_id)
    play(store, chain, ["Ann", "Noah Bell", "Zoë", "Bob"], rng, renames={"Noah B": "Noah Bell"})
    dropped = store.new_series()  # played games of a series set aside: BG Stats plays only
    play(store, dropped, ["Ann", "Bob", "Cyd", "Dee"], rng)
    play(store, dropped, ["Ann", "Bob", "Cyd", "Dee"], rng)
    store.abandon_series(dropped)
    open_series = store.new_series()  # unfinished: its game in progress counts nowhere
    play(store, open_series, ["Zoë", "José", "Cyd", "Dee"], rng)
    store.new_game(open_series, ["Zoë", "José", "Cyd", "Dee"], 2).record(TurnPassed())
