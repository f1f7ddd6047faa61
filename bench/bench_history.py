"""History bench: a long score database (5,000 and 20,000 games) against an empty one.

The databases are built once per run, in a temp folder, through the storage API
(`Store.new_series`, `new_game`, `SavedGame.record`: the same rows, log entries and
caches as a table's evening). To build 20,000 games in seconds instead of
minutes, the build's connection runs `synchronous = OFF` (a connection factory, the
hook tests use for faults): what is written is the same, only the fsyncs are
skipped. Each game: 4 players, two knock-outs, the results (4 log entries); a few
kinds of series again and again, as a table that plays one roster gives (`--varied`:
random results instead, hardly two series alike).

1. Start-up to the first frame, as `bench_tui.py` measures it (fresh processes,
   headless, exit after the first settled frame; alternating), with each
   database against the empty one: the ratio, goal <= 1.05.
2. `mindflayer history` and each export (`--csv`, `--json`, `--bgstats`) in a
   fresh process, wall and CPU time; the empty database's in the same run as
   the baseline (the ratio). Goal at 20,000 games: < 0.5 s of work (CPU time
   over the empty database's, which is Python's start and the imports).
3. The History dialog (Pilot, in process, sizes alternating): from the `h` key to
   its first paint (the "Reading the history…" frame: the UI is free) and to the
   tables filled in, each with its ratio to the empty database's.

Run: `make bench`, or
`.venv/bin/python bench/bench_history.py [--runs N] [--games N ...] [--startup-only]
[--no-startup] [--no-commands] [--no-dialog] [--varied] [--compare-with DIR]`; DIR holds another
revision's `moderator` package (`git archive REV moderator | tar -x -C DIR`), whose
commands and History dialog are timed alternately with this tree's (the dialog then
in a fresh process per run and tree): a before/after in one run, on the same databases.
Not a test: the numbers depend on the machine (2 shared cores here).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_tui import ROOT, fresh_dirs, startup_once

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import DATABASE_NAME, Store

SIZES = (5_000, 20_000)
RUNS = 7
STARTUP_GOAL = 1.05
COMMAND_GOAL = 0.5
#: The History dialog's first paint against the baseline's (`--compare-with`).
DIALOG_GOAL = 1.2
PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
COMMANDS = {
    "history": (),
    "--csv": ("--csv", "export.csv"),
    "--json": ("--json", "export.json"),
    "--bgstats": ("--bgstats", "plays.json"),
}


class NoSync(sqlite3.Connection):
    """The build's connection: `synchronous = OFF` instead of FULL (no fsync per action)."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA synchronous"):
            sql = "PRAGMA synchronous = OFF"
        return super().execute(sql, *args)


def build(folder: Path, games: int, varied: bool = False) -> float:
    """`games` games (3 per series) through the storage API; the seconds it took.

    `varied`: random first players, knock-outs, teams and waffles (seeded), so that
    hardly two series have the same results: the history's texts made once per kind
    of series (`history_rows`) are then made once per series.
    """
    rng = random.Random(7)
    started = time.perf_counter()
    with Store.open(folder, connection_factory=NoSync) as store:
        series = 0
        for index in range(games):
            if index % 3 == 0:
                series = store.new_series()
            if varied:
                game = store.new_game(series, PLAYERS, rng.randrange(4))
                knocked_out = rng.sample(range(4), 2)
                possessed = tuple(sorted(rng.sample(range(4), rng.randint(1, 2))))
                results = ResultsDeclared(possessed, tuple(rng.randint(0, 3) for _ in range(4)))
            else:
                game = store.new_game(series, PLAYERS, index % 4)
                knocked_out = [2, 3]
                results = ResultsDeclared((index % 2,), (1, 0, 2, index % 3))
            for seat in knocked_out:
                game.record(PlayerKnockedOut(seat))
            game.record(results)
    return time.perf_counter() - started


def home_with(base: Path, name: str, database: Path) -> Path:
    """A home for `bench_tui.startup_once` whose data folder holds a copy of `database`."""
    home = base / name
    fresh_dirs(home)
    shutil.copy2(database / DATABASE_NAME, home / "data" / DATABASE_NAME)
    return home


# --- 1. start-up ---------------------------------------------------------------------


