"""Shared test helpers for the narration tests (a unique module name, not `conftest`)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from moderator.narration.events import Finished, NarrationEvent


@dataclass
class Recorder:
    """Collects narration events with the monotonic time they arrived."""

    events: list[tuple[float, NarrationEvent]] = field(default_factory=list)
    finished: threading.Event = field(default_factory=threading.Event)

    def __call__(self, event: NarrationEvent) -> None:
        self.events.append((time.monotonic(), event))
        if isinstance(event, Finished):
            self.finished.set()

    def of(self, kind: type) -> list[NarrationEvent]:
        """Events of one type, in order."""
        return [e for _, e in self.events if isinstance(e, kind)]

    def times(self, kind: type) -> list[float]:
        """Arrival times of events of one type."""
        return [t for t, e in self.events if isinstance(e, kind)]

    def wait(self, timeout: float) -> bool:
        """Whether Finished arrived within `timeout` seconds."""
        return self.finished.wait(timeout)
