"""Seeded fuzzing of the whole app: thousands of random keys and clicks.

Random keys (the screens' binding keys weighted up, so games really get
played), random clicks on widgets and on bare coordinates, and now and then a
purposeful move (a name typed on the setup screen, results ticked) drive the
real app on temp folders with a silent narrator. After every step the open
game must obey the domain: the current player is in play unless the game is
over, at most 3 Meetings, and replaying the timeline's events gives the state.
Every few steps, once the app is idle, the screen shown must fit the state.
When the app quits (a random `ctrl+q`, the Quit button, the palette), it is
started again on the same folders, as a table would. At the end, each game's
log read back through a fresh read-only Store equals what the app had in
memory. An exception anywhere fails the test (`run_test` re-raises it).

Each seed is a test of its own (so pytest-xdist runs the seeds side by side, beside
the other tests) and runs in a spawned child process on its own temp folders,
watched for a hang; a failure brings back the child's traceback.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.managers import ValueProxy
from pathlib import Path

import pytest
from no_message_left import settled
from textual.errors import NoWidget
from textual.pilot import OutOfBounds, Pilot
from textual.widget import Widget
from textual.widgets import Input

from moderator.domain import replay, rules
from moderator.storage import Store
from moderator.table.ports import SavedGameLike
from moderator.tui.app import MindFlayerApp
from moderator.tui.screen_classes import phase_screen_class
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from tests.tui.app_driver import tracked_app

pytestmark = pytest.mark.slow

#: Four seeds of 800 steps (3,200 random keys and clicks in all; it was two of 2,500):
#: the same keys, clicks and sizes, from more starting points, and four shorter tests
#: that pytest-xdist spreads over the workers instead of two that end the run last.
SEEDS = (20261129, 7, 1201, 424242)
STEPS = 800
#: A hang, not slowness, fails the test: a seed that makes no step for this long
#: (seconds) is a hung app. The steps themselves are never timed.
STALL_LIMIT = 60.0
#: How often (seconds) the watchdog looks at the seeds' progress.
WATCH_EVERY = 1.0
#: Check the screen against the state every this many steps (after an idle wait).
SCREEN_CHECK_EVERY = 50
SIZES = ((80, 24), (100, 30), (120, 40))

#: Keys the screens bind, weighted up so the fuzzer plays games.
BINDING_KEYS: dict[str, float] = {
    "n": 12,
    "space": 6,
    "m": 8,
    "k": 6,
    "u": 5,
    "r": 4,
    "enter": 14,
    "escape": 5,
    "c": 3,
    "t": 4,
    "o": 3,
    "s": 2,
    "b": 1,
    "h": 2,
    "f": 2,
    "e": 2,
    "ctrl+s": 8,
    "ctrl+r": 1,
    "tab": 5,
    "shift+tab": 2,
    "up": 3,
    "down": 4,
    "f1": 0.5,
    "f2": 0.5,
    "question_mark": 0.5,
    "v": 1,
}
OTHER_KEYS: dict[str, float] = {
    **{letter: 1 for letter in "adgijlpqwxyz"},
    **{str(digit): 2 for digit in range(10)},
    "left": 1,
    "right": 1,
    "home": 1,
    "end": 1,
    "pageup": 1,
    "pagedown": 1,
    "backspace": 2,
    "delete": 1,
    "minus": 1,
    "shift+up": 1,
    "shift+down": 1,
    "ctrl+z": 1,
    "ctrl+y": 1,
    "ctrl+c": 1,
    "ctrl+a": 1,
    "ctrl+e": 1,
    "ctrl+p": 0.3,
    "ctrl+q": 0.2,
}
KEYS = list({**OTHER_KEYS, **BINDING_KEYS}.items())

#: Names a table might type, hostile ones included (markup, control bytes, long, wide).
NAMES = [
    "Ann",
    "Bob",
    "Cy",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "[/]",
    "[@click=app.quit]x",
    "[bold]B",
    "\x1b[31mRed",
    "Zoë",
    "李雷",
    "🙂 Smile",
    "A" * 30,
    " ",
    "ann",
]


@dataclass
class Fuzzer:
    """One seed's run: the random source, counts, and the games seen."""

    rng: random.Random
    steps: int = 0
    clicks: int = 0
    restarts: int = 0
    screens: Counter[str] = field(default_factory=Counter)
    games: dict[int, SavedGameLike] = field(default_factory=dict)

    def key(self) -> str:
        names, weights = zip(*KEYS, strict=True)
        return self.rng.choices(names, weights)[0]

    async def step(self, pilot: Pilot[None]) -> None:
        """One random key, click or purposeful move."""
        app = pilot.app
        roll = self.rng.random()
        if roll < 0.025:
            await self.click(pilot)
        elif roll < 0.2 and isinstance(app.screen, SetupScreen):
            if len(app.screen.players) >= rules.MIN_PLAYERS and self.rng.random() < 0.3:
                app.simulate_key("ctrl+s")
            else:
                self.type_name(app)
                app.simulate_key("enter")
        elif roll < 0.2 and isinstance(app.screen, ResultScreen):
            self.tick_results(app.screen)
            app.simulate_key("ctrl+s")
        else:
            app.simulate_key(self.key())
        self.steps += 1
        await pilot.pause(0)

    async def click(self, pilot: Pilot[None]) -> None:
        """A click on a random visible widget, or on a random cell of the screen."""
        app = pilot.app
        width, height = app.size
        try:
            if self.rng.random() < 0.6:
                widgets = [w for w in app.screen.query(Widget) if w.region.area > 0]
                if widgets:
                    target = self.rng.choice(widgets)
                    region = target.region
                    x = region.x + self.rng.randrange(region.width)
                    y = region.y + self.rng.randrange(region.height)
                    await pilot.click(offset=(min(x, width - 1), min(y, height - 1)))
            else:
                offset = (self.rng.randrange(width), self.rng.randrange(height))
                await pilot.click(offset=offset)
        except OutOfBounds:
            pass
        except NoWidget:
            # A click on a screen not laid out yet (just pushed; on a busy machine the
            # click can come first): Textual takes a real click there as a click on
            # nothing (`Screen._forward_event` clears the focus); only Pilot, which
            # looks up the widget itself, raises. Seen once in a loaded run (seed 1201).
            pass
        self.clicks += 1

    def type_name(self, app: MindFlayerApp) -> None:
        """Put a name in the setup screen's field (as typed), ready for Enter."""
        for field_ in app.screen.query("#setup-name").results(Input):
            field_.focus()
            field_.value = self.rng.choice(NAMES)

    def tick_results(self, screen: ResultScreen) -> None:
        """Tick a plausible set of Possessed and some Waffles."""
        if screen.controller.game_state is None or not screen.query("#possessed-0"):
            return
        state = screen.controller.state
        possessed = self.rng.sample(
            range(state.count), rules.setup_for(state.count).mind_flayer + self.rng.randrange(2)
        )
        for seat in range(state.count):
            screen.query_one(f"#possessed-{seat}").value = seat in possessed  # type: ignore[attr-defined]
            waffles = self.rng.choice(["0", "0", "1", "2", "", "-1", "9"])
            screen.query_one(f"#waffles-{seat}", Input).value = waffles


