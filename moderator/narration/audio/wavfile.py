"""Small, dependency-free WAV helpers: read, trim, measure, write atomically.

Everything is 16-bit mono PCM (what espeak-ng produces). Trimming the silence
espeak adds around each utterance is what makes pauses exact: once a clip
starts and ends on sound, "pause N seconds after the audio ends" is N seconds
of silence, in the live pipeline and in a rendered file alike.
"""

from __future__ import annotations

import array
import io
import sys
import wave
from dataclasses import dataclass
from pathlib import Path

from moderator import safe_output

#: Samples at or below this magnitude count as silence (about -54 dBFS).
SILENCE_THRESHOLD = 64
SAMPLE_WIDTH = 2


@dataclass(frozen=True)
class Pcm:
    """Mono 16-bit samples at `rate` Hz."""

    rate: int
    samples: array.array[int]

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.samples) / self.rate if self.rate else 0.0


def read_pcm(path: Path) -> Pcm:
    """Read a mono 16-bit WAV file.

    Raises:
        ValueError: when the file is not mono 16-bit PCM (or not a WAV at all).
    """
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != SAMPLE_WIDTH:
                raise ValueError(f"{path}: expected mono 16-bit PCM")
            rate = wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except (wave.Error, EOFError) as error:
        raise ValueError(f"{path}: not a WAV file ({error})") from error
    samples = array.array("h")
    samples.frombytes(frames[: len(frames) - len(frames) % SAMPLE_WIDTH])
    if sys.byteorder == "big":
        samples.byteswap()
    return Pcm(rate, samples)


def wav_duration(path: Path) -> float:
    """Length of a WAV file in seconds, from its header only."""
    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        return wav.getnframes() / rate if rate else 0.0


def trim_silence(pcm: Pcm, threshold: int = SILENCE_THRESHOLD) -> Pcm:
    """The same audio without the silence before the first and after the last sound."""
    samples = pcm.samples
    start = 0
    end = len(samples)
    while start < end and abs(samples[start]) <= threshold:
        start += 1
    while end > start and abs(samples[end - 1]) <= threshold:
        end -= 1
    return Pcm(pcm.rate, samples[start:end])


def silence(rate: int, seconds: float) -> array.array[int]:
    """`seconds` of digital silence."""
    return array.array("h", bytes(SAMPLE_WIDTH * round(rate * max(0.0, seconds))))


def write_pcm_atomic(path: Path, pcm: Pcm) -> None:
    """Write a WAV so that readers only ever see a complete file (`safe_output`'s one writer).

    Raises OSError (its sentence) when the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(SAMPLE_WIDTH)
        wav.setframerate(pcm.rate)
        samples = pcm.samples
        if sys.byteorder == "big":
            samples = array.array("h", samples)
            samples.byteswap()
        wav.writeframes(samples.tobytes())
    try:
        safe_output.write_bytes(path, buffer.getvalue())
    except safe_output.OutputError as error:
        raise OSError(str(error)) from error
