"""Keeps every test off the developer's real data, config and cache folders."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    base: Path = tmp_path_factory.mktemp("mindflayer-home")
    for name, env in (
        ("data", "MINDFLAYER_DATA_DIR"),
        ("config", "MINDFLAYER_CONFIG_DIR"),
        ("cache", "MINDFLAYER_CACHE_DIR"),
    ):
        folder = base / name
        folder.mkdir()
        monkeypatch.setenv(env, str(folder))
