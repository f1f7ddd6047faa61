"""One WAV for an eyes-closed span: its lines and pauses with the ambience bed under them.

Why one file: the bed must run on under the pauses and fade and duck at exact
sample offsets, so the live director plays the span as a single clip (built
as `render` builds a file) and times its captions and countdowns from the
offsets it was built with. The file is cached beside the speech clips under
a hash of everything that shapes its samples (the clips' paths, which already
name their text, voice, rate and engine; the pauses; the level; the bed's
shape), so a span is mixed once per set of settings, not at every reveal.
Its clips are brought to one loudness and the mix kept under the true-peak
ceiling (`loudness`): a loud clip over the bed no longer clips. It starts with
the lead-in (pure silence, before the bed), as a render does, so a slow sink
eats that and not the bed's first second or the first word.
"""

from __future__ import annotations

import array
import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from moderator.narration.audio.loudness import level as at_loudness
from moderator.narration.audio.loudness import under_ceiling
from moderator.narration.audio.mixer import BedShape, Span, lay_out, mix
from moderator.narration.audio.wavfile import Pcm, read_pcm, wav_duration, write_pcm_atomic
from moderator.narration.speech.speaker import Clip

#: Bump when a span's samples would differ for the same key.
#: 2: every clip at one loudness, the mix under the true-peak ceiling (issue 17).
MIX_FORMAT = 2


@dataclass(frozen=True)
class SpanClip:
    """The mixed span and where each of its parts starts, in seconds from its start.

    Attributes:
        clip: The whole span as one clip (its duration is the span's length).
        starts: For each part (a clip or a pause, in order), its start in seconds.
        ends: For each part, its end in seconds.
        parts: What it was mixed from (clips and pauses), to tell a stale mix.
        lead_in: The silence before it, in seconds (included in `starts`, `ends`).
    """

    clip: Clip
    starts: tuple[float, ...]
    ends: tuple[float, ...]
    parts: tuple[Clip | float, ...] = ()
    lead_in: float = 0.0


def span_key(
    parts: Sequence[Clip | float], level: float, shape: BedShape, lead_in: float = 0.0
) -> str:
    """The cache name of a span's mix: a hash of everything that shapes its samples."""
    described = [
        str(part.path) if isinstance(part, Clip) else round(float(part), 6) for part in parts
    ]
    shaping: list[object] = [MIX_FORMAT, described, round(level, 4), asdict(shape)]
    if lead_in > 0:  # a span without one keeps the name it always had
        shaping.append(round(lead_in, 6))
    key = json.dumps(shaping, default=str)
    return f"span-{hashlib.sha256(key.encode('utf-8')).hexdigest()}.wav"


def mixed_span(
    parts: Sequence[Clip | float], level: float, folder: Path, lead_in: float = 0.0
) -> SpanClip:
    """The span's clip (built and cached in `folder` unless already there) and its offsets.

    Args:
        parts: In order, clips with audio (`path` set) and pauses in seconds.
        level: The bed's level (more than 0).
        folder: Where the mix is cached (the speech cache).
        lead_in: Seconds of silence before the span's first sound (bed included).

    Raises:
        OSError, ValueError: a clip cannot be read or the mix cannot be written.
    """
    lead_in = max(0.0, lead_in)
    pcms: list[array.array[int] | float] = [lead_in]
    rate = 0
    for part in parts:
        if isinstance(part, Clip):
            assert part.path is not None
            pcm = read_pcm(part.path)
            if rate and pcm.rate != rate:
                raise ValueError(f"Mixed sample rates ({rate} and {pcm.rate} Hz).")
            rate = pcm.rate
            pcms.append(pcm.samples)
        else:
            pcms.append(float(part))
    rate = rate or 22050
    shape = BedShape(rate=rate)
    placed, total = lay_out(pcms, rate)
    starts: list[float] = []
    ends: list[float] = []
    lead = round(rate * lead_in)
    position = lead
    for laid in pcms[1:]:
        length = len(laid) if isinstance(laid, array.array) else round(rate * max(0.0, laid))
        starts.append(position / rate)
        position += length
        ends.append(position / rate)
    path = folder / span_key(parts, level, shape, lead_in)
    try:
        duration = wav_duration(path)
    except Exception:  # missing or partial: build it
        placed = [replace(clip, samples=at_loudness(clip.samples, rate)) for clip in placed]
        samples = under_ceiling(mix(placed, total, [Span(lead, total)], level, shape))
        write_pcm_atomic(path, Pcm(rate, samples))
        duration = total / rate
    return SpanClip(Clip("", duration, path), tuple(starts), tuple(ends), tuple(parts), lead_in)
