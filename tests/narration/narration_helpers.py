"""Shared test helpers for the narration tests (a unique module name, not `conftest`)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from moderator.narration.events import Finished, NarrationEvent
from moderator.narration.speech.espeak_speaker import library_present

REQUIRE_SPEECH_ENV = "MINDFLAYER_REQUIRE_SPEECH"


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
