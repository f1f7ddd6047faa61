"""Figures the benches share. Not a bench itself: `make bench` runs bench/bench_*.py only."""

from __future__ import annotations

import time
from typing import Any


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile (no interpolation, so p95 or p99 is a real sample)."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


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