def bench_startup(homes: dict[str, Path], runs: int) -> None:
    frames: dict[str, list[float]] = {name: [] for name in homes}
    for home in homes.values():
        startup_once("app", home)  # bytecode, file cache; the empty one creates its database
    for _ in range(runs):
        for name, home in homes.items():  # alternating: a busy moment hits every size
            frames[name].append(startup_once("app", home)[0])
    empty = statistics.median(frames["empty"])
    print(f"start-up runs per database:           {runs} (median, alternating)")
    print(f"first frame, empty database:          {empty * 1000:7.0f} ms")
    for name, samples in frames.items():
        if name == "empty":
            continue
        ratio = statistics.median(samples) / empty
        verdict = "met" if ratio <= STARTUP_GOAL else "NOT met"
        print(
            f"first frame, {name + ':':24s} {statistics.median(samples) * 1000:7.0f} ms  "
            f"ratio {ratio:5.2f} (goal <= {STARTUP_GOAL}: {verdict})"
        )


# --- 2. the history command -------------------------------------------------------------


def children_cpu() -> float:
    """User + system seconds of the finished children (NaN where `resource` is missing)."""
    if sys.platform == "win32":
        return float("nan")  # no `resource` module there; the wall time still is
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_once(
    data: Path, options: tuple[str, ...], out: Path, tree: Path = ROOT
) -> tuple[float, float]:
    """(wall, CPU) seconds of `python -m moderator --data-dir DATA history OPTIONS`.

    The CPU time (user + system, of the child alone) moves less than the wall
    time when the machine is busy: the wall time includes the waits for a core.
    """
    paths = tuple(str(out / o) if o.endswith(".csv") or o.endswith(".json") else o for o in options)
    before = children_cpu()
    started = time.perf_counter()
    with (out / "stdout.txt").open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "moderator", "--data-dir", str(data), "history", *paths],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tree,  # `-m moderator` runs the package of this folder
            timeout=300,
            check=False,
        )
    wall = time.perf_counter() - started
    cpu = children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"history {' '.join(options)} failed:\n{done.stderr[-2000:]}")
    return wall, cpu


def bench_commands(
    datas: dict[str, Path], base: Path, runs: int, baseline: Path | None = None
) -> None:
    out = base / "out"
    out.mkdir()
    trees = {"": ROOT} if baseline is None else {"": ROOT, " (baseline)": baseline}
    print(f"history command runs:                 {runs} (median, fresh processes)")
    print("  each: wall ms / CPU ms; x = ratio to the empty database's; work = CPU - empty's CPU")
    if baseline is not None:
        print(f"  (baseline) = the code in {baseline}, run alternately with this tree's")
    for command, options in COMMANDS.items():
        times: dict[tuple[str, str], list[tuple[float, float]]] = {
            (label, name): [] for label in trees for name in datas
        }
        for _ in range(runs):
            for name, data in datas.items():
                for label, tree in trees.items():  # alternating: a busy moment hits both
                    times[label, name].append(command_once(data, options, out, tree))
        for label in trees:
            print(_command_line(command + label, {n: times[label, n] for n in datas}))
    print(f"  goal: at the largest size, the work < {COMMAND_GOAL * 1000:.0f} ms")


def _command_line(command: str, times: dict[str, list[tuple[float, float]]]) -> str:
    wall0 = statistics.median(t[0] for t in times["empty"])
    cpu0 = statistics.median(t[1] for t in times["empty"])
    line = f"  {command:10s} empty {wall0 * 1000:4.0f}/{cpu0 * 1000:4.0f}"
    for name, samples in times.items():
        if name == "empty":
            continue
        wall = statistics.median(t[0] for t in samples)
        cpu = statistics.median(t[1] for t in samples)
        line += (
            f" | {name} {wall * 1000:5.0f}/{cpu * 1000:5.0f} "
            f"(x{wall / wall0:4.2f}, work {(cpu - cpu0) * 1000:4.0f})"
        )
    return line


# --- 3. the History dialog ---------------------------------------------------------------


async def dialog_once(data: Path, base: Path) -> tuple[float, float]:
    """(key to first paint, key to the tables filled in) in seconds, the app on `data`."""
    from textual.widgets import Static

    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.dialogs.history import HistoryScreen
    from moderator.tui.run import make_app

    dirs = {name: base / name for name in ("config", "cache")}
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    narrator = make_narrator(VoiceSettings(enabled=False), None, dirs["cache"], time_scale=0.01)
    app = make_app(data, dirs["config"], dirs["cache"], None, narrator=narrator)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        started = time.perf_counter()
        app.simulate_key("h")
        while not isinstance(app.screen, HistoryScreen):  # the intent goes through the app
            await pilot.pause(0)
        screen = app.screen
        await pilot.pause(0)  # the dialog's first refresh
        painted = time.perf_counter() - started
        loading = screen.query_one("#history-loading", Static)
        while loading.display:  # the worker may start after the first paint
            await app.workers.wait_for_complete([w for w in app.workers if w.node is screen])
            await pilot.pause()
        filled = time.perf_counter() - started
    return painted, filled


