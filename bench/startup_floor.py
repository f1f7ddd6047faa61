"""How low the start-up can go with the same start screen: the floor under bench_tui's ratio.

`bench/bench_tui.py --startup-only` puts the app's first frame against a bare
Textual app's. This bench asks what part of the app's extra time its first
frame cannot do without, as long as the first frame is the start screen the
table knows: it starts, alternately with the bare app and the real command,
minimal apps that draw that screen's own widgets (`TitleBar`, `BigText`, the
sentence, `ChoiceList`, `KeyBar`) with the app's stylesheet (`app.tcss`) and
nothing else of ours:

- "screen": the widgets alone (no command line, no language choice, no store);
- "+command": and the command's own work before them (the argument parser in the
  table's language, the collector paused as `mindflayer` pauses it);
- "+store": and the score database opened and asked for the unfinished series
  (what the screen's Resume line and focus are made from).

Each figure is the median of N fresh processes (headless, compiled bytecode,
an existing database), as bench_tui measures: time and CPU to the first
frame, and the ratios to the bare app. What no reshaping of the app can remove
is the last line's ratio: everything else the app loads before its first frame
(the table controller, the screens' machinery, the narration's settings) could
load after it.

Run: `.venv/bin/python bench/startup_floor.py [--runs N]` (about a minute).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_tui import STARTUP_CHILD, STARTUP_GOAL, TO_THE_FIRST_FRAME, startup_once

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15

#: A child that draws the start screen's widgets in a minimal app (see the module).
FLOOR_CHILD = r"""
import time
t0 = time.perf_counter()
c0 = time.process_time()
import json, sys
from pathlib import Path

kind = sys.argv[1]
from textual.app import App
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

found = False
if kind in ("command", "store"):
    from moderator.cli import build_parser, pause_collector_for_start_up

    pause_collector_for_start_up()
    build_parser().parse_args([])
if kind == "store":
    from moderator import paths
    from moderator.storage import Store

    store = Store.open(paths.data_dir(None), check_integrity=False)
    found = store.unfinished() is not None

import moderator.tui
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.choice import Choice, ChoiceList
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.title_bar import TitleBar

# The start screen's keys and choices, as `moderator.tui.screens.start` has them.
CHOICES = (
    Choice("start-resume", "Resume (c)", "success"),
    Choice("start-new", "New series (n)", "primary"),
    Choice("start-history", "History (h)"),
    Choice("start-settings", "Settings (F2)"),
    Choice("start-help", "Help (F1)"),
    Choice("start-quit", "Quit (q)", "error"),
)


class Start(Screen):
    AUTO_FOCUS = "#start-choices"
    BINDINGS = [
        Binding("c", "resume", "Resume", id="resume"),
        Binding("n", "new_series", "New series", id="new-series"),
        Binding("h", "history", "History", id="history"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def compose(self):
        yield TitleBar()
        with Vertical(id="start-box"):
            yield BigText("MIND FLAYER", id="start-title")
            yield Static("", id="start-unfinished", markup=False)
            yield ChoiceList(
                CHOICES,
                hidden=() if found else ("start-resume",),
                highlighted="start-resume" if found else "start-new",
                id="start-choices",
            )
        yield KeyBar(first=("help",))


class Floor(App):
    TITLE = "Mind Flayer moderator"
    CSS_PATH = Path(moderator.tui.__file__).parent / "app.tcss"

    def get_default_screen(self):
        return Start()


app = Floor()
"""
FLOOR_CHILD += (
    TO_THE_FIRST_FRAME
    + r"""
# After the measure: the copy above must still be the start screen's (else say so and fail).
from moderator.tui.screens.start import StartScreen

keys = lambda bindings: [(b.key, b.action, b.id) for b in bindings]
if tuple(CHOICES) != tuple(StartScreen.CHOICES) or keys(Start.BINDINGS) != keys(
    StartScreen.BINDINGS
):
    sys.exit("bench/startup_floor.py: its copy of the start screen's choices or keys is stale")
print(json.dumps(result))
"""
)

#: What each start runs: (child program, its argument).
KINDS = {
    "bare": (STARTUP_CHILD, "bare"),
    "app": (STARTUP_CHILD, "app"),
    "screen": (FLOOR_CHILD, "screen"),
    "+command": (FLOOR_CHILD, "command"),
    "+store": (FLOOR_CHILD, "store"),
}


def start_once(kind: str, home: Path) -> tuple[float, float]:
    """(first frame s, CPU s to it) of one fresh start of `kind` on `home`'s folders."""
    program, argument = KINDS[kind]
    frame, _wall, _rss, cpu = startup_once(argument, home, ROOT, program)
    return frame, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="starts of each (at least 7)")
    options = parser.parse_args()
    if options.runs < 7:
        parser.error("--runs must be at least 7 (the medians need them)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        home = Path(tmp)
        for kind in KINDS:  # bytecode compiled, database made: not measured
            start_once(kind, home)
        runs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in KINDS}
        for _ in range(options.runs):
            for kind in KINDS:  # alternating: a busy moment of the machine hits all
                runs[kind].append(start_once(kind, home))
    frame = {kind: statistics.median(r[0] for r in values) for kind, values in runs.items()}
    cpu = {kind: statistics.median(r[1] for r in values) for kind, values in runs.items()}
    print(f"starts of each: {options.runs} (medians, alternating); goal {STARTUP_GOAL}x")
    print(f"{'':10s} {'first frame':>12s} {'ratio':>6s} {'CPU':>8s} {'ratio':>6s}")
    for kind in KINDS:
        print(
            f"{kind:10s} {frame[kind] * 1000:9.0f} ms {frame[kind] / frame['bare']:6.2f}"
            f" {cpu[kind] * 1000:5.0f} ms {cpu[kind] / cpu['bare']:6.2f}"
        )
    print(f"startup_floor total: {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
