"""Settings offers a French table its natural voice: size, licence, progress, off the UI thread.

The real download code fetches from a voice repository on 127.0.0.1 (see
tests/voice_repository.py); the voice is the English model with its config's
language changed to French.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from driving import key, until
from textual.widgets import Button, ProgressBar, Select, Static

from moderator.narration.narrator import Narrator
from moderator.narration.speech import piper_voices
from moderator.narration.speech.piper_voices import InstalledVoice
from moderator.narration.speech.voice_engines import choose_engine
from moderator.table.config import SETTINGS_FILE
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs import settings_voice
from moderator.tui.dialogs.settings import SettingsScreen
from tests.voice_repository import FRENCH, SERVER_ERROR, VoiceRepository


def french_table(folders: dict[str, Path]) -> None:
    (folders["config"] / SETTINGS_FILE).write_text(json.dumps({"lang": "fr"}), encoding="utf-8")


def status_of(screen: SettingsScreen) -> str:
    return str(screen.query_one("#settings-install-status", Static).render())


async def test_settings_installs_the_french_voice_with_a_progress_bar_and_speaks_with_it(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    narrators: list[Narrator],
    repository: VoiceRepository,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    downloading: list[threading.Thread] = []
    real_install = settings_voice.install

    def install(*args: Any, **kwargs: Any) -> InstalledVoice:  # the real one, its thread noted
        downloading.append(threading.current_thread())
        return real_install(*args, **kwargs)

    monkeypatch.setattr(settings_voice, "install", install)
    french_table(folders)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        note = str(screen.query_one("#settings-install-note", Static).render())
        assert FRENCH in note and "CC BY 4.0" in note
        button = screen.query_one("#settings-install-button", Button)
        assert button.display and "63,2 Mo" in str(button.label)  # a French table's size
        voice = screen.query_one("#settings-voice", Select)
        assert voice.value == "espeak"
        totals: list[float | None] = []
        bar = screen.query_one("#settings-install-progress", ProgressBar)
        threads: list[str] = []
        real_update = bar.update

        def update(**kwargs: object) -> None:
            if "total" in kwargs:  # the dialog's calls (the bar's own pass no total)
                threads.append(threading.current_thread().name)
                totals.append(kwargs["total"])  # type: ignore[arg-type]
            real_update(**kwargs)  # type: ignore[arg-type]

        bar.update = update  # type: ignore[method-assign]
        button.press()
        await until(pilot, lambda: FRENCH in str(voice.value), "the voice installed")
        total = sum(len(d) for d in repository.voices[FRENCH].files.values())
        assert totals and totals[-1] == total and bar.progress == total
        # Drawn by the UI's thread; the download ran in another one.
        assert set(threads) == {threading.main_thread().name}
        assert len(downloading) == 1 and downloading[0] is not threading.main_thread()
        assert FRENCH in status_of(screen)
        assert not button.display, "no offer once the language has its voice"
        await key(pilot, "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
    settings = narrators[-1].settings
    assert choose_engine(settings, "fr").engine == FRENCH


async def test_a_failed_install_in_settings_says_why_and_offers_it_again(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    repository: VoiceRepository,
) -> None:
    french_table(folders)
    repository.faults[f"{FRENCH}.onnx"] = SERVER_ERROR
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        button = screen.query_one("#settings-install-button", Button)
        button.press()
        await until(pilot, lambda: "HTTP 500" in status_of(screen), "the failure told")
        assert button.display, "offered again"
        assert screen.query_one("#settings-voice", Select).value == "espeak"


async def test_settings_says_how_to_add_the_neural_extra_where_it_is_missing(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fault injected: piper-tts reported missing (its version unknown).
    monkeypatch.setattr(piper_voices, "engine_version", lambda: "")
    french_table(folders)
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        note = str(screen.query_one("#settings-install-note", Static).render())
        for command in ("make neural", "pipx install '.[neural]'", "uv tool install '.[neural]'"):
            assert command in note
