"""Fixtures for the narration tests: real speech or a clear skip, a null sound card.

Speech tests run on the real espeak-ng library. Where it is missing they skip
with the reason, unless MINDFLAYER_REQUIRE_SPEECH=1 (CI), where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from event_recorders import Recorder
from real_speech import missing_speech, require_speech
from shipped_renders import ShippedRenders

from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer


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
def speaker(speech: None, speech_cache: Path) -> Iterator[Pyttsx3Synthesizer]:
    """The real synthesizer (espeak-ng) on the run's shared cache. A module that speaks
    through another speaker overrides this fixture by its name."""
    speaker = Pyttsx3Synthesizer(speech_cache)
    yield speaker
    speaker.close()


@pytest.fixture(scope="module")
def fresh_speaker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pyttsx3Synthesizer]:
    """The real synthesizer on an empty cache of the module's own, not warmed up: what it
    says is synthesized in that module, not taken from another test's cache."""
    synthesizer = Pyttsx3Synthesizer(tmp_path_factory.mktemp("speech"), warm=False)
    yield synthesizer
    synthesizer.close()  # its children (one per voice) end with the module


@pytest.fixture(scope="session")
def shipped_renders(
    speech_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ShippedRenders]:
    """The shipped scripts rendered once per process (shipped_renders.py: mark the test
    `xdist_group(shipped_renders.GROUP)`, and take `speech` too for the skip)."""
    speaker = Pyttsx3Synthesizer(speech_cache, warm=False)
    yield ShippedRenders(speaker, tmp_path_factory.mktemp("shipped-renders"))
    speaker.close()  # its children (one per voice) end with the session


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
