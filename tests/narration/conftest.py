"""Fixtures for the narration tests: real speech or a clear skip, a null sound card.

Speech tests run on the real espeak-ng library. Where it is missing they skip
with the reason, unless MINDFLAYER_REQUIRE_SPEECH=1 (CI), where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from narration_helpers import Recorder, missing_speech, require_speech


@pytest.fixture
def speech() -> None:
    """Skip (or fail under MINDFLAYER_REQUIRE_SPEECH=1) without the speech library."""
    require_speech(missing_speech(player=False))


@pytest.fixture
def playback(speech: None) -> None:
    """Like `speech`, and also needs aplay."""
    require_speech(missing_speech(player=True))


@pytest.fixture(scope="session")
def speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One synthesis cache for the whole run: real audio, synthesized once."""
    return tmp_path_factory.mktemp("speech-cache")


@pytest.fixture
def null_sound_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME whose ~/.asoundrc sends ALSA's default device to the null sink."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default { type null }\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("ALSA_CONFIG_PATH", raising=False)
    return home


@pytest.fixture
def broken_sound_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME whose default ALSA device does not exist (no sound card)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(
        "pcm.!default { type hw card 97 }\nctl.!default { type hw card 97 }\n", encoding="utf-8"
    )
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    """A fresh event recorder."""
    yield Recorder()
