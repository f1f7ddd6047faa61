"""TUI bench: the table app against a bare Textual app measured in the same run.

1. Start-up to the first frame and peak memory (ru_maxrss), each app started
   N times (default 15, alternating bare, app, and the app without its start-up
   pause of the garbage collector, printed beside) in fresh subprocesses
   (headless) that exit right after their first settled frame (the screen
   has handled its messages and the process is idle, then one more refresh);
   medians, and the ratios app / bare. The app is built exactly as the
   `mindflayer` command builds it (argument parsing, the collector paused,
   folders, database, voice scripts, speech engine), so whatever runs before its first frame is
   counted; its database exists (an unmeasured first start created it), as
   on every start but the very first. Both run from compiled bytecode, as an
   installed app does (pip compiles Textual at install, Python caches ours on
   the first run): the children get their own bytecode folder
   (`PYTHONPYCACHEPREFIX`, filled by the unmeasured first starts) whatever the
   caller's `PYTHONDONTWRITEBYTECODE` says, else every start of the app would
   recompile its modules while the bare app's Textual is precompiled. The
   goal is a ratio of at most 1.15 (issue 32), wall clock and CPU time to the
   first frame both (the CPU moves less when the machine is busy).
2. Key-to-screen latency: `app.simulate_key`, then `pilot.pause(0)` until the
   screen shows the key, for "next turn" on the table screen, a knock-out (the
   seat's digit in the picker, until the tile shows it and the picker is gone)
   and a Meeting's sit-out toggle (a seat's digit, until the tile shows it: the
   Meeting's captions reach the app's queue meanwhile, so one pause can return
   before the app has taken the key); each action is saved to SQLite first
   (synchronous=FULL), as in play. The figure is the time from the key to the
   last frame the app drew for it (`FrameClock`); the Pilot's round trip and
   the CPU time are printed beside it. Against a bare app whose key updates a
   label, run before and after; median and p95, the ratios, and the goal
   (p95 <= 16 ms, a frame at 60 Hz).
3. Idle CPU over 30 s in a real terminal (tmux): the app sitting on the table
   screen and the bare app side by side; utime+stime from /proc/<pid>/stat.

Run with `make bench` (or `.venv/bin/python bench/bench_tui.py`); about a minute
and a half. Needs tmux for part 3 (skipped with a message otherwise).
`bench/bench_tui.py --startup-only [--runs N] [--compare-with DIR]` runs part 1 alone
(DIR: another revision's `moderator` package, `git archive REV moderator | tar -x -C
DIR`, whose app is started alternately with this tree's and printed beside),
`bench/bench_tui.py --latency-only` part 2 alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from measuring import quantile

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15
#: The start-up goal: the app's first frame within this factor of a bare Textual app's.
STARTUP_GOAL = 1.15
KEYS = 300
#: Knock-outs timed (each opens the picker and is undone after, both untimed).
KNOCK_OUTS = 100
#: The actions part 2 times, in order.
LATENCY_KEYS = ("next turn", "knock-out", "Meeting toggle")
#: The goal for each: key to screen within a frame at 60 Hz, at the 95th percentile.
LATENCY_GOAL_MS = 16.0
#: Draw rounds an untimed step may take before the screen counts as lagging.
LAG_ROUNDS = 50
#: Seconds a timed key may take to show before the screen counts as lagging.
LAG_SECONDS = 2.0
#: How often a timed key's frames are looked at, and how long without a frame means
#: the last one was drawn (more than Textual's update period, 1/60 s).
POLL = 0.001
QUIET = 0.025
IDLE_SECONDS = 30.0

#: The child run for part 1: build an app, exit after its first refresh, report.
STARTUP_CHILD = r"""
import time
t0 = time.perf_counter()
c0 = time.process_time()
import json, sys
from pathlib import Path

kind, base = sys.argv[1], Path(sys.argv[2])
if kind == "bare":
    from textual.app import App
    from textual.widgets import Static

    class Hello(App):
        def compose(self):
            yield Static("Hello, world")

    app = Hello()
else:
    # As the `mindflayer` command does it (the folders come from the environment):
    # the garbage collector paused for the start-up, then the TUI imported and built.
    # "app-collector-on" skips the pause, to show what it is worth.
    from moderator.cli import build_parser, pause_collector_for_start_up

    if kind == "app":
        pause_collector_for_start_up()
    from moderator.tui.run import build_app

    app = build_app(build_parser().parse_args([]))
