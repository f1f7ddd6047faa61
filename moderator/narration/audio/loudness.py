"""Loudness (ITU-R BS.1770) and true peak, so every clip is as loud as the next and none clips.

Why: espeak's voices come out at different levels (Spanish peaks at -0.04 dBFS,
and clipped when the bed was added under it), and a table should not reach for
the volume between two lines. Each clip is brought to one integrated loudness
(`TARGET_LUFS`) with a true-peak ceiling (`CEILING_DBTP`), and a mix is scaled
down as a whole when the bed would push it over the ceiling, so no sample is
ever clipped.

Pure Python on sample arrays (the app has no numpy): the K-weighting is two
biquads, and the true peak is found by 4x band-limited interpolation around the
loud samples only (an inter-sample peak lies next to a loud sample: where every
sample is 6 dB under the peak, no interpolated value reaches it in speech).
"""

from __future__ import annotations

import array
import math
from collections.abc import Sequence

#: The loudness every clip is brought to (LUFS). Measured on every line of the four
#: shipped languages (espeak-ng, 175 wpm): true peak sits 12.8 to 21.5 dB above the
#: loudness, so -23 LUFS is the loudest target that brings every clip there with a
#: plain gain under the -1 dBTP ceiling (at -20, the peakiest Spanish lines would need
#: a limiter or end up 2 LU short).
TARGET_LUFS = -23.0
#: No sample, and no value between two samples, above this (dBFS true peak).
CEILING_DBTP = -1.0
FULL_SCALE = 32767
#: Gating of BS.1770-4: 400 ms blocks every 100 ms, -70 LUFS absolute, -10 LU relative.
_BLOCK = 0.4
_STEP = 0.1
_ABSOLUTE_GATE = -70.0
_RELATIVE_GATE = -10.0
#: Oversampling of the true-peak meter and the half-length of its sinc (in input samples).
_OVERSAMPLE = 4
_TAPS = 12


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
    """The samples (full scale = 1.0) through BS.1770's K filter, for any sample rate.

    The two stages' analogue parameters are those of libebur128 and pyloudnorm,
    bilinear-transformed for `rate` (the standard gives 48 kHz coefficients).
    """
    shelf_k = math.tan(math.pi * 1681.974450955533 / rate)
    q = 0.7071752369554196
    vh = 10 ** (3.999843853973347 / 20)
    vb = vh**0.4996667741545416
    a0 = 1 + shelf_k / q + shelf_k**2
    shelf = (
        (
            (vh + vb * shelf_k / q + shelf_k**2) / a0,
            2 * (shelf_k**2 - vh) / a0,
            (vh - vb * shelf_k / q + shelf_k**2) / a0,
        ),
        (2 * (shelf_k**2 - 1) / a0, (1 - shelf_k / q + shelf_k**2) / a0),
    )
    pass_k = math.tan(math.pi * 38.13547087602444 / rate)
    q = 0.5003270373238773
    a0 = 1 + pass_k / q + pass_k**2
    high_pass = (
        (1.0, -2.0, 1.0),
        (2 * (pass_k**2 - 1) / a0, (1 - pass_k / q + pass_k**2) / a0),
    )
    scaled = [s / FULL_SCALE for s in samples]
    return _biquad(_biquad(scaled, *shelf), *high_pass)


def integrated_loudness(samples: Sequence[int], rate: int) -> float:
    """Gated integrated loudness in LUFS (mono); -inf for silence.

    A clip shorter than one 400 ms block is measured as a single block.
    """
    weighted = k_weighted(samples, rate)
    if not weighted:
        return -math.inf
    block = max(1, round(_BLOCK * rate))
    step = max(1, round(_STEP * rate))
    squares = [v * v for v in weighted]
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


def _sinc_phases() -> list[list[float]]:
    """Interpolation kernels (Hann-windowed sinc) for each fractional position 1/4, 2/4, 3/4."""
    phases = []
    for phase in range(1, _OVERSAMPLE):
        offset = phase / _OVERSAMPLE
        kernel = []
        for tap in range(-_TAPS + 1, _TAPS + 1):
            x = tap - offset
            window = 0.5 + 0.5 * math.cos(math.pi * x / _TAPS)
            kernel.append(math.sin(math.pi * x) / (math.pi * x) * window)
        phases.append(kernel)
    return phases


_PHASES = _sinc_phases()


def true_peak(samples: Sequence[int]) -> float:
    """The largest magnitude between or at samples, 4x oversampled (full scale = 1.0)."""
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
            value = abs(sum(w * k for w, k in zip(window, kernel, strict=True)))
            best = max(best, value)
    return best / FULL_SCALE


def decibels(value: float) -> float:
    """20 log10 of a linear value (-inf for 0)."""
    return 20 * math.log10(value) if value > 0 else -math.inf


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
    """The clip at `target` LUFS, lowered further if its true peak would pass `ceiling`.

    A plain gain (no compression): the voice sounds the same, only louder or
    softer. Silence stays silence.
    """
    loudness = integrated_loudness(samples, rate)
    if not math.isfinite(loudness):
        return array.array("h", samples)
    gain = 10 ** ((target - loudness) / 20)
    peak = true_peak(samples) * gain
    limit = 10 ** (ceiling / 20)
    if peak > limit:
        gain *= limit / peak
    return scaled(samples, gain)


def under_ceiling(samples: array.array[int], ceiling: float = CEILING_DBTP) -> array.array[int]:
    """The mix unchanged, or scaled down as a whole so its true peak is at `ceiling`."""
    peak = true_peak(samples)
    limit = 10 ** (ceiling / 20)
    if peak <= limit + 1 / FULL_SCALE:  # a leveled clip's rounding is not an over
        return samples
    return scaled(samples, limit / peak)
