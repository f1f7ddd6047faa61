"""One `play()` call, and the paced waits every part of its playback shares.

The director and the span player both count pauses and wait for moments on
the same clock and time scale, and both wake for a cancel or a newer
script, so the job and its waits live here, beside neither.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.narration.events import Countdown, NarrationEvent
from moderator.narration.scripts.library import Action
from moderator.narration.speech.speaker import SpeechFault

log = logging.getLogger(__name__)

EventSink = Callable[[NarrationEvent], None]
#: Waits on an event for at most some seconds; whether it was set (`threading.Event.wait`).
EventWait = Callable[[threading.Event, float], bool]


@dataclass(frozen=True)
class Timing:
    """The clock a script is paced by and the wait that goes with it.

    The app uses the machine's monotonic clock; a test pins both (time moves
    only when the narration waits) and asserts the scheduled moments exactly,
    which no loaded machine can make late.
    """

    clock: Callable[[], float] = time.monotonic
    #: The real wait: the seconds of the machine's time, or less when the event is set.
    wait: EventWait = threading.Event.wait


@dataclass
class Job:
    """One `play()` call."""

    actions: list[Action]
    on_event: EventSink
    #: Stop at once (the user's stop): audio killed mid-line.
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: A newer script is waiting: end after the line being spoken.
    superseded: threading.Event = field(default_factory=threading.Event)
    #: Set with either of the two, so a wait wakes for both.
    wake: threading.Event = field(default_factory=threading.Event)
    #: The player failed during this script: its later clips go on as captions
    #: (a hung player would cost its grace on every line); the next script tries again.
    player_fault: SpeechFault | None = None

    def cancel(self) -> None:
        """Stop at once."""
        self.cancelled.set()
        self.wake.set()

    def supersede(self) -> None:
        """End at the next line boundary."""
        self.superseded.set()
        self.wake.set()

    @property
    def ending(self) -> bool:
        """Whether the job should start nothing new."""
        return self.wake.is_set()


@dataclass(frozen=True)
class Pacer:
    """Waits on one clock, `scale` times a script's seconds (tests shorten them)."""

    timing: Timing
    scale: float

    @property
    def clock(self) -> Callable[[], float]:
        """The clock every moment of the script is counted on."""
        return self.timing.clock

    def pause(self, job: Job, seconds: float, start: float) -> None:
        """Wait `seconds` from `start`, reporting whole seconds left."""
        end = start + seconds * self.scale
        if seconds >= 1:
            for left in range(math.ceil(seconds - 1e-9), 0, -1):
                self.sleep_until(job, start + (seconds - left) * self.scale)
                if job.ending:
                    return
                emit(job.on_event, Countdown(left))
            self.sleep_until(job, end)
            if not job.ending:
                emit(job.on_event, Countdown(0))
        else:
            self.sleep_until(job, end)

    def sleep_until(self, job: Job, moment: float, hard_only: bool = False) -> None:
        """Wait until `moment`; a cancel wakes it, and a newer script too unless `hard_only`."""
        remaining = moment - self.timing.clock()
        if remaining > 0:
            self.timing.wait(job.cancelled if hard_only else job.wake, remaining)


def emit(on_event: EventSink, event: NarrationEvent) -> None:
    """Deliver an event; a failing listener must not stop the narration thread."""
    try:
        on_event(event)
    except Exception:
        log.exception("narration listener failed on %r", event)
