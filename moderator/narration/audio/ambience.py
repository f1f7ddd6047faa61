"""The ambience bed: a low synth drone and soft rumbling noise, made by the app itself.

Why generated rather than a sound file: no third-party audio, so no licence
question, and the bed can be exactly as long as an eyes-closed span. Why like
this: a low chord (A and E, with a second A half a hertz sharp, so it pulses
slowly the way analog synth pads do) reads as "Stranger Things" at a table;
a dark rumble swelling like wind fills the bass, and a soft hiss below ~3 kHz
is what actually masks rustling cards and chairs. The output format is the
speech WAVs' (mono 16-bit 22050 Hz).

Speed without numpy: per-sample Python loops are avoided. The drone is one
two-second period (every partial is a multiple of 0.5 Hz), computed once per
process and tiled; the rumble is made at 1/16 of the sample rate and brought up
by hold-and-box filtering (interpolation done with C-level `itertools.accumulate`
and `map`); the hiss is `random.randbytes` through the same box filters, used
unscaled (the other layers are scaled to it, constants folded in). Everything
is a pure function of its arguments and a seed: the same render, the same samples.
"""

from __future__ import annotations

import array
import functools
import math
import operator
import random
from collections.abc import Iterable, Sequence
from itertools import accumulate, chain, islice, repeat

#: Sample rate of the speech WAVs (espeak-ng and the neural voice alike).
RATE = 22050
#: Bed loudness at level 1.0, as RMS in dB below full scale.
FULL_LEVEL_DBFS = -20.0
#: Level used when the table has not chosen one: about -26 dBFS, under speech (~ -17 dBFS).
DEFAULT_LEVEL = 0.5
#: Seconds the bed takes to fade in and out at its span's edges.
FADE_SECONDS = 1.5
FULL_SCALE = 32767

#: Drone partials (Hz, relative amplitude): A1, A1 half a hertz sharp (a slow pulse,
#: about 6 dB deep),
#: E2, A2, E3, A3. Every frequency is a multiple of 1 / `_DRONE_PERIOD_SECONDS`.
_DRONE = ((55.0, 1.0), (55.5, 0.35), (82.5, 0.45), (110.0, 0.35), (165.0, 0.12), (220.0, 0.06))
_DRONE_PERIOD_SECONDS = 2
#: Noise is made at rate / _DECIMATE, then interpolated up (a low-pass near 700 Hz).
_DECIMATE = 16
#: One-pole smoothing of the low-rate noise (lower: darker rumble).
_NOISE_SMOOTHING = 0.35
#: The noise swells slowly, like wind: period in seconds and depth (0..1).
_SWELL_SECONDS = 11.0
_SWELL_DEPTH = 0.45
#: Shares of the bed's power: the drone, the dark rumble and the "air" (a soft hiss
#: below ~3 kHz, where rustling cards and chairs are: it does the masking).
_DRONE_POWER = 0.5
_RUMBLE_POWER = 0.3
_AIR_POWER = 0.2
#: Width of the two box filters that soften the air (first null at rate / width).
_AIR_BOX = 4
#: The air's RMS, known in advance: uniform random bytes (variance (256^2 - 1) / 12)
#: through two box sums of width 4 (a triangular kernel whose squares sum to 44).
_AIR_RMS = math.sqrt(
    (256**2 - 1) / 12 * sum(min(k + 1, 2 * _AIR_BOX - 1 - k) ** 2 for k in range(2 * _AIR_BOX - 1))
)
#: The other layers are scaled to the air: RMS per unit of power share.
_UNIT = _AIR_RMS / math.sqrt(_AIR_POWER)
#: RMS is measured on every n-th sample: within 0.05 dB of all of them, four times faster.
_MEASURE_STEP = 4


def level_dbfs(level: float) -> float:
    """The bed's RMS in dBFS for a level in 0..1 (-inf for 0: no bed)."""
    level = clamp_level(level)
    return FULL_LEVEL_DBFS + 20 * math.log10(level) if level > 0 else -math.inf


def clamp_level(level: float) -> float:
    """A level inside 0..1 (a typo in a settings file must not blow the speakers)."""
    return min(1.0, max(0.0, float(level))) if math.isfinite(level) else 0.0


