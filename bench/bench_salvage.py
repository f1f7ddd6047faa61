"""How much of a damaged score database the salvage gives back, and how long it takes.

A database of 5,000 games (3 per series, each a start, two knock-outs and its
results) is built through the storage API; then one 4 KiB page is overwritten
with random bytes at each of 20 places, spread evenly over the pages that hold
table rows. The salvage (`database.recover`: `REINDEX` on a copy, then every row
that still reads copied into a fresh file) runs on a copy of the damaged file.

- Rows readable: every row of the intact database that can still be read from
  the damaged file when it is asked for by its key (the keys come from the intact
  copy: an oracle the salvage does not have).
- Rows recovered: those readable rows found, identical, in the salvaged file.
  A game's actions after a damaged stretch of its log read but are not copied
  (they cannot be replayed without the lost one): they are the difference.
- Time: the salvage against a same-run baseline, the SQLite backup API copying
  the intact database into a fresh file (every page read and written once).

Run: `make bench`, or `.venv/bin/python bench/bench_salvage.py [--games N] [--places N]`.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench_history import NoSync

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.storage import DATABASE_NAME, Store
from moderator.storage.database import recover

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
PAGE = 4096
RUNS = 3
#: Each table's rows as compared: by content, players by name (ids may be renumbered).
ROWS = {
    "meta": "SELECT key, value FROM meta",
    "series": "SELECT id, started_at, abandoned_at FROM series",
    "games": "SELECT * FROM games",
    "players": "SELECT name FROM players",
    "game_players": (
        "SELECT s.game_id, s.seat, p.name FROM game_players s JOIN players p ON p.id = s.player_id"
    ),
    "renames": "SELECT * FROM renames",
    "log": "SELECT * FROM log",
}
#: How one row is asked for alone, by the key it had in the intact file.
PROBES = {
    "meta": ("SELECT key, value FROM meta WHERE key = ?", "SELECT key FROM meta"),
    "series": (
        "SELECT id, started_at, abandoned_at FROM series WHERE id = ?",
        "SELECT id FROM series",
    ),
    "games": ("SELECT * FROM games WHERE id = ?", "SELECT id FROM games"),
    "players": ("SELECT name FROM players WHERE id = ?", "SELECT id FROM players"),
    "game_players": (
        "SELECT s.game_id, s.seat, p.name FROM game_players s JOIN players p "
        "ON p.id = s.player_id WHERE s.game_id = ? AND s.seat = ?",
        "SELECT game_id, seat FROM game_players",
    ),
    "renames": (
        "SELECT * FROM renames WHERE game_id = ? AND old_name = ?",
        "SELECT game_id, old_name FROM renames",
    ),
    "log": ("SELECT * FROM log WHERE game_id = ? AND seq = ?", "SELECT game_id, seq FROM log"),
}


def build(folder: Path, games: int) -> Path:
    """`games` games, 3 per series, through the storage API; the database's path."""
    rng = random.Random(33)
    with Store.open(folder, connection_factory=NoSync) as store:
        series = 0
        for index in range(games):
            if index % 3 == 0:
                series = store.new_series()
            game = store.new_game(series, PLAYERS, rng.randrange(4))
            for seat in rng.sample(range(4), 2):
                game.record(PlayerKnockedOut(seat))
            possessed = tuple(sorted(rng.sample(range(4), rng.randint(1, 2))))
            game.record(ResultsDeclared(possessed, tuple(rng.randint(0, 3) for _ in range(4))))
    return folder / DATABASE_NAME


def connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def table_leaves(path: Path) -> list[int]:
    """The leaf pages that hold table rows (not index entries), in file order."""
    conn = connect_ro(path)
    try:
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        return [
            int(pageno)
            for name, pageno in conn.execute(
                "SELECT name, pageno FROM dbstat WHERE pagetype = 'leaf' ORDER BY pageno"
            )
            if name in tables
        ]
    finally:
        conn.close()


