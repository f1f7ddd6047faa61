"""A real terminal for end-to-end tests: the app in tmux, driven by keys, read by its pane.

The fixtures that start it (`terminal`, `tmux_binary`, `mindflayer`) are in
conftest.py; this module holds the pane driver and the key sequences several
end-to-end tests share.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from moderator.table.config import SETTINGS_FILE

WIDTH, HEIGHT = 100, 32
#: Bound of every wait for the screen (the first start also warms up espeak-ng).
TIMEOUT = 20.0
#: Seconds between keys that move the focus, as a fast typist's.
TYPIST_GAP = 0.1
#: The colour and style sequences of a `capture-pane -e` line.
_ESCAPES = re.compile(r"\x1b\[[0-9;:]*[A-Za-z]")


def tmux_required() -> bool:
    """Where a missing tmux fails the end-to-end tests instead of skipping them."""
    return (
        os.environ.get("CI", "").lower() == "true"
        or os.environ.get("MINDFLAYER_REQUIRE_SPEECH") == "1"
    )


def required_program(name: str, skip_reason: str) -> str:
    """The path of program `name`: skips where it is missing, fails where CI requires it."""
    found = shutil.which(name)
    if found is None:
        if tmux_required():
            pytest.fail(f"{name} is required here (CI=true or MINDFLAYER_REQUIRE_SPEECH=1)")
        pytest.skip(skip_reason)
    return found


@dataclass
class Terminal:
    """One tmux server on a private socket running one pane."""

    tmux: str
    socket: str
    target: str = "mf"

    def run(self, *args: str, check: bool = True) -> str:
        """A tmux command on this server; its stdout."""
        done = subprocess.run(
            [self.tmux, "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed: {done.stderr.strip()}")
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Key names as tmux knows them (Enter, Tab, Down, C-s, ...)."""
        self.run("send-keys", "-t", self.target, *keys)

    def type(self, text: str) -> None:
        """Literal text."""
        self.run("send-keys", "-t", self.target, "-l", text)

    def press_seen(self, key: str, timeout: float = TIMEOUT) -> None:
        """Send one key and wait until the pane's look changes (e.g. a focus move).

        Keys that arrive together in one read can outrun a focus change (the
        next key goes to the widget that had focus), as no typist's keys do.
        The redraw shows the key was handled; a blinking cursor can redraw
        too, so a typist's gap (0.1 s) follows before the next key.
        """
        before = self.run("capture-pane", "-e", "-p", "-t", self.target)
        self.keys(key)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.run("capture-pane", "-e", "-p", "-t", self.target) != before:
                time.sleep(TYPIST_GAP)
                return
            time.sleep(0.02)
        raise AssertionError(f"{key} changed nothing on screen within {timeout} s")

    def lines_with(self, marker: str) -> list[str]:
        """The pane's lines (with their colours) that contain `marker`."""
        styled = self.run("capture-pane", "-e", "-p", "-t", self.target).splitlines()
        return [line for line in styled if marker in _ESCAPES.sub("", line)]

    def press_on(self, key: str, marker: str, timeout: float = TIMEOUT) -> None:
        """Send one key and wait until a line showing `marker` is drawn differently.

        For a key that moves the focus to a widget on that line: the line
        changes when the focus is there, and only then (unlike the whole pane,
        where a blinking cursor elsewhere changes too), so the next key is sent
        once the focus has arrived, whatever the machine's load.
        """
        before = self.lines_with(marker)
        if not before:
            raise AssertionError(f"no line shows {marker!r}\n{self.screen()}")
        self.keys(key)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.lines_with(marker) != before:
                return
            time.sleep(0.02)
        raise AssertionError(f"{key} changed no line with {marker!r} within {timeout} s")

    def screen(self) -> str:
        """The pane's text now."""
        return self.run("capture-pane", "-p", "-t", self.target)

    def wait_for(self, *texts: str, timeout: float = TIMEOUT) -> str:
        """Poll the pane until every text shows; fail with the last screen otherwise."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"not on screen after {timeout} s: {texts!r}\n{screen}")

    def wait_exit(self, status_file: Path, timeout: float = TIMEOUT) -> int:
        """Wait until the app has exited (the pane's shell wrote its status)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = status_file.read_text().strip() if status_file.exists() else ""
            if text:
                return int(text)
            time.sleep(0.05)
        raise AssertionError(f"the app did not quit within {timeout} s\n{self.screen()}")


@contextmanager
def app_in_terminal(
    tmux: str, mindflayer: Path, base: Path, settings: Mapping[str, object] | None
) -> Iterator[tuple[Terminal, Path, Path]]:
    """The app started in a fresh tmux server on folders under `base`, with a fresh HOME.

    Yields the terminal, the data folder and the exit file: the pane runs the
    app through `sh`, which writes the app's exit status there once it has
    really ended. `settings` is the settings file it starts with (none: none).
    """
    home = base / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type null }\n")
    folders = {name: base / name for name in ("data", "config", "cache")}
    for folder in folders.values():
        folder.mkdir()
    if settings is not None:
        (folders["config"] / SETTINGS_FILE).write_text(json.dumps(settings), "utf-8")
    conf = base / "tmux.conf"
    conf.write_text("set -g remain-on-exit on\nset -g status off\n")
    status_file = base / "exit-status"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "MINDFLAYER_DATA_DIR": str(folders["data"]),
        "MINDFLAYER_CONFIG_DIR": str(folders["config"]),
        "MINDFLAYER_CACHE_DIR": str(folders["cache"]),
    }
    term = Terminal(tmux, f"mindflayer-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    subprocess.run(
        [
            tmux,
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


def seat_new_series(term: Terminal, names: tuple[str, ...], *also: str) -> str:
    """From the start screen: a new series, each name typed and entered as a user would.

    Waits until the last name shows in its seat, with every text of `also`;
    returns that screen.
    """
    term.wait_for("New series (n)", "Quit (q)")
    term.keys("n")
    term.wait_for("players seated")
    for name in names:
        term.type(name)
        term.keys("Enter")
    return term.wait_for(f"{len(names)}. {names[-1]}", *also)


def start_four_player_game(term: Terminal, *also: str) -> str:
    """Ann, Bob, Cy and Dee seated in a new series and the game started with Ctrl+S.

    Waits for the first turn, with every text of `also`; returns that screen.
    """
    seat_new_series(term, ("Ann", "Bob", "Cy", "Dee"), "No eyes-closed reveal")
    term.keys("C-s")
    return term.wait_for("Seat 1: your turn", *also)


def quit_from_board(term: Terminal, status_file: Path, start_text: str) -> str:
    """Escape from the series board to the start screen, then q: the app exits cleanly.

    Waits for `start_text` on the start screen and returns that screen.
    """
    term.keys("Escape")
    start = term.wait_for(start_text)
    term.keys("q")
    assert term.wait_exit(status_file) == 0
    return start


def wait_until(
    term: Terminal, holds: Callable[[str], bool], what: str, timeout: float = TIMEOUT
) -> str:
    """Poll the pane until `holds(screen)`; that screen (fail with the last one otherwise).

    For a screen known by its shape (its footer's keys, a marked row) rather than
    by words, which change with the table's language.
    """
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = term.screen()
        if holds(screen):
            return screen
        time.sleep(0.05)
    raise AssertionError(f"not on screen after {timeout} s: {what}\n{screen}")
