"""Figures the benches share. Not a bench itself: `make bench` runs bench/bench_*.py only."""

from __future__ import annotations


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile (no interpolation, so p95 or p99 is a real sample)."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]
