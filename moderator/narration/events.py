"""What the narrator tells its listener, as facts in the past tense.

The TUI receives these from a background thread (and posts them to its own
event loop), so they are small frozen values with no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineStarted:
    """A line's audio has just started (or its caption is due, when muted)."""

    text: str


@dataclass(frozen=True)
class Countdown:
    """Whole seconds left in a pause; 0 when the pause is over."""

    seconds_left: int


@dataclass(frozen=True)
class Notice:
    """Something is missing (sent once per missing part), with how to fix it."""

    message: str


@dataclass(frozen=True)
class Finished:
    """The script ended, or was cancelled (by `cancel()` or a newer `play()`)."""

    cancelled: bool


NarrationEvent = LineStarted | Countdown | Notice | Finished