"""

#: The end of every start-up child: run `app` (headless) to its first settled frame,
#: with the time and CPU since `t0` and `c0` and the peak memory in `result`
#: (`bench/startup_floor.py` too).
TO_THE_FIRST_FRAME = r"""
import resource
result = {}

def first_frame():
    result["first_frame"] = time.perf_counter() - t0
    result["cpu"] = time.process_time() - c0
    app.exit()

async def auto_pilot(pilot):
    await pilot.pause()
    app.call_after_refresh(first_frame)

app.run(headless=True, size=(100, 32), auto_pilot=auto_pilot)
result["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""
STARTUP_CHILD += (
    TO_THE_FIRST_FRAME
    + r"""
print(json.dumps(result))
"""
)

#: A bare app for parts 2 and 3: one label, one key that changes it.
BARE_APP = r"""
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Header, Static


class Bare(App):
    BINDINGS = [Binding("n", "next", "Next")]

    def __init__(self):
        super().__init__()
        self.count = 0

    def compose(self):
        yield Header()
        yield Static("Hello, world", id="label")
        yield Footer()

    def action_next(self):
        self.count += 1
        self.query_one("#label", Static).update(f"Turn {self.count}")
"""

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def fresh_dirs(base: Path) -> dict[str, str]:
    """Data/config/cache folders under `base` and a HOME whose ALSA output is null."""
    home = base / "home"
    for name in ("data", "config", "cache", "home"):
        (base / name).mkdir(parents=True, exist_ok=True)
    (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type null }\n")
    return {
        "HOME": str(home),
        "MINDFLAYER_DATA_DIR": str(base / "data"),
        "MINDFLAYER_CONFIG_DIR": str(base / "config"),
        "MINDFLAYER_CACHE_DIR": str(base / "cache"),
    }


# --- 1. start-up and memory ----------------------------------------------------------


def startup_once(
    kind: str, home: Path, tree: Path = ROOT, program: str = STARTUP_CHILD
) -> tuple[float, float, int, float]:
    """(first frame s, process wall s, maxrss KiB, CPU s to the first frame) of one start.

    A fresh process on `home`'s folders, with its bytecode cached in `home`; it
    imports the `moderator` package of `tree` (its working folder comes first on
    `sys.path`), this tree's unless `--compare-with` names another. `program`: the
    child (`bench/startup_floor.py` starts its own with `kind` as its argument).
    """
    env = {
        **os.environ,
        **fresh_dirs(home),
        "TERM": "xterm-256color",
        "PYTHONPYCACHEPREFIX": str(home / "bytecode"),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", program, kind, str(home)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        timeout=60,
        check=False,
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{kind} start-up run failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["first_frame"], wall, result["maxrss_kib"], result["cpu"]


def bench_startup(count: int = RUNS, compare_with: Path | None = None) -> None:
    runs: dict[str, list[tuple[float, float, int, float]]] = {
        "bare": [],
        "app": [],
        "app-collector-on": [],
    }
    #: The kind each run starts, and the tree whose package it imports.
    starts = {kind: (kind, ROOT) for kind in runs}
    if compare_with is not None:
        runs["compared"] = []
        starts["compared"] = ("app", compare_with.resolve())
    with tempfile.TemporaryDirectory(prefix="bench-tui-") as tmp:
        home = Path(tmp)
        # Warm the file cache and compile the bytecode for both; the app's first start
        # also creates its database, so the measured starts open an existing one, as
        # every start but the first does.
        startup_once("bare", home)
        startup_once("app", home)
        if compare_with is not None:
            startup_once("app", home, compare_with.resolve())
        for _ in range(count):
            for name in runs:  # alternating, so a busy moment of the machine hits both
                kind, tree = starts[name]
                runs[name].append(startup_once(kind, home, tree))
    medians = {
        kind: tuple(statistics.median(r[i] for r in values) for i in range(4))
        for kind, values in runs.items()
    }
    (b_frame, b_wall, b_rss, b_cpu), (a_frame, a_wall, a_rss, a_cpu) = (
        medians["bare"],
        medians["app"],
    )
    spread = {kind: sorted(r[0] * 1000 for r in values) for kind, values in runs.items()}
    print(f"startup runs per app:                 {count} (median, alternating)")
    for kind in ("bare", "app"):
        low, high = spread[kind][0], spread[kind][-1]
        print(f"first frame range, {kind + ':':5s}              {low:5.0f} .. {high:5.0f} ms")

    print(f"first frame, bare Textual app:        {b_frame * 1000:7.0f} ms")
    print(f"first frame, mindflayer app:          {a_frame * 1000:7.0f} ms")
    print(f"first frame ratio app/bare:           {a_frame / b_frame:7.2f}")
    print(f"CPU to first frame, bare:             {b_cpu * 1000:7.0f} ms")
    print(f"CPU to first frame, app:              {a_cpu * 1000:7.0f} ms")
    print(f"CPU to first frame ratio app/bare:    {a_cpu / b_cpu:7.2f}")
    print(f"process wall (start to exit), bare:   {b_wall * 1000:7.0f} ms")
    print(f"process wall (start to exit), app:    {a_wall * 1000:7.0f} ms")
    print(f"process wall ratio app/bare:          {a_wall / b_wall:7.2f}")
    print(f"peak RSS, bare Textual app:           {b_rss / 1024:7.1f} MiB")
    print(f"peak RSS, mindflayer app:             {a_rss / 1024:7.1f} MiB")
    print(f"peak RSS ratio app/bare:              {a_rss / b_rss:7.2f}")
    c_frame, c_cpu = medians["app-collector-on"][0], medians["app-collector-on"][3]
    print(f"first frame, app, collector not paused: {c_frame * 1000:5.0f} ms")
    print(f"  ratio to bare (what the pause gives): {c_frame / b_frame:7.2f}")
    print(f"  CPU ratio to bare:                    {c_cpu / b_cpu:7.2f}")
    if compare_with is not None:
        d_frame, d_cpu = medians["compared"][0], medians["compared"][3]
        print(f"compared with the app of {compare_with}:")
        print(f"  first frame:                          {d_frame * 1000:5.0f} ms")
        print(f"  ratio to bare:                        {d_frame / b_frame:7.2f}")
        print(f"  CPU to first frame:                   {d_cpu * 1000:5.0f} ms")
        print(f"  CPU ratio to bare:                    {d_cpu / b_cpu:7.2f}")
    ratio = a_frame / b_frame
    verdict = "met" if ratio <= STARTUP_GOAL else "NOT met"
    print(
        f"START-UP RATIO (first frame, app/bare): {ratio:.2f} (goal <= {STARTUP_GOAL}: {verdict})"
    )
    cpu_ratio = a_cpu / b_cpu
    cpu_verdict = "met" if cpu_ratio <= STARTUP_GOAL else "NOT met"
    print(f"START-UP CPU RATIO (app/bare): {cpu_ratio:.2f} (goal <= {STARTUP_GOAL}: {cpu_verdict})")


# --- 2. key-to-screen latency ------------------------------------------------------------


class FrameClock:
    """When the app last finished a frame: the screen's update composed for the terminal.

    Wraps the app's `_display` (private to Textual: a bench may look where a test
    must not), which the screen calls with each composed update, headless too
    (there it writes nothing). A timed key ends with the last frame the app drew
    before it went quiet: the frame that shows the key, what a player at the
    table waits for. The waiting between is `asyncio.sleep`, not the Pilot's
    `pause`: that one calls back every widget on the screen (~30 here, 3 in the
    bare app), work the app never does at the table, and it delays the frame.
    """

    def __init__(self, app: Any) -> None:
        #: perf_counter and process_time at the end of the last frame.
        self.last = 0.0
        self.last_cpu = 0.0
        display = app._display

        def timed(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None:
                self.last, self.last_cpu = time.perf_counter(), time.process_time()

        app._display = timed


class KeyTimes:
    """The times of timed keys to their last frame, in seconds: the wall clock and the CPU."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self._started = (0.0, 0.0)
        self.clock: FrameClock | None = None

    @property
    def started(self) -> float:
        """When the timed key was pressed (perf_counter)."""
        return self._started[0]

    def start(self) -> None:
        """A timed key is pressed now."""
        self._started = (time.perf_counter(), time.process_time())

    def stop(self) -> None:
        """The screen shows the key's effect: its last frame is the key's."""
        assert self.clock is not None
        wall, cpu = self._started
        self.wall.append(self.clock.last - wall)
        self.cpu.append(self.clock.last_cpu - cpu)

    def figures(self) -> tuple[float, float, float, float]:
        """Median and p95 of the wall-clock time to the frame, then of the CPU, in ms."""
        return tuple(  # type: ignore[return-value]
            value * 1000
            for series in (self.wall, self.cpu)
            for value in (statistics.median(series), quantile(series, 0.95))
        )


async def seated_app(base: Path, pilot_run: Any) -> None:
    """The table app with PLAYERS seated and on the table screen; `pilot_run(app, pilot)` then."""
    from textual.widgets import Input, OptionList

    from moderator.cli import pause_collector_for_start_up
    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.run import make_app
    from moderator.tui.screens.table import TableScreen

    dirs = {name: base / name for name in ("data", "config", "cache")}
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    narrator = make_narrator(VoiceSettings(enabled=False), None, dirs["cache"], time_scale=0.01)
    # As the `mindflayer` command starts it: the collector paused until the first frame,
    # then one collection and a freeze (`moderator.tui.start_up`), so the keys
    # below meet the collector the table meets.
    pause_collector_for_start_up()
    app = make_app(dirs["data"], dirs["config"], dirs["cache"], None, narrator=narrator)
    async with app.run_test(size=(100, 32)) as pilot:
        app.simulate_key("n")
        await pilot.pause()
        field = app.screen.query_one("#setup-name", Input)
        for name in PLAYERS:
            field.focus()
            field.value = name
            app.simulate_key("enter")
            await pilot.pause()
        app.screen.query_one("#setup-roster", OptionList).focus()
        app.simulate_key("ctrl+s")
        await pilot.pause()
        app.simulate_key("t")  # past the reveal, to the table
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), app.screen
        await pilot_run(app, pilot)


async def until_shown(pilot: Any, shown: Any, what: str) -> None:
    """Let the app run (and draw) until `shown()` holds; a bounded number of rounds."""
    for _ in range(LAG_ROUNDS):
        await pilot.pause(0)
        if shown():
            return
    raise SystemExit(f"{what}: the screen lags the state")


#: The time between timed keys: more than a frame at 60 Hz. Textual draws a screen at most
#: once per 1/60 s (its update timer), so a key pressed right after a frame waits for the
#: next slot; at the table keys come seconds apart, and each is timed as it would be there.
KEY_GAP = 0.02


async def spaced() -> None:
    """Let a frame's time pass before the next timed key (`KEY_GAP`)."""
    await asyncio.sleep(KEY_GAP)


async def until_drawn(samples: KeyTimes, shown: Any, what: str) -> None:
    """Until `shown()` holds and the app has drawn its last frame for it, then stop the clock.

    The app is left alone (short sleeps, no Pilot): done once the state shows
    the key, a frame came after the key, and no frame has come for `QUIET`
    seconds, more than the screen's update period, so none is still pending.
    """
    clock = samples.clock
    assert clock is not None
    deadline = time.perf_counter() + LAG_SECONDS
    while time.perf_counter() < deadline:
        await asyncio.sleep(POLL)
        now = time.perf_counter()
        if shown() and clock.last > samples.started and now - clock.last >= QUIET:
            samples.stop()
            return
    raise SystemExit(f"{what}: the screen lags the state")


def tile_has(app: Any, seat: int, mark: str) -> bool:
    """Whether seat's tile on the current screen wears `mark` (`MARKS`)."""
    tiles = app.screen.query(f"#seat-{seat}")
    return bool(tiles) and mark in tiles.first().marks


async def latency_next_turn(app: Any, pilot: Any, samples: KeyTimes) -> None:
    """The table screen's next turn: saved, then the name, the turn and two tiles redrawn.

    Each key's effect is checked on screen (the current player's big name), so a
    screen that lags the state fails the bench instead of flattering it.
    """
    from moderator.tui.widgets.bigtext import BigText

    def shown() -> bool:
        state = app.controller.state
        return bool(
            app.screen.query_one("#table-current", BigText).text == state.players[state.current]
        )

    for _ in range(KEYS):
        before = app.controller.state.turn
        await spaced()
        samples.start()
        app.simulate_key("n")
        await until_drawn(
            samples, lambda was=before: app.controller.state.turn > was and shown(), "next turn"
        )


async def latency_knock_out(app: Any, pilot: Any, samples: KeyTimes) -> None:
    """A knock-out: k opens the picker (not timed); the seat's digit, until the tile shows it.

    Each knock-out is undone afterwards (not timed), so the table stays the same size.
    """
    seat = 2
    for _ in range(KNOCK_OUTS):
        app.simulate_key("k")
        await until_shown(pilot, lambda: app.screen.asking, "picker")
        await pilot.pause()  # the picker drawn and idle: only the digit is timed
        await spaced()
        samples.start()
        app.simulate_key(str(seat + 1))
        await until_drawn(
            samples,
            lambda: tile_has(app, seat, "knocked-out") and not app.screen.asking,
            "knock-out",
        )
        app.simulate_key("u")
        await until_shown(pilot, lambda: not tile_has(app, seat, "knocked-out"), "undo")


async def latency_sit_out(app: Any, pilot: Any, samples: KeyTimes) -> None:
    """In a Meeting, a seat's digit toggles whether it sits out: saved, its tile and the chart."""
    from moderator.tui.screens.meeting import MeetingScreen

    app.simulate_key("m")
    await until_shown(pilot, lambda: isinstance(app.screen, MeetingScreen), "meeting")
    await pilot.pause()  # the new screen mounted and idle: its keys are its own
    seat = 2
    # Once in and out, not timed.
    for sitting in (True, False):
        app.simulate_key(str(seat + 1))
        await until_shown(
            pilot, lambda want=sitting: tile_has(app, seat, "sitting-out") is want, "toggle"
        )
    for count in range(KEYS):
        sitting = count % 2 == 0
        await spaced()
        samples.start()
        app.simulate_key(str(seat + 1))
        # Until the tile shows it and the app drew its last frame (the Meeting's
        # captions may queue their lines to the app meanwhile).
        await until_drawn(
            samples,
            lambda want=sitting: tile_has(app, seat, "sitting-out") is want,
            "toggle",
        )
        meeting = app.controller.state.meeting
        assert (seat in meeting.sitting_out) is sitting, "the tile shows what the table did not do"


async def latency_app(base: Path) -> dict[str, KeyTimes]:
    samples = {name: KeyTimes() for name in LATENCY_KEYS}

    async def measure(app: Any, pilot: Any) -> None:
        clock = FrameClock(app)
        for times in samples.values():
            times.clock = clock
        await latency_next_turn(app, pilot, samples["next turn"])
        await latency_knock_out(app, pilot, samples["knock-out"])
        await latency_sit_out(app, pilot, samples["Meeting toggle"])

    await seated_app(base, measure)
    return samples


async def latency_bare(keys: int, samples: KeyTimes) -> None:
    namespace: dict[str, object] = {}
    exec(BARE_APP, namespace)  # our own constant, shared with the tmux run
    app = namespace["Bare"]()  # type: ignore[operator]
    async with app.run_test(size=(100, 32)) as pilot:  # type: ignore[attr-defined]
        await pilot.pause()
        samples.clock = FrameClock(app)
        for count in range(1, keys + 1):
            await spaced()
            samples.start()
            app.simulate_key("n")  # type: ignore[attr-defined]
            await until_drawn(samples, lambda want=count: app.count >= want, "bare")  # type: ignore[attr-defined]


def bench_latency() -> None:
    # The bare app runs before and after the table app: a busy moment of the
    # machine weighs on both.
    bare = KeyTimes()
    asyncio.run(latency_bare(KEYS // 2, bare))
    with tempfile.TemporaryDirectory(prefix="bench-tui-") as tmp:
        app = asyncio.run(latency_app(Path(tmp)))
    asyncio.run(latency_bare(KEYS // 2, bare))
    print(f"key-to-screen keys per action:        {KEYS} (knock-outs: {KNOCK_OUTS})")
    print("  from the key to the last frame drawn for it (what the table sees): the wall")
    print("  clock, then the CPU time of the process (it moves less on a busy machine)")
    b = bare.figures()
    print(
        f"key-to-screen, bare app:              median {b[0]:6.2f} ms  p95 {b[1]:6.2f} ms"
        f"  CPU median {b[2]:5.2f} ms  p95 {b[3]:5.2f} ms"
    )
    for name, times in app.items():
        a = times.figures()
        verdict = "met" if a[1] <= LATENCY_GOAL_MS else "NOT met"
        print(
            f"key-to-screen, {name + ':':22s} median {a[0]:6.2f} ms  p95 {a[1]:6.2f} ms"
            f"  CPU median {a[2]:5.2f} ms  p95 {a[3]:5.2f} ms"
        )
        print(
            f"  ratio to bare:                      median {a[0] / b[0]:6.2f}     "
            f"p95 {a[1] / b[1]:6.2f}     CPU median {a[2] / b[2]:5.2f}     "
            f"p95 {a[3] / b[3]:5.2f}   (p95 <= {LATENCY_GOAL_MS:.0f} ms: {verdict})"
        )


# --- 3. idle CPU in a real terminal ------------------------------------------------------------


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def bench_idle() -> None:
    tmux = shutil.which("tmux")
    if tmux is None:
        print("idle CPU:                             skipped (tmux is not installed)")
        return
    socket = f"bench-tui-{os.getpid()}-{uuid.uuid4().hex[:6]}"

    def run(*args: str) -> str:
        return subprocess.run(
            [tmux, "-L", socket, *args], capture_output=True, text=True, timeout=10, check=True
        ).stdout

    def wait_for(target: str, text: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in run("capture-pane", "-p", "-t", target):
                return
            time.sleep(0.05)
        screen = run("capture-pane", "-p", "-t", target)
        raise SystemExit(f"{target}: {text!r} not on screen:\n{screen}")

    with tempfile.TemporaryDirectory(prefix="bench-tui-") as tmp:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            **fresh_dirs(Path(tmp)),
        }
        bare_script = Path(tmp) / "bare.py"
        bare_script.write_text(BARE_APP + "\nBare().run()\n")
        mindflayer = Path(sys.executable).parent / "mindflayer"
        try:
            subprocess.run(
                [
                    tmux,
                    "-L",
                    socket,
                    "-f",
                    "/dev/null",
                    "new-session",
                    "-d",
                    "-s",
                    "app",
                    "-x",
                    "100",
                    "-y",
                    "32",
                    str(mindflayer),
                ],
                env=env,
                check=True,
                timeout=10,
            )
            run(
                "new-session",
                "-d",
                "-s",
                "bare",
                "-x",
                "100",
                "-y",
                "32",
                sys.executable,
                str(bare_script),
            )
            wait_for("app", "New series (n)")
            run("send-keys", "-t", "app", "n")
            wait_for("app", "players seated")
            for name in PLAYERS[:4]:
                run("send-keys", "-t", "app", "-l", name)
                run("send-keys", "-t", "app", "Enter")
            wait_for("app", "4. Dee")
            run("send-keys", "-t", "app", "C-s")
            wait_for("app", "Seat 1: your turn")
            wait_for("bare", "Hello, world")
            time.sleep(2.0)  # let start-up work (speech warm-up) finish before measuring
            pids = {
                name: int(run("display-message", "-p", "-t", name, "#{pane_pid}").strip())
                for name in ("bare", "app")
            }
            ticks = os.sysconf("SC_CLK_TCK")
            before = {name: cpu_ticks(pid) for name, pid in pids.items()}
            started = time.monotonic()
            time.sleep(IDLE_SECONDS)
            elapsed = time.monotonic() - started
            after = {name: cpu_ticks(pid) for name, pid in pids.items()}
            wait_for("app", "Seat 1: your turn", timeout=1.0)  # still on the table screen
        finally:
            subprocess.run([tmux, "-L", socket, "kill-server"], capture_output=True, check=False)
    usage = {name: (after[name] - before[name]) / ticks / elapsed * 100 for name in ("bare", "app")}
    print(f"idle CPU over {elapsed:.0f} s in tmux, bare app:    {usage['bare']:6.2f} %")
    print(f"idle CPU over {elapsed:.0f} s in tmux, table screen: {usage['app']:6.2f} %")
    if usage["bare"] > 0:
        print(f"idle CPU ratio app/bare:              {usage['app'] / usage['bare']:6.2f}")
    else:
        print("idle CPU ratio app/bare:              n/a (the bare app used no measurable CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description="TUI bench: the app against a bare Textual app.")
    parser.add_argument("--startup-only", action="store_true", help="run part 1 alone")
    parser.add_argument("--latency-only", action="store_true", help="run part 2 alone")
    parser.add_argument("--runs", type=int, default=RUNS, help="start-ups per app (at least 7)")
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="part 1 also starts the app of the moderator package in DIR, alternating "
        "(e.g. `git archive main moderator | tar -x -C DIR`): a before/after in one run",
    )
    options = parser.parse_args()
    if options.runs < 7:
        parser.error("--runs must be at least 7 (the medians need them)")
    started = time.monotonic()
    print(f"python {sys.version.split()[0]}, textual {textual_version()}")
    if options.latency_only:
        bench_latency()
    else:
        bench_startup(options.runs, options.compare_with)
    if not (options.startup_only or options.latency_only):
        bench_latency()
        bench_idle()
    print(f"bench_tui total:                      {time.monotonic() - started:7.1f} s")


def textual_version() -> str:
    from importlib.metadata import version

    return version("textual")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