def damage(path: Path, places: int, seed: int = 1) -> list[int]:
    """One page overwritten with random bytes at each of `places` evenly spread places."""
    leaves = table_leaves(path)
    chosen = [
        leaves[(index * len(leaves)) // places + len(leaves) // (2 * places)]
        for index in range(places)
    ]
    rng = random.Random(seed)
    with path.open("r+b") as file:
        for page in chosen:
            file.seek((page - 1) * PAGE)
            file.write(rng.randbytes(PAGE))
    return chosen


def contents(path: Path) -> dict[str, set[tuple[object, ...]]]:
    conn = connect_ro(path)
    try:
        return {table: set(conn.execute(sql)) for table, sql in ROWS.items()}
    finally:
        conn.close()


def readable(intact: Path, damaged: Path) -> dict[str, set[tuple[object, ...]]]:
    """Every row of `intact` that reads from `damaged` when asked for by its key."""
    keys_from = connect_ro(intact)
    conn = connect_ro(damaged)
    found: dict[str, set[tuple[object, ...]]] = {}
    try:
        for table, (probe, keys) in PROBES.items():
            found[table] = set()
            for key in keys_from.execute(keys).fetchall():
                try:
                    row = conn.execute(probe, key).fetchone()
                except sqlite3.DatabaseError:
                    continue
                if row is not None:
                    found[table].add(tuple(row))
    finally:
        keys_from.close()
        conn.close()
    return found


def timed_salvage(damaged: Path, work: Path) -> tuple[float, str, Path]:
    """The salvage of a copy of `damaged` in `work`: seconds, its sentence, the file."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    target = work / DATABASE_NAME
    shutil.copyfile(damaged, target)
    start = time.perf_counter()
    sentence = recover(target, datetime.now(UTC), "benchmark")
    return time.perf_counter() - start, sentence, target


def timed_backup(intact: Path, work: Path) -> float:
    """The baseline: the backup API copying the intact database into a fresh file."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    source = connect_ro(intact)
    target = sqlite3.connect(work / "copy.sqlite3")
    start = time.perf_counter()
    source.backup(target)
    elapsed = time.perf_counter() - start
    source.close()
    target.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games in the database")
    parser.add_argument("--places", type=int, default=20, help="pages overwritten")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-salvage-") as tmp:
        base = Path(tmp)
        intact = build(base / "intact", args.games)
        damaged = base / "damaged.sqlite3"
        shutil.copyfile(intact, damaged)
        pages = damage(damaged, args.places)
        original = contents(intact)
        still = readable(intact, damaged)
        salvage_s, backup_s = [], []
        sentence, salvaged = "", damaged
        for _ in range(RUNS):
            backup_s.append(timed_backup(intact, base / "backup"))
            seconds, sentence, salvaged = timed_salvage(damaged, base / "salvage")
            salvage_s.append(seconds)
        got = contents(salvaged)
    total = sum(len(rows) for rows in original.values())
    readable_rows = sum(len(rows) for rows in still.values())
    recovered = sum(len(still[table] & got[table]) for table in still)
    extra = sum(len((got[table] & original[table]) - still[table]) for table in still)
    print(
        f"salvage: {args.games} games, {total} rows, one {PAGE}-byte page overwritten at "
        f"{args.places} places (pages {pages[0]}..{pages[-1]})"
    )
    print(
        f"  rows readable by key:  {readable_rows} of {total} "
        f"({total - readable_rows} on the damaged pages)"
    )
    print(
        f"  rows recovered:        {recovered} of {readable_rows} readable "
        f"({100 * recovered / readable_rows:.2f}%)"
    )
    for table in still:
        missed = len(still[table] - got[table])
        if missed:
            print(f"    {table}: {missed} readable rows not recovered")
    if extra:
        print(f"  rows rebuilt beyond the readable ones (seating from the log): {extra}")
    salvage_med, backup_med = statistics.median(salvage_s), statistics.median(backup_s)
    print(f"  salvage time:          median {salvage_med * 1000:.0f} ms of {RUNS} runs")
    print(f"  baseline (backup API copy of the intact file): median {backup_med * 1000:.1f} ms")
    print(f"  ratio salvage / baseline: {salvage_med / backup_med:.1f}x")
    print(f"  the table is told: {sentence}")


if __name__ == "__main__":
    main()
