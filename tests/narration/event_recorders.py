"""Shared test helpers for the narration tests (a unique module name, not `conftest`)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from narration_probes import library_present

from moderator.narration.events import Finished, NarrationEvent
from moderator.narration.job import Timing
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.players import Player
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

REQUIRE_SPEECH_ENV = "MINDFLAYER_REQUIRE_SPEECH"


def system_speaker(
    cache: Path, *worker_command: str, player: Player | None = None, **synthesizer: Any
) -> ChoosingSpeaker:
    """The app's real speaker on the platform's voice (the synthesizer built with `synthesizer`)."""
    system = Pyttsx3Synthesizer(cache, list(worker_command) or None, **synthesizer)
    return ChoosingSpeaker(system, cache, player=player)


def user_scripts(tmp_path: Path, files: dict[str, str]) -> Path:
    """A user's voice-scripts folder in `tmp_path` holding `files` (path -> text)."""
    root = tmp_path / "user"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def missing_speech(*, player: bool) -> str | None:
    """Why real speech cannot be tested here, or None when it can."""
    if not library_present():
        return "the espeak-ng library is missing (apt-get install libespeak-ng1)"
    try:
        import pyttsx3  # noqa: F401
    except Exception as error:  # pragma: no cover - depends on the machine
        return f"pyttsx3 cannot load ({error})"
    if player and shutil.which("aplay") is None:
        return "aplay is missing (apt-get install alsa-utils)"
    return None


def require_speech(reason: str | None) -> None:
    """Skip with `reason`, or fail when MINDFLAYER_REQUIRE_SPEECH=1 (CI must not skip)."""
    if reason is None:
        return
    if os.environ.get(REQUIRE_SPEECH_ENV) == "1":
        pytest.fail(f"{REQUIRE_SPEECH_ENV}=1 but {reason}")
    pytest.skip(reason)


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
