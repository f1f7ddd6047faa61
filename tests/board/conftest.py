"""The real app with the phone board allowed, on loopback and a free port, on temp folders."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pytest

from moderator.narration import VoiceSettings, make_narrator
from moderator.tui.app import MindFlayerApp
from tests.tui.app_driver import app_on
from tests.tui.conftest import _still_cursors, folders

__all__ = ["_still_cursors", "folders"]  # shared with the TUI tests: temp folders, still cursors


@pytest.fixture
def board_app(folders: dict[str, Path]) -> Callable[..., MindFlayerApp]:
    """Builds the app; `board=True` writes settings that allow the board on 127.0.0.1:0.

    `remote=True` allows the phone remote too; `lang` is the table's language.
    """

    def build(
        board: bool = True,
        time_scale: float = 0.01,
        address: str = "127.0.0.1",
        port: int = 0,
        remote: bool = False,
        lang: str | None = None,
    ) -> MindFlayerApp:
        settings: dict[str, object] = {
            "board": board,
            "board_address": address,
            "board_port": port,
            "remote": remote,
        }
        if lang is not None:
            settings["lang"] = lang
        (folders["config"] / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        narrator = make_narrator(
            VoiceSettings(enabled=False), None, folders["cache"], time_scale=time_scale
        )
        return app_on(folders, narrator)

    return build


@pytest.fixture
async def phone() -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client, as a phone's browser would be."""
    async with aiohttp.ClientSession() as session:
        yield session
