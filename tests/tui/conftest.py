"""Fixtures for the table app: the real Store on a temp folder and a fast, silent narrator;
for the end-to-end tests, the installed command in a real terminal (tmux)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.narrator import Narrator
from moderator.narration.settings import (
    MAX_RATE,
    MIN_GROWL_SECONDS,
    MIN_PASSING_SECONDS,
    MIN_REVEAL_SECONDS,
)
from moderator.table.config import SETTINGS_FILE
from moderator.tui.app import MindFlayerApp
from tests.tui.helpers import AtResults, ReachResults, app_on, to_results
from tests.tui.quiet import no_cursor_blink
from tests.tui.tmux import HEIGHT, WIDTH, Terminal, required_program


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
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type null }\n")
    folders = {name: tmp_path / name for name in ("data", "config", "cache")}
    for folder in folders.values():
        folder.mkdir()
    if request.node.get_closest_marker("default_timing") is None:
        (folders["config"] / SETTINGS_FILE).write_text(json.dumps(FAST_SETTINGS), "utf-8")
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g remain-on-exit on\nset -g status off\n")
    status_file = tmp_path / "exit-status"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "MINDFLAYER_DATA_DIR": str(folders["data"]),
        "MINDFLAYER_CONFIG_DIR": str(folders["config"]),
        "MINDFLAYER_CACHE_DIR": str(folders["cache"]),
    }
    term = Terminal(tmux_binary, f"mindflayer-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    subprocess.run(
        [
            tmux_binary,
            "-L",
            term.socket,
            "-f",
            str(conf),
            "new-session",
            "-d",
            "-s",
            term.target,
            "-x",
            str(WIDTH),
            "-y",
            str(HEIGHT),
            "sh",
            "-c",
            'tmp="$1.tmp"; "$0"; echo $? > "$tmp" && mv "$tmp" "$1"',
            str(mindflayer),
            str(status_file),
        ],
        env=env,
        check=True,
        timeout=10,
    )
    try:
        yield term, folders["data"], status_file
    finally:
        term.run("kill-server", check=False)


@pytest.fixture(autouse=True)
def _still_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text cursors do not blink in these tests (see `tests.tui.quiet.no_cursor_blink`)."""
    no_cursor_blink(monkeypatch)
