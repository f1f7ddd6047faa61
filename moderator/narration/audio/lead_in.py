"""A clip as the player gets it when it is played on its own: leveled, after a short silence.

Why leveled: a line played alone (every line with ambience off, and the
lines outside an eyes-closed span) must be as loud as the lines in a span's
mix, which `span_mix` brings to one loudness under the true-peak ceiling; it
gets the same `loudness.level`, so a table never reaches for the volume
between "Dustin's turn" and the reveal. Why a lead-in: every line is played as
a new stream, and a slow sink (Bluetooth, a suspended PulseAudio sink) takes
a moment to wake on a new stream; what it eats should be silence, not the
start of "Everyone". The file is cached beside the clip it is made from (its
name carries the leveling's format and the lead-in's length), so a line is
leveled and padded once, off the UI thread (the director's or the
preparation's), and the director starts the stream that much earlier so the
table hears each word when the script says.
"""

from __future__ import annotations

from pathlib import Path

from moderator.narration.audio.loudness import level
from moderator.narration.audio.wavfile import Pcm, read_pcm, silence, wav_duration, write_pcm_atomic
from moderator.narration.speech.speaker import Clip

#: Bump when a played-alone clip's samples would differ for the same clip and lead-in.
#: 1: leveled to the one loudness under the true-peak ceiling (issue 17).
ALONE_FORMAT = 1


def led_in_path(path: Path, seconds: float) -> Path:
    """Where the clip at `path` is cached leveled, with `seconds` of lead-in."""
    return path.with_name(f"alone{ALONE_FORMAT}-lead{round(seconds * 1000)}ms-{path.name}")


def led_in(clip: Clip, seconds: float) -> Clip:
    """`clip` at the one loudness, with `seconds` of silence before its audio.

    The text stays the clip's; the duration includes the lead-in. A clip
    without audio is returned as it is.

    Raises:
        OSError, ValueError: the clip cannot be read or the leveled one written.
    """
    if clip.path is None:
        return clip
    seconds = max(0, round(seconds * 1000)) / 1000  # what the file's name says
    path = led_in_path(clip.path, seconds)
    try:
        return Clip(clip.text, wav_duration(path), path)
    except Exception:  # missing or partial: make it
        pcm = read_pcm(clip.path)
        padded = silence(pcm.rate, seconds)
        padded.extend(level(pcm.samples, pcm.rate))
        write_pcm_atomic(path, Pcm(pcm.rate, padded))
        return Clip(clip.text, len(padded) / pcm.rate, path)
