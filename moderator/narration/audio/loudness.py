"""Loudness (ITU-R BS.1770) and true peak, so every clip is as loud as the next and none clips.

Why: espeak's voices come out at different levels (Spanish peaks at -0.04 dBFS,
and clipped when the bed was added under it), and a table should not reach for
the volume between two lines. Each clip is brought to one integrated loudness
(`TARGET_LUFS`) with a true-peak ceiling (`CEILING_DBTP`), and a mix is scaled
down as a whole when the bed would push it over the ceiling, so no sample is
ever clipped.

Pure Python on sample arrays (the app has no numpy), and few Python steps per
sample, because a fresh reveal mix levels ~13 s of speech and checks ~20 s of
mix: the K-weighting is the two biquads fused into one loop that keeps only
the squares, the true peak (`true_peak`) interpolates next to the loud
samples only, and a gain is applied through a table of the 65536 sample
values. Every number is computed with the same operations in the same order
as a meter that takes one Python step per sample per stage
(bench/loudness_reference.py), so the audio is the same to the bit.
"""

from __future__ import annotations

import array
import math
import operator
from collections.abc import Sequence
from itertools import chain, repeat

from moderator.narration.audio.true_peak import FULL_SCALE, true_peak

__all__ = [
    "CEILING_DBTP",
    "FULL_SCALE",
    "TARGET_LUFS",
    "decibels",
    "integrated_loudness",
    "level",
    "scaled",
    "true_peak",
    "under_ceiling",
]

#: The loudness every clip is brought to (LUFS). Measured on every line of the four
#: shipped languages (espeak-ng, 175 wpm): true peak sits 12.8 to 21.5 dB above the
#: loudness, so -23 LUFS is the loudest target that brings every clip there with a
#: plain gain under the -1 dBTP ceiling (at -20, the peakiest Spanish lines would need
#: a limiter or end up 2 LU short).
TARGET_LUFS = -23.0
#: No sample, and no value between two samples, above this (dBFS true peak).
CEILING_DBTP = -1.0
#: Gating of BS.1770-4: 400 ms blocks every 100 ms, -70 LUFS absolute, -10 LU relative.
_BLOCK = 0.4
_STEP = 0.1
_ABSOLUTE_GATE = -70.0
_RELATIVE_GATE = -10.0
#: From this many samples on, a gain is applied through a table of every 16-bit value
#: (65536 products once, then a lookup per sample instead of a product and a rounding).
_TABLE_FROM = 100_000


def _k_filter(rate: int) -> tuple[tuple[float, float, float, float, float], tuple[float, float]]:
    """BS.1770's K filter for any sample rate: the shelf's b0 b1 b2 a1 a2, the high pass's a1 a2.

    The two stages' analogue parameters are those of libebur128 and pyloudnorm,
    bilinear-transformed for `rate` (the standard gives 48 kHz coefficients).
    The high pass's b is (1, -2, 1).
    """
    shelf_k = math.tan(math.pi * 1681.974450955533 / rate)
    q = 0.7071752369554196
    vh = 10 ** (3.999843853973347 / 20)
    vb = vh**0.4996667741545416
    a0 = 1 + shelf_k / q + shelf_k**2
    shelf = (
        (vh + vb * shelf_k / q + shelf_k**2) / a0,
        2 * (shelf_k**2 - vh) / a0,
        (vh - vb * shelf_k / q + shelf_k**2) / a0,
        2 * (shelf_k**2 - 1) / a0,
        (1 - shelf_k / q + shelf_k**2) / a0,
    )
    pass_k = math.tan(math.pi * 38.13547087602444 / rate)
    q = 0.5003270373238773
    a0 = 1 + pass_k / q + pass_k**2
    return shelf, (2 * (pass_k**2 - 1) / a0, (1 - pass_k / q + pass_k**2) / a0)


def k_weighted_squares(samples: Sequence[int], rate: int) -> list[float]:
    """The squares of the samples (full scale = 1.0) through the K filter, one loop for both stages.

    The high pass's input is the shelf's output, so its input history is the
    shelf's output history: one set of state, and the squares kept instead of
    the values (the meter needs nothing else), stored without a call per
    sample. Each stage's sum is written in
    the plain direct form's order (1 * y and -2 * y are exact), so every square
    is the one two separate passes would give.
    """
    (b0, b1, b2, a1, a2), (c1, c2) = _k_filter(rate)
    x1 = x2 = y1 = y2 = z1 = z2 = 0.0
    squares = [0.0] * len(samples)
    for index, x in enumerate(map(FULL_SCALE.__rtruediv__, samples)):
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        z = y - 2.0 * y1 + y2 - c1 * z1 - c2 * z2
        squares[index] = z * z
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        z2 = z1
        z1 = z
    return squares


