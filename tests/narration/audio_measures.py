"""Measures and beds that only the tests and benchmarks need (the app never calls them).

Moved out of `moderator.narration.audio`: a bed with no fades, a bed on its own,
dB figures and the longest silence in a render are ways to *check* audio.
"""

from __future__ import annotations

import array
import math
import operator
from itertools import repeat

from moderator.narration.audio.ambience import (
    FADE_SECONDS,
    FULL_SCALE,
    RATE,
    fade_envelope,
    rms,
    to_int16,
    unscaled_bed,
)
from moderator.narration.audio.wavfile import SILENCE_THRESHOLD, Pcm

__all__ = ["dbfs", "longest_silence", "peak", "render_bed", "rms", "steady_bed"]


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


def peak(pcm: Pcm) -> int:
    """Largest sample magnitude (0 for digital silence)."""
    return max((abs(s) for s in pcm.samples), default=0)
