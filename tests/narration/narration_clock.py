"""A clock for the narration's timing tests that only the narration's own waits move."""

from __future__ import annotations

import threading

from moderator.narration.job import Timing


class PinnedClock:
    """The narration's time, moved only by the narration's own waits.

    A wait of `s` seconds moves it by exactly `s` and returns at once (at once,
    unmoved, when its event is already set), so every caption and countdown
    arrives at its scheduled moment however loaded the machine is, and a
    script of minutes runs in milliseconds. For timing tests only: nothing
    can happen "during" a wait, so a cancel or a newer script mid-line needs
    the machine's clock.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def clock(self) -> float:
        return self.now

    def wait(self, event: threading.Event, seconds: float) -> bool:
        if event.is_set():
            return True
        self.now += max(0.0, seconds)
        return False

    @property
    def timing(self) -> Timing:
        """The narrator's `timing` argument."""
        return Timing(self.clock, self.wait)
