"""Fixtures for the table app: the real Store on a temp folder and a fast, silent narrator;
for the end-to-end tests, the installed command in a real terminal (tmux)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from controller_shortcuts import to_results
from no_message_left import no_cursor_blink
from syrupy import SnapshotAssertion

from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.narrator import Narrator
from moderator.narration.settings import (
    MAX_RATE,
    MIN_GROWL_SECONDS,
    MIN_PASSING_SECONDS,
    MIN_REVEAL_SECONDS,
)
from moderator.tui.app import MindFlayerApp
from tests.tui.app_driver import AtResults, ReachResults, app_on
from tests.tui.sized_shots import matches
from tests.tui.tmux import Terminal, app_in_terminal, required_program


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
        return app_on(folders, narrator)

    return build


@pytest.fixture
def at_results(app_factory: Callable[..., MindFlayerApp]) -> ReachResults:
    """The result screen of a new app's four-player game (Cy and Dee knocked out).

    The preamble every result-screen test shares; the app runs while the block does.
    """

    @asynccontextmanager
    async def reach(
        size: tuple[int, int] = (80, 24), notifications: bool = False
    ) -> AsyncIterator[AtResults]:
        app = app_factory()
        async with app.run_test(size=size, notifications=notifications) as pilot:
            yield app, pilot, await to_results(pilot)

    return reach


@pytest.fixture
def shot_compare(
    snapshot: SnapshotAssertion, request: pytest.FixtureRequest
) -> Callable[[str], bool]:
    """Compares an SVG shot with this test's snapshot, as `snap_compare` compares a run.

    For shots taken by `tests.tui.sized_shots` (one app run for several sizes).
    """

    def compare(svg: str) -> bool:
        return matches(snapshot, request, svg)

    return compare


@pytest.fixture
def tmux_binary() -> str:
    return required_program("tmux", "tmux is not installed: the end-to-end terminal test needs it")


@pytest.fixture
def mindflayer() -> Path:
    """The console script installed beside this Python."""
    script = Path(sys.executable).parent / "mindflayer"
    if not script.exists():
        pytest.fail(f"the mindflayer command is not installed beside {sys.executable}")
    return script


#: The settings file the terminal tests start the app with: the shortest windows the
#: settings accept and the fastest speech, so a finale the test waits through takes a
#: few seconds, not fifteen (the app as a table runs it; only the lengths change). A
#: test that needs the defaults (a reveal still running when it acts) is marked
#: `default_timing`.
FAST_SETTINGS = {
    "reveal_seconds": MIN_REVEAL_SECONDS,
    "growl_seconds": MIN_GROWL_SECONDS,
    "passing_seconds": MIN_PASSING_SECONDS,
    "rate": MAX_RATE,
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "default_timing: the terminal test runs the app on its default settings"
    )


@pytest.fixture
def terminal(
    tmux_binary: str, mindflayer: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[Terminal, Path, Path]]:
    """The app started in a fresh tmux server; yields it, the data folder, the exit file.

    The pane runs the app through `sh`, which writes the app's exit status to
    the exit file once it has really ended. The app reads `FAST_SETTINGS`
    unless the test is marked `default_timing`.
    """
    settings = FAST_SETTINGS if request.node.get_closest_marker("default_timing") is None else None
    with app_in_terminal(tmux_binary, mindflayer, tmp_path, settings) as started:
        yield started


@pytest.fixture(autouse=True)
def _still_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text cursors do not blink in these tests (see `no_message_left.no_cursor_blink`)."""
    no_cursor_blink(monkeypatch)