def check_state(app: MindFlayerApp, fuzzer: Fuzzer) -> None:
    """The domain's invariants on the open game, after any step."""
    game = app.controller.game
    if game is None:
        return
    fuzzer.games[game.game_id] = game
    state = game.state
    assert replay(game.timeline.events) == state, "the timeline no longer replays to the state"
    assert 0 <= state.meetings_resolved <= rules.MEETINGS_PER_GAME
    assert state.knocked_out <= frozenset(range(state.count))
    if not state.is_over:
        assert state.current in state.in_play, (state.current, state.knocked_out)
        assert len(state.in_play) > 2, "the game should have ended"


def check_screen(app: MindFlayerApp) -> None:
    """What the screen shows fits the saved state (checked when the app is idle)."""
    stack = [type(screen).__name__ for screen in app.screen_stack]
    phase = app.controller.phase
    assert app.current_mode == phase.value, f"phase {phase} but mode {app.current_mode}: {stack}"
    assert type(app.screen_stack[0]) is phase_screen_class(phase), (
        f"not the phase's screen: {stack}"
    )
    screen = app.screen
    game = app.controller.game
    if isinstance(screen, TableScreen):
        assert game is not None
        state = game.state
        assert state.meeting is None and not state.is_over, state
        shown = screen.query_one("#table-current", BigText).text
        assert shown == state.players[state.current], (shown, state.current)
    elif isinstance(screen, MeetingScreen):
        assert game is not None and game.state.meeting is not None
    elif isinstance(screen, FinaleScreen | ResultScreen):
        assert game is not None and game.state.is_over and game.state.result is None
    elif isinstance(screen, SeriesScreen):
        assert game is None or game.state.result is not None


