"""Measures and beds that only the tests and benchmarks need (the app never calls them).

Moved out of `moderator.narration.audio`: a bed with no fades, a bed on its own,
dB figures and the longest silence in a render are ways to *check* audio. So is
`checked_loudness`, the loudness meter the tests check renders with (numpy).
"""

from __future__ import annotations

import array
import functools
import math
import operator
from collections.abc import Sequence
from itertools import repeat
from typing import Any

import loudness_reference

from moderator.narration.audio.ambience import (
    FADE_SECONDS,
    FULL_SCALE,
    RATE,
    fade_envelope,
    rms,
    to_int16,
    unscaled_bed,
)
from moderator.narration.audio.loudness import gated_loudness
from moderator.narration.audio.wavfile import SILENCE_THRESHOLD, Pcm

__all__ = [
    "checked_loudness",
    "clipped",
    "dbfs",
    "longest_silence",
    "peak",
    "render_bed",
    "rms",
    "steady_bed",
]

#: How much of the K filter's impulse response `checked_loudness` convolves with. Its
#: slowest part (the 38 Hz high pass) has decayed to 1e-22 of the peak after 0.2 s.
RESPONSE_SECONDS = 0.25


def steady_bed(length: int, level: float, *, rate: int = RATE, seed: int = 0) -> list[float]:
    """`length` samples of bed at the level's RMS, no fades (floats, not yet rounded)."""
    samples, gain = unscaled_bed(length, level, rate=rate, seed=seed)
    return list(map(operator.mul, samples, repeat(gain)))


def render_bed(
    length: int,
    level: float,
    *,
    rate: int = RATE,
    seed: int = 0,
    fade_seconds: float = FADE_SECONDS,
) -> array.array[int]:
    """A bed on its own (the Meeting's silent passing): steady bed with smooth fades."""
    samples, gain = unscaled_bed(length, level, rate=rate, seed=seed)
    envelope = fade_envelope(length, round(fade_seconds * rate), gain)
    return to_int16(map(operator.mul, samples, envelope))


def dbfs(value: float) -> float:
    """An RMS or peak in dB relative to 16-bit full scale (-inf for 0)."""
    return 20 * math.log10(value / FULL_SCALE) if value > 0 else -math.inf


def longest_silence(pcm: Pcm, threshold: int = SILENCE_THRESHOLD) -> tuple[float, float]:
    """(start, length) in seconds of the longest run of silent samples."""
    best_start = best_len = 0
    run_start = -1
    for index, sample in enumerate(pcm.samples):
        if abs(sample) <= threshold:
            if run_start < 0:
                run_start = index
        elif run_start >= 0:
            if index - run_start > best_len:
                best_start, best_len = run_start, index - run_start
            run_start = -1
    if run_start >= 0 and len(pcm.samples) - run_start > best_len:
        best_start, best_len = run_start, len(pcm.samples) - run_start
    return best_start / pcm.rate, best_len / pcm.rate


#: A stretch of 50 ms windows quieter than this is "near silent" to a listener.
NEAR_SILENT_DBFS = -50.0


def longest_near_silence(samples: Sequence[int | float], rate: int = RATE) -> float:
    """Seconds of the longest run of 50 ms windows under NEAR_SILENT_DBFS (a bed that is
    to carry a silence must not fall this quiet for long)."""
    window = rate // 20
    best = run = 0
    for start in range(0, len(samples) - window + 1, window):
        quiet = dbfs(rms(samples[start : start + window])) < NEAR_SILENT_DBFS
        run = run + 1 if quiet else 0
        best = max(best, run)
    return best * window / rate


def tone(
    seconds: float, frequency: float = 440.0, amplitude: int = 8000, rate: int = RATE
) -> array.array[int]:
    """A stand-in speech clip: a steady tone (loud, known, easy to find)."""
    step = 2 * math.pi * frequency / rate
    return array.array(
        "h", (round(amplitude * math.sin(step * i)) for i in range(round(seconds * rate)))
    )


def peak(pcm: Pcm) -> int:
    """Largest sample magnitude (0 for digital silence): the extremes, not a step per sample."""
    samples = pcm.samples
    return max(abs(max(samples)), abs(min(samples))) if len(samples) else 0


def clipped(samples: array.array[int]) -> int:
    """How many 16-bit samples sit at full scale (a sample at or past +-32767 is clipped).

    The extremes first, then the count only if one is at full scale: a render of
    the reveal is ~500,000 samples, and the loudness tests count every render's.
    """
    assert samples.typecode == "h", "16-bit samples"
    if not samples or (min(samples) > -FULL_SCALE and max(samples) < FULL_SCALE):
        return 0
    return sum(samples.count(value) for value in (FULL_SCALE, -FULL_SCALE, -FULL_SCALE - 1))


@functools.cache
def _k_response(rate: int) -> Any:
    """The K filter's impulse response at `rate` (numpy floats, `RESPONSE_SECONDS` long).

    Made by the plain meter's own two filter passes (loudness_reference.py) on a
    unit impulse, and checked to have decayed by its end.
    """
    import numpy

    impulse = [FULL_SCALE] + [0] * (round(RESPONSE_SECONDS * rate) - 1)
    response = numpy.array(loudness_reference.k_weighted(impulse, rate))
    tail = numpy.abs(response[-(rate // 10) :]).max()
    assert tail < 1e-15 * numpy.abs(response).max(), "the response is cut too early"
    return response


@functools.cache
def _k_spectrum(rate: int, size: int) -> Any:
    """The response's spectrum for an FFT of `size` (a render's lines share a few sizes)."""
    import numpy

    return numpy.fft.rfft(_k_response(rate), size)


def checked_loudness(samples: Sequence[int], rate: int) -> float:
    """Integrated loudness in LUFS, as the tests check a render or a clip with it.

    Why not the app's meter: the tests measure every line of every render they
    check, and the K filter is a recursion, one Python step per sample (half
    the loudness tests' time went to checking). Here it is a convolution with
    the filter's impulse response, done by numpy's FFT, and the gating is the
    app's (`gated_loudness`). It reads what the app's meter reads to within
    1e-6 LU (test_narration_loudness.py checks that on known signals), far
    inside the tests' 1 LU tolerance.
    """
    import numpy

    if not len(samples):
        return gated_loudness([], rate)
    signal = numpy.asarray(samples, dtype=numpy.float64) / FULL_SCALE
    size = 1 << (len(signal) + len(_k_response(rate)) - 2).bit_length()
    spectrum = numpy.fft.rfft(signal, size) * _k_spectrum(rate, size)
    weighted = numpy.fft.irfft(spectrum, size)[: len(signal)]
    squares: list[float] = (weighted * weighted).tolist()
    return gated_loudness(squares, rate)
