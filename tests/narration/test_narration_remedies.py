"""Every failure sentence names the platform's own remedy (issue 16, item 5).

A Mac has no `apt-get`, no `aplay` and no `espeak-ng`; neither has Windows. The
faults are made for real (a synthesis child that refuses to start, a player
that is missing or fails); only the platform they are told for is chosen.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from moderator.narration.audio.wavfile import Pcm, silence, write_pcm_atomic
from moderator.narration.speech.platforms import EngineSetup, engine_check
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.remedies import player_missing, sound_check
from moderator.narration.speech.speaker import SpeechFault

LINUX_WORDS = ("apt", "aplay", "alsa", "espeak", "pulseaudio")
PLATFORMS = [("darwin", "nsss", "macOS system voice"), ("win32", "sapi5", "Windows speech")]


def _foreign(message: str) -> list[str]:
    """The Linux-only words in `message` (whole words: "captions" is no "apt")."""
    return [w for w in LINUX_WORDS if re.search(rf"\b{w}", message, flags=re.IGNORECASE)]


@pytest.mark.parametrize(("system", "driver", "remedy"), PLATFORMS)
def test_no_linux_remedy_is_told_on_macos_or_windows(system: str, driver: str, remedy: str) -> None:
    for message in (engine_check(driver), player_missing(system), sound_check(system)):
        assert _foreign(message) == [], message
    assert remedy in engine_check(driver)


def test_linux_is_told_its_own_remedies() -> None:
    assert "espeak-ng hello" in engine_check("espeak")
    assert "alsa-utils" in player_missing("linux")
    assert "aplay -l" in sound_check("linux")


@pytest.mark.parametrize(("system", "driver", "remedy"), PLATFORMS)
def test_an_engine_that_cannot_start_names_the_platforms_check(
    tmp_path: Path, system: str, driver: str, remedy: str
) -> None:
    refusal = json.dumps({"ready": False, "part": "engine", "error": "no voices"})
    refusing = [sys.executable, "-c", f"print({refusal!r}, flush=True)"]
    synthesizer = Pyttsx3Synthesizer(tmp_path, refusing, engine=EngineSetup(driver), warm=False)
    try:
        with pytest.raises(SpeechFault) as caught:
            synthesizer.synthesize("Eleven.", "en", 160, 1.0).result(timeout=30)
    finally:
        synthesizer.close()
    assert caught.value.part == "engine"
    assert remedy in caught.value.message and _foreign(caught.value.message) == []


def test_a_mac_player_that_is_missing_or_fails_names_the_macs_remedies(tmp_path: Path) -> None:
    missing = CommandPlayer(["mindflayer-no-such-afplay"], system="darwin").available()
    assert missing is not None and _foreign(missing.message) == []
    clip = tmp_path / "clip.wav"
    write_pcm_atomic(clip, Pcm(22050, silence(22050, 0.1)))
    failing = CommandPlayer([sys.executable, "-c", "raise SystemExit(1)"], system="darwin")
    with pytest.raises(SpeechFault) as caught:
        failing.play(clip, 0.1, lambda: None)
    assert caught.value.part == "device"
    assert "System Settings" in caught.value.message and _foreign(caught.value.message) == []
