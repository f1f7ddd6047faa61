"""Figures and instruments the benches share. Not a bench itself: `make bench` runs
bench/bench_*.py only."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from moderator.narration.speech.speaker import SpeechFault


class StampingPlayer:
    """A player that starts at once and notes when it is asked to play: the moment a key's
    first clip is handed over, without the sound card's own delay (a recording stand-in)."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def available(self) -> SpeechFault | None:
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        self.asked.append(time.perf_counter())
        on_start()

    def stop(self) -> None:
        pass


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile (no interpolation, so p95 or p99 is a real sample)."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of the values, nearest rank counted from 0 to n-1.

    Not `percentile`'s rank (which counts from 1 to n): the start-up and board benches
    have reported their p95 with this one, so their figures stay comparable.
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def ms(seconds: float) -> str:
    """`seconds` as milliseconds, in a column 10 characters wide."""
    return f"{seconds * 1000:7.1f} ms"


async def time_next_turns(
    app: Any, pilot: Any, count: int, into: list[float], cpu: list[float] | None = None
) -> None:
    """Press "n" `count` times on the table screen, each timed from the key to a pause.

    Each key's effect is checked on screen (the current player's big name), so a
    screen that lags the state fails the bench instead of flattering it. `cpu`,
    if given, gets each key's CPU time of the process too (it moves less than
    the wall clock on a busy machine).
    """
    from moderator.tui.widgets.bigtext import BigText

    for _ in range(count):
        started, cpu_started = time.perf_counter(), time.process_time()
        app.simulate_key("n")
        await pilot.pause(0)
        into.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - cpu_started)
        state = app.controller.state
        shown = app.screen.query_one("#table-current", BigText).text
        assert shown == state.players[state.current], "the screen lags the state"
