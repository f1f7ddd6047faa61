"""A clip with a short silence before its audio, for a player that wakes slowly.

Why: every line is played as a new stream, and a slow sink (Bluetooth, a
suspended PulseAudio sink) takes a moment to wake on a new stream; what it eats
should be silence, not the start of "Everyone". The led-in file is cached
beside the clip it is made from (its name carries the lead-in's length), so a
line is padded once, and the director starts the stream that much earlier so
the table hears each word when the script says.
"""

from __future__ import annotations

from pathlib import Path

from moderator.narration.audio.wavfile import Pcm, read_pcm, silence, wav_duration, write_pcm_atomic
from moderator.narration.speech.speaker import Clip


def led_in_path(path: Path, seconds: float) -> Path:
    """Where the clip at `path` is cached with `seconds` of lead-in."""
    return path.with_name(f"lead{round(seconds * 1000)}ms-{path.name}")


def led_in(clip: Clip, seconds: float) -> Clip:
    """`clip` with `seconds` of silence before its audio (the clip itself for none).

    The text stays the clip's; the duration includes the lead-in.

    Raises:
        OSError, ValueError: the clip cannot be read or the padded one written.
    """
    if clip.path is None or round(seconds * 1000) <= 0:
        return clip
    seconds = round(seconds * 1000) / 1000  # what the file's name says
    path = led_in_path(clip.path, seconds)
    try:
        return Clip(clip.text, wav_duration(path), path)
    except Exception:  # missing or partial: make it
        pcm = read_pcm(clip.path)
        padded = silence(pcm.rate, seconds)
        padded.extend(pcm.samples)
        write_pcm_atomic(path, Pcm(pcm.rate, padded))
        return Clip(clip.text, len(padded) / pcm.rate, path)
