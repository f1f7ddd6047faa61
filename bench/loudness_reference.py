"""The loudness meter as first written (a Python step per sample): what the fast one must equal.

Why kept: `moderator.narration.audio.loudness` computes the same numbers with
fewer Python steps (a fused K filter, true-peak candidates found from the
samples' high bytes, gains from a table); the tests check that it gives
exactly what this plain transcription of BS.1770 gives, on real speech, and
`bench/bench_loudness.py` measures both in one run. Not used by the app.
Only the per-sample steps are its own (the two filter passes, the true-peak
scan, the gain); the coefficients, kernels, gating and gains are the app's.
"""

from __future__ import annotations

import array
import functools
import math
import operator
from collections.abc import Sequence

from moderator.narration.audio.loudness import (
    CEILING_DBTP,
    FULL_SCALE,
    TARGET_LUFS,
    _k_filter,
    ceiling_gain,
    gated_loudness,
    level_gain,
)
from moderator.narration.audio.true_peak import _PHASES, _TAPS

assert all(len(kernel) == 2 * _TAPS for kernel in _PHASES), "a window per kernel"


def _biquad(
    samples: Sequence[float], b: tuple[float, float, float], a: tuple[float, float]
) -> list[float]:
    """Direct form I filter: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2."""
    b0, b1, b2 = b
    a1, a2 = a
    x1 = x2 = y1 = y2 = 0.0
    out = [0.0] * len(samples)
    for index, x in enumerate(samples):
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        out[index] = y
    return out


def k_weighted(samples: Sequence[int], rate: int) -> list[float]:
    """The samples (full scale = 1.0) through BS.1770's K filter: two passes."""
    (b0, b1, b2, a1, a2), high_pass = _k_filter(rate)
    scaled = [s / FULL_SCALE for s in samples]
    return _biquad(_biquad(scaled, (b0, b1, b2), (a1, a2)), (1.0, -2.0, 1.0), high_pass)


def integrated_loudness(samples: Sequence[int], rate: int) -> float:
    """Gated integrated loudness in LUFS (mono); -inf for silence."""
    return _integrated_loudness(tuple(samples), rate)


def true_peak(samples: Sequence[int]) -> float:
    """The largest magnitude between or at samples, 4x oversampled (full scale = 1.0)."""
    return _true_peak(tuple(samples))


# Both remembered by the samples' values: a test asks for one signal's figures
# directly, then again through `level` and `under_ceiling`, and a figure of the
# same values is the same figure (the per-sample steps ran once, not three times).
@functools.lru_cache(maxsize=4)
def _integrated_loudness(samples: tuple[int, ...], rate: int) -> float:
    return gated_loudness([v * v for v in k_weighted(samples, rate)], rate)


@functools.lru_cache(maxsize=4)
def _true_peak(samples: tuple[int, ...]) -> float:
    if not samples:
        return 0.0
    sample_peak = max(abs(min(samples)), abs(max(samples)))
    if sample_peak == 0:
        return 0.0
    best = float(sample_peak)
    near = sample_peak / 2
    length = len(samples)
    for index in range(length):
        if abs(samples[index]) < near and abs(samples[min(length - 1, index + 1)]) < near:
            continue
        window = [
            samples[i] if 0 <= i < length else 0
            for i in range(index - _TAPS + 1, index + _TAPS + 1)
        ]
        for kernel in _PHASES:
            # The products summed left to right from 0, as a generator would: `map`
            # only spares the Python frame per product (the suite runs this often).
            value = abs(sum(map(operator.mul, window, kernel)))
            best = max(best, value)
    return best / FULL_SCALE


def scaled(samples: Sequence[int], gain: float) -> array.array[int]:
    """The samples times `gain`, rounded and kept inside 16 bits (never wrapped)."""
    top = FULL_SCALE
    return array.array("h", [max(-top - 1, min(top, round(s * gain))) for s in samples])


def level(
    samples: Sequence[int],
    rate: int,
    target: float = TARGET_LUFS,
    ceiling: float = CEILING_DBTP,
) -> array.array[int]:
    """The clip at `target` LUFS, lowered further if its true peak would pass `ceiling`."""
    loudness = integrated_loudness(samples, rate)
    if not math.isfinite(loudness):
        return array.array("h", samples)
    return scaled(samples, level_gain(loudness, true_peak(samples), target, ceiling))


def under_ceiling(samples: array.array[int], ceiling: float = CEILING_DBTP) -> array.array[int]:
    """The mix unchanged, or scaled down as a whole so its true peak is at `ceiling`."""
    gain = ceiling_gain(true_peak(samples), ceiling)
    return samples if gain is None else scaled(samples, gain)
