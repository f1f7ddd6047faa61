"""The collector at the table: what the app keeps all evening is frozen, once it settled.

A full collection that scans the kept phase screens' objects made a key's frame
late (docs/measurements.md); the app started as the command starts it (the
collector paused until the first frame) freezes them. An app started with the
collector running (as every test does) freezes nothing: that would keep every
earlier app's objects in the test process.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from time import monotonic

import pytest
from controller_shortcuts import seated
from no_message_left import settled
from textual.pilot import Pilot

from moderator.cli import pause_collector_for_start_up
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.table import TableScreen
from moderator.tui.start_up import DEFER_PAST_FIRST_FRAME

FOUR = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def collector_restored() -> Iterator[None]:
    """The test process's collector as it was: running, nothing frozen by the test."""
    frozen = gc.get_freeze_count()
    yield
    gc.enable()
    if gc.get_freeze_count() != frozen:
        gc.unfreeze()  # what the app froze goes back to be collected


async def after_settling(pilot: Pilot[None], seconds: float = DEFER_PAST_FIRST_FRAME) -> None:
    """Let the app's settle timers run (DEFER_PAST_FIRST_FRAME after what set them), then settle."""
    deadline = monotonic() + seconds * 2
    while monotonic() < deadline:
        await pilot.pause(0.05)
    await settled(pilot)


async def test_the_kept_screens_are_frozen_when_started_as_the_command(
    app_factory: Callable[..., MindFlayerApp], collector_restored: None
) -> None:
    pause_collector_for_start_up()
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await after_settling(pilot)
        assert gc.isenabled(), "the collector resumes after the start-up"
        after_start_up = gc.get_freeze_count()
        assert after_start_up > 0
        await seated(pilot, FOUR)
        assert isinstance(app.screen, TableScreen)
        await after_settling(pilot)
        # The table screen's widgets, styles and bindings no longer meet the collector.
        assert gc.get_freeze_count() > after_start_up
        screen = app.screen
        assert all(tracked is not screen for tracked in gc.get_objects())


async def test_an_app_started_with_the_collector_running_freezes_nothing(
    app_factory: Callable[..., MindFlayerApp], collector_restored: None
) -> None:
    before = gc.get_freeze_count()
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await after_settling(pilot)
        await seated(pilot, FOUR)
        await after_settling(pilot)
        assert gc.get_freeze_count() == before