def dialog_in(tree: Path, data: Path, folder: Path) -> tuple[float, float]:
    """`dialog_once` in a fresh process running the `moderator` package in `tree`."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), "--dialog-once", str(data), str(folder)],
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        cwd=tree,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the dialog in {tree} failed:\n{done.stderr[-2000:]}")
    painted, filled = done.stdout.split()[-2:]
    return float(painted), float(filled)


def bench_dialog(
    datas: dict[str, Path], base: Path, runs: int, baseline: Path | None = None
) -> None:
    """Key to first paint and to the tables; with `baseline`, each run in a fresh
    process per tree, alternating (a before/after in one run: issue 37's goal is the
    first paint at 20,000 games within 1.2x of the baseline's)."""
    trees = {"": ROOT} if baseline is None else {"": ROOT, " (baseline)": baseline}
    where = "in process" if baseline is None else "a fresh process each, trees alternating"
    print(f"History dialog runs:                  {runs} (median, Pilot, {where})")
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {
        (label, name): [] for label in trees for name in datas
    }
    for i in range(runs):
        for name, data in datas.items():  # alternating: a busy moment hits every size
            for label, tree in trees.items():
                folder = base / f"dialog-{name.replace(' ', '-').replace(',', '')}-{i}-{len(label)}"
                if baseline is None:
                    samples[label, name].append(asyncio.run(dialog_once(data, folder)))
                else:
                    samples[label, name].append(dialog_in(tree, data, folder))
    for label in trees:
        painted0 = statistics.median(s[0] for s in samples[label, "empty"])
        filled0 = statistics.median(s[1] for s in samples[label, "empty"])
        for name in datas:
            found = samples[label, name]
            painted = statistics.median(s[0] for s in found)
            filled = statistics.median(s[1] for s in found)
            print(
                f"  {name + label + ':':33s} key to first paint {painted * 1000:6.1f} ms "
                f"(x{painted / painted0:4.2f}), to the tables {filled * 1000:7.1f} ms "
                f"(x{filled / filled0:5.2f}); x = ratio to the empty database's"
            )
    if baseline is not None:
        for name in datas:
            ours = statistics.median(s[0] for s in samples["", name])
            theirs = statistics.median(s[0] for s in samples[" (baseline)", name])
            verdict = "met" if ours <= DIALOG_GOAL * theirs else "NOT met"
            print(
                f"  first paint, {name}: this tree / baseline = {ours / theirs:4.2f} "
                f"(goal <= {DIALOG_GOAL}: {verdict})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per measure (default 7)")
    parser.add_argument("--games", type=int, nargs="+", default=list(SIZES), help="sizes")
    parser.add_argument("--startup-only", action="store_true", help="part 1 only")
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="also time the commands with the package in DIR (e.g. `git archive` of main)",
    )
    parser.add_argument("--no-dialog", action="store_true", help="skip part 3")
    parser.add_argument("--no-startup", action="store_true", help="skip part 1")
    parser.add_argument("--no-commands", action="store_true", help="skip part 2")
    parser.add_argument(
        "--varied", action="store_true", help="random results: hardly two series alike"
    )
    parser.add_argument("--dialog-once", nargs=2, type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.dialog_once:  # one dialog run for `dialog_in` (its tree on PYTHONPATH)
        painted, filled = asyncio.run(dialog_once(*options.dialog_once))
        print(painted, filled)
        return
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        base = Path(tmp)
        datas: dict[str, Path] = {"empty": base / "db-empty"}
        Store.open(datas["empty"]).close()
        for games in options.games:
            name = f"{games:,} games"
            datas[name] = base / f"db-{games}"
            seconds = build(datas[name], games, options.varied)
            print(
                f"built {name} through the Store API in {seconds:5.1f} s (synchronous=OFF"
                f"{', varied results' if options.varied else ''})"
            )
        homes = {
            name: home_with(base, f"home-{name.replace(' ', '-').replace(',', '')}", data)
            for name, data in datas.items()
        }
        if not options.no_startup:
            bench_startup(homes, options.runs)
        if not options.startup_only:
            if not options.no_commands:
                bench_commands(datas, base, options.runs, options.compare_with)
            if not options.no_dialog:
                bench_dialog(datas, base, max(3, options.runs // 2), options.compare_with)
    print(f"bench_history total:                  {time.monotonic() - started:7.1f} s")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
