"""The app's real speaker for the speech tests, and whether real speech can be tested here
(a clear skip where it cannot, a failure under MINDFLAYER_REQUIRE_SPEECH=1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from narration_probes import library_present

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
