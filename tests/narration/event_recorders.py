"""Listeners a narration test hands to `play()`: one records every event and when it
arrived, one also holds the events until the test says `play()` has returned."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.narration.events import Finished, NarrationEvent


@dataclass
class Recorder:
    """Collects narration events with the time they arrived on `clock` (the machine's)."""

    events: list[tuple[float, NarrationEvent]] = field(default_factory=list)
    finished: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    clock: Callable[[], float] = time.monotonic

    def __call__(self, event: NarrationEvent) -> None:
        with self.arrived:
            self.events.append((self.clock(), event))
            self.arrived.notify_all()
        if isinstance(event, Finished):
            self.finished.set()

    def wait_for(self, kind: type, timeout: float) -> bool:
        """Whether an event of `kind` arrived within `timeout` (a hang bound, not a speed test)."""
        with self.arrived:
            return self.arrived.wait_for(lambda: bool(self.of(kind)), timeout)

    def of(self, kind: type) -> list[NarrationEvent]:
        """Events of one type, in order."""
        return [e for _, e in self.events if isinstance(e, kind)]

    def times(self, kind: type) -> list[float]:
        """Arrival times of events of one type."""
        return [t for t, e in self.events if isinstance(e, kind)]

    def wait(self, timeout: float) -> bool:
        """Whether Finished arrived within `timeout` seconds."""
        return self.finished.wait(timeout)


class ReturnGate:
    """A listener that holds every event until the test says `play()` has returned.

    Whether `play()` returned before the narration delivered anything is then a
    fact of ordering, not of the clock: a `play()` that waited on the narration
    would still be inside the call when the first event is held here.
    """

    def __init__(self, listener: Recorder, bound: float = 30.0) -> None:
        self.listener = listener
        self.bound = bound
        self.returned = threading.Event()
        self.early: list[NarrationEvent] = []

    def __call__(self, event: NarrationEvent) -> None:
        if not self.early and not self.returned.wait(self.bound):
            self.early.append(event)  # play() still had not returned: it waited on this
        self.listener(event)
