"""Fixtures for the storage tests: a real database on disk in a temp folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from moderator.storage import Store
from tests.storage.varied_history import varied_history

START = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)


class StepClock:
    """A clock that moves one minute per reading, so every stored time is known."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        moment = self.now
        self.now += timedelta(minutes=1)
        return moment


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def clock() -> StepClock:
    return StepClock()


@pytest.fixture
def open_store(data_dir: Path, clock: StepClock) -> Iterator[Callable[[], Store]]:
    """Opens stores on `data_dir` (like app restarts) and closes them all at the end."""
    opened: list[Store] = []

    def opener() -> Store:
        store = Store.open(data_dir, clock=clock)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    return open_store()


@pytest.fixture
def varied_history_dir(store: Store, data_dir: Path) -> Path:
    """The data folder holding `varied_history`, its store closed."""
    varied_history(store)
    store.close()
    return data_dir
