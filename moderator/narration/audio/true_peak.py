"""True peak: the largest value at or between samples, 4x oversampled, in a few passes.

Why this shape: the meter interpolates with a 24-tap windowed sinc, and doing
that at every sample of a 20 s mix is millions of Python steps. An
inter-sample peak lies next to a loud sample (where every sample is 6 dB under
the peak, no interpolated value reaches it in speech), so only the samples at
or above half the sample peak, and the one before each, are interpolated. They
are found without a Python step per sample: each 16-bit sample's high byte
says within 256 how loud it is, so `bytes.translate` marks the bytes that can
belong to a loud sample and `bytes.find` jumps from mark to mark (a few hundred
in a reveal); only those samples are read exactly. The interpolation is the
same sum in the same order as the plain meter, so the peak is the same number.
"""

from __future__ import annotations

import array
import math
import operator
import sys
from collections.abc import Sequence

FULL_SCALE = 32767
#: Oversampling of the true-peak meter and the half-length of its sinc (in input samples).
_OVERSAMPLE = 4
_TAPS = 12
#: Where a sample's high byte sits in its two bytes, in this machine's order.
_HIGH_BYTE = 0 if sys.byteorder == "big" else 1
#: Each high byte's band: a sample in band m has |s| in [256 m, 256 m + 256].
_BANDS = bytes(high if high < 128 else 255 - high for high in range(256))


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
    pcm = _int16(samples)
    if pcm is None:  # not 16-bit audio (a test's made-up values): every sample is read
        peak = max(map(abs, samples), default=0)
        loud = _indexes_at_least(samples, range(len(samples)), peak / 2)
    else:
        bands = pcm.tobytes()[_HIGH_BYTE::2].translate(_BANDS)
        top = _top_band(bands)
        if top == 0:  # under 256 everywhere: the bands say nothing, so read every sample
            peak = max(map(abs, pcm), default=0)
        else:
            peak = max(map(abs, _marked(pcm, bands, top)))
        lowest = math.ceil(peak / 2 / 256) - 1  # the lowest band that can hold a loud sample
        indexes = _marked_indexes(bands, lowest) if lowest > 0 else range(len(pcm))
        loud = _indexes_at_least(pcm, indexes, peak / 2)
    if peak == 0:
        return 0.0
    return _interpolated_peak(samples, loud, float(peak)) / FULL_SCALE


def _int16(samples: Sequence[int]) -> array.array[int] | None:
    """The samples as a 16-bit array (the same object when they are one), None when out of range."""
    if isinstance(samples, array.array) and samples.typecode == "h":
        return samples
    try:
        return array.array("h", samples)
    except (OverflowError, TypeError):
        return None


def _top_band(bands: bytes) -> int:
    """The highest band present (0 for none): one `find` per band, from the top down."""
    return next((band for band in range(127, 0, -1) if bands.find(band) >= 0), 0)


def _marked_indexes(bands: bytes, lowest: int) -> list[int]:
    """Indexes of the samples whose band is `lowest` or above."""
    marks = bytes(1 if band >= lowest else 0 for band in range(256))
    flags = bands.translate(marks)
    found: list[int] = []
    index = flags.find(1)
    while index >= 0:
        found.append(index)
        index = flags.find(1, index + 1)
    return found


def _marked(pcm: array.array[int], bands: bytes, band: int) -> list[int]:
    """The samples in `band` or above (the sample peak is among the top band's)."""
    return [pcm[index] for index in _marked_indexes(bands, band)]


def _indexes_at_least(samples: Sequence[int], indexes: Sequence[int], near: float) -> list[int]:
    """Of `indexes`, those whose sample is `near` or more from zero."""
    low = -near
    return [index for index in indexes if not low < samples[index] < near]


def _interpolated_peak(samples: Sequence[int], loud: Sequence[int], best: float) -> float:
    """The largest interpolated magnitude next to the `loud` samples (`best` when none is larger).

    A value between samples i and i+1 is computed when either is loud: the same
    windows, kernels and summing order as a meter that looks at every sample.
    """
    length = len(samples)
    candidates = set(loud)
    candidates.update(index - 1 for index in loud if index > 0)
    mul = operator.mul
    for index in candidates:
        first, stop = index - _TAPS + 1, index + _TAPS + 1
        if first >= 0 and stop <= length:
            window: Sequence[int] = samples[first:stop]
        else:
            window = [samples[i] if 0 <= i < length else 0 for i in range(first, stop)]
        for kernel in _PHASES:
            value = sum(map(mul, window, kernel))
            if value > best or -value > best:
                best = abs(value)
    return best