def unscaled_bed(
    length: int, level: float, *, rate: int = RATE, seed: int = 0
) -> tuple[list[float], float]:
    """The bed's samples and the gain that brings them to the level's RMS.

    Split so a caller that multiplies by an envelope anyway (fades, ducking)
    folds the gain into it and saves a pass over the samples. The gain comes
    from the measured RMS, so the level is exact whatever the noise drew.
    """
    if length <= 0:
        return [], 0.0
    target = FULL_SCALE * 10 ** (level_dbfs(level) / 20) if level > 0 else 0.0
    rng = random.Random(seed)
    drone = _tiled(_drone_period(rate), length, rng.randrange(rate * _DRONE_PERIOD_SECONDS))
    samples = list(map(operator.add, drone, _noise(length, rate, rng)))
    return samples, target / (rms(samples[::_MEASURE_STEP]) or 1.0)


def fade_envelope(length: int, fade: int, top: float = 1.0) -> list[float]:
    """Gain 0 -> top -> 0 with raised-cosine ramps of `fade` samples (shorter in a short span)."""
    fade = max(0, min(fade, length // 2))
    gain = [top] * length
    if fade:
        ramp = [top * g for g in raised_cosine(fade)]
        gain[:fade] = ramp
        gain[length - fade :] = ramp[::-1]
    return gain


def raised_cosine(count: int) -> list[float]:
    """`count` gains rising smoothly from 0 (exclusive of 1): no click at either end."""
    return [0.5 - 0.5 * math.cos(math.pi * i / count) for i in range(count)]


def to_int16(values: Iterable[float]) -> array.array[int]:
    """Round float samples to 16-bit, clipping at full scale."""
    rounded = list(map(round, values))
    try:
        return array.array("h", rounded)
    except OverflowError:  # only a level far above the bed's range gets here
        return array.array("h", [max(-FULL_SCALE - 1, min(FULL_SCALE, v)) for v in rounded])


@functools.lru_cache(maxsize=4)
def _drone_period(rate: int) -> tuple[float, ...]:
    """One exact period of the drone (every partial repeats within it), its power `_DRONE_POWER`."""
    size = rate * _DRONE_PERIOD_SECONDS
    phases = random.Random(rate)
    total = [0.0] * size
    for frequency, amplitude in _DRONE:
        step = 2 * math.pi * frequency / rate
        phase = phases.uniform(0, 2 * math.pi)
        partial = [amplitude * math.sin(step * i + phase) for i in range(size)]
        total = list(map(operator.add, total, partial))
    gain = _UNIT * math.sqrt(_DRONE_POWER) / (rms(total) or 1.0)
    return tuple(v * gain for v in total)


def _tiled(period: Sequence[float], length: int, start: int) -> list[float]:
    """`length` samples of a periodic signal, beginning `start` samples into a period."""
    size = len(period)
    start %= size
    copies = (start + length) // size + 1
    return list(chain.from_iterable(repeat(period, copies)))[start : start + length]


def _noise(length: int, rate: int, rng: random.Random) -> list[float]:
    """The rumble and the air in one: both end in the air's two short box filters.

    The rumble (dark, swelling like wind) is smoothed at 1/16 of the rate and
    interpolated up by hold + a box of 16 samples; the air is white random bytes
    added at full rate. The two short boxes then soften the air and barely touch
    the rumble (below ~700 Hz), so one set of passes filters both.
    """
    count = length // _DECIMATE + 4
    low_rate = rate / _DECIMATE
    swell_step = 2 * math.pi / (_SWELL_SECONDS * low_rate)
    swell_phase = rng.uniform(0, 2 * math.pi)
    values: list[float] = []
    state = 0.0
    for i, draw in enumerate(array.array("b", rng.randbytes(count))):
        state += _NOISE_SMOOTHING * (draw - state)
        values.append(
            state * (1 - _SWELL_DEPTH * (0.5 + 0.5 * math.sin(swell_step * i + swell_phase)))
        )
    # Box sums multiply a slow signal by their widths: divide that out in advance.
    gain = _UNIT * math.sqrt(_RUMBLE_POWER) / (rms(values) or 1.0)
    gain /= _DECIMATE * _AIR_BOX**2
    held = chain.from_iterable(repeat(v * gain, _DECIMATE) for v in values)
    rumble = _box_sum(held, _DECIMATE)
    white = array.array("b", rng.randbytes(len(rumble)))
    return _box_sum(_box_sum(map(operator.add, rumble, white), _AIR_BOX), _AIR_BOX)[:length]


def _box_sum(values: Iterable[float], width: int) -> list[float]:
    """Sums over a sliding window of `width` samples (a box filter without its 1/width)."""
    sums = list(accumulate(values, initial=0.0))
    return list(map(operator.sub, islice(sums, width, None), sums))


def rms(samples: Sequence[float]) -> float:
    """Root mean square of `samples` (0 for none)."""
    if not samples:
        return 0.0
    return math.sqrt(sum(map(operator.mul, samples, samples)) / len(samples))
