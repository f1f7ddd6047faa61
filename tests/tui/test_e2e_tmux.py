"""End to end: the installed `mindflayer` command in a real terminal (tmux).

A 4-player game is played by keystrokes: two knock-outs end it early, the
result is typed in, the app quits; the screen is read with `capture-pane`
and the score database is then opened read-only to check the saved result.
Speech runs for real but into a null ALSA device (`~/.asoundrc` in a temp
HOME), so nothing is heard and nothing may leak onto the screen.

Skipped when tmux is missing, unless CI=true or MINDFLAYER_REQUIRE_SPEECH=1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from moderator.domain import Team
from moderator.storage import Store

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 100, 32
#: Bound of every wait for the screen (the first start also warms up espeak-ng).
TIMEOUT = 20.0
#: Seconds between keys that move the focus, as a fast typist's.
TYPIST_GAP = 0.1


def _required() -> bool:
    return (
        os.environ.get("CI", "").lower() == "true"
        or os.environ.get("MINDFLAYER_REQUIRE_SPEECH") == "1"
    )


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
    seat_new_series(term, ("Ann", "Bob", "Cy", "Dee"), "No eyes-closed reveal with 4 or 5 players")
    term.keys("C-s")
    return term.wait_for("Seat 1: your turn", *also)


@pytest.fixture
def tmux_binary() -> str:
    found = shutil.which("tmux")
    if found is None:
        if _required():
            pytest.fail("tmux is required here (CI=true or MINDFLAYER_REQUIRE_SPEECH=1)")
        pytest.skip("tmux is not installed: the end-to-end terminal test needs it")
    return found


@pytest.fixture
def mindflayer() -> Path:
    """The console script installed beside this Python."""
    script = Path(sys.executable).parent / "mindflayer"
    if not script.exists():
        pytest.fail(f"the mindflayer command is not installed beside {sys.executable}")
    return script


@pytest.fixture
def terminal(
    tmux_binary: str, mindflayer: Path, tmp_path: Path
) -> Iterator[tuple[Terminal, Path, Path]]:
    """The app started in a fresh tmux server; yields it, the data folder, the exit file.

    The pane runs the app through `sh`, which writes the app's exit status to
    the exit file once it has really ended.
    """
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type null }\n")
    folders = {name: tmp_path / name for name in ("data", "config", "cache")}
    for folder in folders.values():
        folder.mkdir()
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


def test_four_players_ended_by_knockouts_saved_in_the_database(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, data_dir, status_file = terminal
    start_four_player_game(term, "Meetings done: 0 of 3")

    term.keys("n")
    term.wait_for("Seat 2: your turn")
    # The dialog lists the players in play, the first highlighted: Cy is 2 down.
    term.keys("k")
    term.wait_for("Who is knocked out?", "3. Cy")
    term.keys("Down", "Down", "Enter")
    term.wait_for("Cy is knocked out.")
    term.keys("k")
    term.wait_for("Who is knocked out?", "4. Dee")  # Ann, Bob, Dee are left
    term.keys("Down", "Down", "Enter")
    finale = term.wait_for("Only 2 players are still in play: the game ends.")
    assert "GAME OVER" not in finale  # drawn in big letters, not as plain text
    term.wait_for("Press Enter to enter who growled.")

    term.keys("Enter")
    term.wait_for("Tick everyone who growled", "Cy  (knocked out)")
    # Focus starts on Ann's box; then Ann's Waffles, Bob's box, Bob's Waffles.
    for _ in range(3):
        term.press_seen("Tab")
    term.type("2")
    # No points until someone is ticked (the domain's sentence shows instead).
    term.wait_for("Waffles: 2", "mark everyone who growled")
    term.press_seen("Tab")
    term.keys("Space")  # Cy growled
    term.wait_for("the SANE win. Points: Ann 1, Bob 3, Cy 0, Dee 1")
    term.keys("C-s")
    board = term.wait_for("Series: 1 of 3 games played")
    assert "Leading: Bob" in board

    term.keys("Escape")
    start = term.wait_for("An unfinished series is waiting for its next game.")
    for noise in ("ALSA", "Traceback", "aplay", "Audio saved"):
        assert noise not in start, f"{noise!r} leaked onto the screen:\n{start}"
    term.keys("q")
    assert term.wait_exit(status_file) == 0

    store = Store.open_read_only(data_dir)
    try:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is None
        (game,) = store.series_games(unfinished.series_id)
        assert list(game.players) == ["Ann", "Bob", "Cy", "Dee"]
        assert game.winner is Team.SANE
        assert dict(game.points) == {"Ann": 1, "Bob": 3, "Cy": 0, "Dee": 1}
        assert set(game.possessed) == {"Cy"}
    finally:
        store.close()