def check_disk(data_dir: Path, games: dict[int, SavedGameLike]) -> None:
    """Each game's log, read back by a fresh read-only store, is what the app held."""
    store = Store.open_read_only(data_dir)
    try:
        for game_id, game in games.items():
            loaded = store.load_game(game_id)
            assert loaded.state == game.state, f"game {game_id} differs on disk"
            assert loaded.timeline.events == game.timeline.events
            assert loaded.timeline.redo_stack == game.timeline.redo_stack
    finally:
        store.close()


async def fuzz(seed: int, base: Path, progress: ValueProxy[int] | None = None) -> str:
    """One seed's whole run on its own folders under `base`; a summary line.

    `progress`, shared with the parent, counts the steps done (its watchdog).
    """
    folders = {name: base / name for name in ("data", "config", "cache")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    fuzzer = Fuzzer(random.Random(seed))
    started = time.monotonic()
    while fuzzer.steps < STEPS:
        app, _narrator = tracked_app(folders)
        size = fuzzer.rng.choice(SIZES)
        async with app.run_test(size=size, notifications=True) as pilot:
            while fuzzer.steps < STEPS and app.return_code is None:
                await fuzzer.step(pilot)
                if progress is not None:
                    progress.value = fuzzer.steps
                fuzzer.screens[type(app.screen).__name__] += 1
                if app.return_code is not None:  # the app was told to exit
                    break
                check_state(app, fuzzer)
                if fuzzer.steps % SCREEN_CHECK_EVERY == 0:
                    # By the app's queues, not the CPU: a starved child looked idle to
                    # pause() before a new phase's screen had composed (CI, seed 7).
                    await settled(pilot)
                    if app.return_code is None:
                        check_screen(app)
        # Leaving run_test re-raised any error of the app; a quit is a restart.
        if fuzzer.steps < STEPS:
            fuzzer.restarts += 1
    check_disk(folders["data"], fuzzer.games)
    assert {"StartScreen", "SetupScreen", "TableScreen"} <= set(fuzzer.screens)
    finished = sum(1 for game in fuzzer.games.values() if game.state.result is not None)
    return (
        f"seed {seed}: {fuzzer.steps} steps ({fuzzer.clicks} clicks) in "
        f"{time.monotonic() - started:.1f} s, {fuzzer.restarts} restarts, "
        f"{len(fuzzer.games)} games ({finished} with results), "
        f"{len(fuzzer.screens)} screens visited: {dict(fuzzer.screens.most_common())}"
    )


def fuzz_in_child(seed: int, base: str, progress: ValueProxy[int]) -> tuple[bool, str]:
    """Run one seed in a worker process: (passed, summary or traceback).

    The palette's Screenshot command saves into the Downloads folder: the child's
    home is the seed's temp folder, so a picture never lands in a real one.
    """
    home = Path(base) / "home"
    home.mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = str(home)
    os.environ["XDG_DOWNLOAD_DIR"] = str(home / "Downloads")
    os.environ["XDG_CONFIG_HOME"] = str(home / ".config")
    try:
        return True, asyncio.run(fuzz(seed, Path(base), progress))
    except BaseException:
        return False, f"seed {seed} failed:\n{traceback.format_exc()}"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_keys_and_clicks_never_break_the_game(tmp_path: Path, seed: int) -> None:
    """One seed in a child process; a hung app is killed and fails.

    Every step runs however long a busy machine takes; only a seed that makes
    no progress for `STALL_LIMIT` seconds counts as hung.
    """
    context = multiprocessing.get_context("spawn")
    manager = context.Manager()
    pool = context.Pool(processes=1)
    try:
        progress = manager.Value("i", 0)
        work = pool.apply_async(fuzz_in_child, (seed, str(tmp_path / f"seed-{seed}"), progress))
        last, last_change = -1, time.monotonic()
        while True:
            try:
                passed, text = work.get(timeout=WATCH_EVERY)
                break
            except multiprocessing.TimeoutError:
                steps = progress.value
                if steps != last:
                    last, last_change = steps, time.monotonic()
                elif time.monotonic() - last_change > STALL_LIMIT:
                    passed = False
                    text = f"seed {seed}: the app hung at step {steps} (no step in {STALL_LIMIT} s)"
                    break
    finally:
        pool.terminate()
        pool.join()
        manager.shutdown()
    print(text)
    assert passed, text
