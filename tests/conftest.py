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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tests first, in their collection order: with pytest-xdist, the
    workers start on the long ones and the many short ones fill in behind them,
    instead of one worker finishing a long fuzz seed while the others wait."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