def integrated_loudness(samples: Sequence[int], rate: int) -> float:
    """Gated integrated loudness in LUFS (mono); -inf for silence.

    A clip shorter than one 400 ms block is measured as a single block.
    """
    return gated_loudness(k_weighted_squares(samples, rate), rate)


def gated_loudness(squares: Sequence[float], rate: int) -> float:
    """BS.1770's gating over the K-weighted squares: LUFS, -inf for silence."""
    if not squares:
        return -math.inf
    block = max(1, round(_BLOCK * rate))
    step = max(1, round(_STEP * rate))
    starts = range(0, max(1, len(squares) - block + 1), step)
    powers = [sum(squares[s : s + block]) / len(squares[s : s + block]) for s in starts]

    def lufs(power: float) -> float:
        return -0.691 + 10 * math.log10(power) if power > 0 else -math.inf

    kept = [p for p in powers if lufs(p) > _ABSOLUTE_GATE]
    if not kept:
        return -math.inf
    gate = lufs(sum(kept) / len(kept)) + _RELATIVE_GATE
    kept = [p for p in kept if lufs(p) > gate]
    return lufs(sum(kept) / len(kept))


def decibels(value: float) -> float:
    """20 log10 of a linear value (-inf for 0)."""
    return 20 * math.log10(value) if value > 0 else -math.inf


def scaled(samples: Sequence[int], gain: float) -> array.array[int]:
    """The samples times `gain`, rounded and kept inside 16 bits (never wrapped).

    A long 16-bit array goes through a table of `round(value * gain)` for every
    16-bit value, read with the samples' bits as an unsigned index: the same
    products, roundings and clamps, 65536 of them instead of one per sample.
    """
    top = FULL_SCALE
    if isinstance(samples, array.array) and samples.typecode == "h" and len(samples) >= _TABLE_FROM:
        values = chain(range(0, top + 1), range(-top - 1, 0))  # in unsigned-bits order
        table = list(map(round, map(operator.mul, values, repeat(gain))))
        rounded = list(map(table.__getitem__, memoryview(samples).cast("B").cast("H")))
    else:
        rounded = list(map(round, map(operator.mul, samples, repeat(gain))))
    try:
        return array.array("h", rounded)
    except OverflowError:  # a gain that pushes a sample past full scale: clamp, never wrap
        return array.array("h", [max(-top - 1, min(top, v)) for v in rounded])


def level(
    samples: Sequence[int],
    rate: int,
    target: float = TARGET_LUFS,
    ceiling: float = CEILING_DBTP,
) -> array.array[int]:
    """The clip at `target` LUFS, lowered further if its true peak would pass `ceiling`.

    A plain gain (no compression): the voice sounds the same, only louder or
    softer. Silence stays silence.
    """
    loudness = integrated_loudness(samples, rate)
    if not math.isfinite(loudness):
        return array.array("h", samples)
    return scaled(samples, level_gain(loudness, true_peak(samples), target, ceiling))


def level_gain(loudness: float, peak: float, target: float, ceiling: float) -> float:
    """The gain that brings a clip of `loudness` (LUFS) to `target`, its `peak` under `ceiling`."""
    gain = 10 ** ((target - loudness) / 20)
    peak *= gain
    limit = 10 ** (ceiling / 20)
    if peak > limit:
        gain *= limit / peak
    return gain


def ceiling_gain(peak: float, ceiling: float = CEILING_DBTP) -> float | None:
    """The gain that brings a mix's true `peak` to `ceiling`; None when it is not over it."""
    limit = 10 ** (ceiling / 20)
    if peak <= limit + 1 / FULL_SCALE:  # a leveled clip's rounding is not an over
        return None
    return limit / peak


def under_ceiling(samples: array.array[int], ceiling: float = CEILING_DBTP) -> array.array[int]:
    """The mix unchanged, or scaled down as a whole so its true peak is at `ceiling`."""
    gain = ceiling_gain(true_peak(samples), ceiling)
    return samples if gain is None else scaled(samples, gain)
