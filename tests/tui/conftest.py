"""Fixtures for the table app: the real Store on a temp folder and a fast, silent narrator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.narrator import Narrator
from moderator.tui.app import MindFlayerApp, make_app


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """Data, config and cache folders for one test (shared by successive apps)."""
    result = {name: tmp_path / name for name in ("data", "config", "cache")}
    for folder in result.values():
        folder.mkdir()
    return result


@pytest.fixture
def narrators() -> list[Narrator]:
    """The narrators `app_factory` gave its apps, in order (the controller keeps its private)."""
    return []


@pytest.fixture
def app_factory(
    folders: dict[str, Path], narrators: list[Narrator]
) -> Callable[..., MindFlayerApp]:
    """Builds a new app instance on the same folders (a restart, for resume tests).

    `time_scale` defaults to 0.01 so narration is near-instant; a test that must
    act while a script is still running passes 1.0.
    """

    def build(time_scale: float = 0.01) -> MindFlayerApp:
        narrator = make_narrator(
            VoiceSettings(enabled=False), None, folders["cache"], time_scale=time_scale
        )
        narrators.append(narrator)
        return make_app(
            data_dir=folders["data"],
            config_dir=folders["config"],
            cache_dir=folders["cache"],
            voice_scripts_dir=None,
            narrator=narrator,
        )

    return build
