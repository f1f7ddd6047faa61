"""How long one table action takes to commit, compared with a bare INSERT + COMMIT.

`Store.record` checks the action with the domain, writes the log row in its own
`BEGIN IMMEDIATE … COMMIT` with WAL and synchronous=FULL (an fsync per action),
then applies it in memory. The baseline is the same row inserted into the same
table shape with the same pragmas, in the same run, interleaved action by action
so both see the same disk. Prints the median and 99th percentile of each and
their ratio. Not a test: the numbers depend on the disk.

Run: `make bench`, or `.venv/bin/python bench/bench_storage.py [--actions N] [--dir DIR]`.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from measuring import percentile

from moderator.domain import TurnPassed
from moderator.storage import Store
from moderator.storage.database import configure, connect
from moderator.storage.saved_game import entry_text

PLAYERS = ["Ann", "Bob", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
WARM_UP = 20


def run(actions: int, folder: Path) -> tuple[list[float], list[float]]:
    """Interleave `actions` store commits and bare commits; return both in milliseconds."""
    store_ms: list[float] = []
    bare_ms: list[float] = []
    with Store.open(folder / "store") as store:
        game = store.new_game(store.new_series(), PLAYERS, 0)
        bare = connect(folder / "bare.sqlite3")
        configure(bare)
        bare.execute(
            "CREATE TABLE log (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
            "at TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
        )
        row_text = entry_text(TurnPassed())
        at = "2026-03-14T19:00:00+00:00"
        for index in range(WARM_UP + actions):
            start = time.perf_counter()
            game.record(TurnPassed())
            middle = time.perf_counter()
            bare.execute("BEGIN IMMEDIATE")
            bare.execute("INSERT INTO log VALUES (1, ?, ?, ?)", (index + 2, at, row_text))
            bare.execute("COMMIT")
            end = time.perf_counter()
            if index >= WARM_UP:
                store_ms.append((middle - start) * 1000)
                bare_ms.append((end - middle) * 1000)
        bare.close()
    return store_ms, bare_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="timed actions (default 1000)")
    parser.add_argument("--dir", type=Path, default=None, help="folder on the disk to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-storage-") as tmp:
        store_ms, bare_ms = run(args.actions, Path(tmp))
        where = tmp
    store_med, store_p99 = statistics.median(store_ms), percentile(store_ms, 0.99)
    bare_med, bare_p99 = statistics.median(bare_ms), percentile(bare_ms, 0.99)
    print(f"storage: {args.actions} actions, WAL + synchronous=FULL, in {Path(where).parent}")
    print(f"  Store.record (one action): median {store_med:.3f} ms, p99 {store_p99:.3f} ms")
    print(f"  bare INSERT + COMMIT:      median {bare_med:.3f} ms, p99 {bare_p99:.3f} ms")
    print(
        f"  ratio record / bare:       median {store_med / bare_med:.2f}x, "
        f"p99 {store_p99 / bare_p99:.2f}x"
    )


if __name__ == "__main__":
    main()
