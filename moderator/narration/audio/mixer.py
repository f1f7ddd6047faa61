"""Lays speech clips at exact sample offsets and mixes the ambience bed under them.

Why sample offsets: the eyes-open window is a number of samples between two
clips, so a render that is built from offsets keeps it exact whatever is added
underneath. The mix only *adds* the bed (faded at its span's edges, ducked
while a line is spoken); it never moves or drops a speech sample, so
`mix(...) - bed_track(...)` is the speech track sample for sample (up to
clipping at full scale, which the bed's level keeps far away).

Ducking looks ahead: the bed starts dipping `attack` seconds before a line
begins (the offsets are known in advance) and comes back `release` seconds
after it ends, both on raised-cosine ramps, so there is no pumping click.
Everything here is pure: sample arrays in, sample arrays out, no I/O.
"""

from __future__ import annotations

import array
import operator
from collections.abc import Sequence
from dataclasses import dataclass

from moderator.narration.audio.ambience import (
    FADE_SECONDS,
    FULL_SCALE,
    RATE,
    fade_envelope,
    raised_cosine,
    unscaled_bed,
)


@dataclass(frozen=True)
class Placed:
    """A speech clip's samples and the sample at which it starts."""

    offset: int
    samples: array.array[int]

    @property
    def end(self) -> int:
        """The first sample after the clip."""
        return self.offset + len(self.samples)


@dataclass(frozen=True)
class Span:
    """Samples [start, end) that get a bed (an eyes-closed stretch)."""

    start: int
    end: int


@dataclass(frozen=True)
class Ducking:
    """How the bed makes room for speech.

    Attributes:
        depth_db: How far the bed drops under a line.
        attack: Seconds of ramp down, ending as the line starts.
        release: Seconds of ramp back up, starting as the line ends.
    """

    depth_db: float = 12.0
    attack: float = 0.08
    release: float = 0.4


@dataclass(frozen=True)
class BedShape:
    """Everything about the bed but its level: ducking, fades, seed, sample rate."""

    ducking: Ducking = Ducking()
    fade_seconds: float = FADE_SECONDS
    seed: int = 0
    rate: int = RATE


def lay_out(
    parts: Sequence[array.array[int] | float], rate: int = RATE
) -> tuple[list[Placed], int]:
    """Place clips and pauses end to end, as `render_script` writes them.

    Args:
        parts: In order, a clip's samples or a pause in seconds.
        rate: Samples per second (a pause is `round(rate * seconds)` samples).

    Returns:
        The clips at their offsets, and the total length in samples.
    """
    placed: list[Placed] = []
    position = 0
    for part in parts:
        if isinstance(part, array.array):
            placed.append(Placed(position, part))
            position += len(part)
        else:
            position += round(rate * max(0.0, float(part)))
    return placed, position


def speech_track(clips: Sequence[Placed], total: int) -> array.array[int]:
    """The clips at their offsets over digital silence.

    Raises:
        ValueError: a clip overlaps another or lies outside `total`.
    """
    track = array.array("h", bytes(2 * max(0, total)))
    previous_end = 0
    for clip in sorted(clips, key=lambda c: c.offset):
        if clip.offset < previous_end or clip.end > total:
            raise ValueError(f"A speech clip at sample {clip.offset} overlaps or overruns the mix.")
        track[clip.offset : clip.end] = clip.samples
        previous_end = clip.end
    return track


def duck_envelope(
    length: int, speech: Sequence[tuple[int, int]], ducking: Ducking, rate: int = RATE
) -> list[float]:
    """Per-sample bed gain for a span: 1 away from speech, lower under it.

    Args:
        length: Samples in the span.
        speech: (start, end) of each line, in samples relative to the span.
        ducking: Depth and ramps.
        rate: Samples per second.
    """
    low = 10 ** (-abs(ducking.depth_db) / 20)
    attack = max(1, round(ducking.attack * rate))
    release = max(1, round(ducking.release * rate))
    gain = [1.0] * length
    for start, end in _merge(speech, attack + release):
        hold_from, hold_to = max(0, start), min(length, end)
        if hold_to > hold_from:
            gain[hold_from:hold_to] = [low] * (hold_to - hold_from)
        _paste(gain, start - attack, _ramp(attack, low))
        _paste(gain, end, _ramp(release, low)[::-1])
    return gain


def bed_track(
    clips: Sequence[Placed],
    total: int,
    spans: Sequence[Span],
    level: float,
    shape: BedShape | None = None,
) -> list[int]:
    """The bed alone over `total` samples: faded in each span, ducked under the clips.

    Raises:
        ValueError: a span lies outside the mix or ends before it starts.
    """
    shape = shape or BedShape()
    rate = shape.rate
    track = [0] * max(0, total)
    for index, span in enumerate(spans):
        if not 0 <= span.start <= span.end <= total:
            raise ValueError(f"An ambience span {span} lies outside the mix of {total} samples.")
        length = span.end - span.start
        if length == 0:
            continue
        speech = [(c.offset - span.start, c.end - span.start) for c in clips]
        samples, scale = unscaled_bed(length, level, rate=rate, seed=shape.seed + index)
        gain = map(
            operator.mul,
            fade_envelope(length, round(shape.fade_seconds * rate), scale),
            duck_envelope(length, speech, shape.ducking, rate),
        )
        track[span.start : span.end] = list(map(round, map(operator.mul, samples, gain)))
    return track


def mix(
    clips: Sequence[Placed],
    total: int,
    spans: Sequence[Span],
    level: float,
    shape: BedShape | None = None,
) -> array.array[int]:
    """Speech clips at their offsets with the ambience bed under them in `spans`.

    The length is `total` whatever the bed: ambience never changes the timing.
    """
    speech = speech_track(clips, total)
    if not spans or level <= 0:
        return speech
    bed = bed_track(clips, total, spans, level, shape)
    summed = list(map(operator.add, speech, bed))
    try:
        return array.array("h", summed)
    except OverflowError:  # a loud line over the bed: clip rather than wrap around
        return array.array("h", [max(-FULL_SCALE - 1, min(FULL_SCALE, v)) for v in summed])


def _ramp(count: int, low: float) -> list[float]:
    """`count` gains falling smoothly from 1 towards `low`."""
    return [1.0 - (1.0 - low) * g for g in raised_cosine(count)]


def _merge(intervals: Sequence[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    """Intervals joined when less than `gap` apart (their ramps would overlap)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if merged and start - merged[-1][1] < gap:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _paste(target: list[float], at: int, values: list[float]) -> None:
    """Copy `values` into `target` from index `at`, keeping the lower gain, clipped to its ends."""
    begin, end = max(0, at), min(len(target), at + len(values))
    if end > begin:
        target[begin:end] = list(map(min, target[begin:end], values[begin - at : end - at]))
