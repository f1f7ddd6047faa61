"""The Speaker protocol: what the director needs from a speech back-end.

Two operations, split because they have different costs and failure modes:
`synthesize` turns text into a clip (possibly slow the first time, cached
after) and returns a Future so the director can prepare the next lines while
one plays; `play` runs the clip's audio and blocks the *director's* thread
(never the UI's) until it ends, with a bound. Faults are reported as
`SpeechFault` with a stable `part` so the narrator tells the table once per
missing part, with how to fix it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

#: Roughly how long espeak-ng pauses at punctuation, for captions-only timing.
_PUNCTUATION_PAUSE = 0.15


@dataclass(frozen=True)
class Clip:
    """A line ready to play: its audio file (None when captions-only) and length."""

    text: str
    duration: float
    path: Path | None = None


class SpeechFault(Exception):
    """Speech failed for one line; the line goes on as a caption with estimated timing.

    Attributes:
        part: Stable name of what is missing ("library", "engine", "player"...),
            so the table is told once per part.
        message: A sentence for the table, including how to fix it.
        permanent: True when retrying later lines is pointless.
        says_fallback: The sentence already tells the table which voice speaks instead
            (the neural voice's; checked by flag, since the sentence is translated).
    """

    def __init__(
        self, part: str, message: str, permanent: bool = False, *, says_fallback: bool = False
    ) -> None:
        super().__init__(message)
        self.part = part
        self.message = message
        self.permanent = permanent
        self.says_fallback = says_fallback


@runtime_checkable
class Speaker(Protocol):
    """A speech back-end. All methods are thread-safe and bounded in time."""

    def problems(self) -> list[SpeechFault]:
        """Parts known to be missing already (checked cheaply at construction)."""
        ...

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """Start making `text` into a clip; never blocks. The future may hold a SpeechFault."""
        ...

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        """Play `clip`, calling `on_start` as its audio starts; return when it ends.

        Returns early, without error, when `stop()` is called.

        Raises:
            SpeechFault: the audio could not be played (before or after `on_start`).
        """
        ...

    def stop(self) -> None:
        """Silence at once whatever `play` is playing."""
        ...

    def close(self) -> None:
        """Release the engine and any child process."""
        ...


def estimate_duration(text: str, rate: int) -> float:
    """How long espeak-ng would take to say `text` at `rate` words per minute.

    Used to keep captions-only timing close to spoken timing, so the table's
    rhythm does not change when the voice is muted or missing.
    """
    words = len(text.split())
    pauses = sum(text.count(mark) for mark in ".,;:!?")
    return max(0.3, words * 60.0 / max(rate, 1) + pauses * _PUNCTUATION_PAUSE)


class SilentSpeaker:
    """Captions only: every clip is an estimate and `play` returns immediately.

    Used when no speech engine can be built, and by UI tests that want the
    narrator's timing without sound.
    """

    def problems(self) -> list[SpeechFault]:
        """Nothing is missing: silence was asked for."""
        return []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """A clip with no audio and an estimated duration."""
        future: Future[Clip] = Future()
        future.set_result(Clip(text, estimate_duration(text, rate)))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        """Start at once; the director waits the clip's duration itself."""
        on_start()

    def stop(self) -> None:
        """Nothing to stop."""

    def close(self) -> None:
        """Nothing to release."""
