"""Damaged score databases made on purpose: a page overwritten, bytes zeroed, a file cut.

Shared by the salvage tests and `bench/bench_salvage.py`. The pages of a table or
index are found with SQLite's own `dbstat` table, so the damage lands where it is
meant to (a page of the `log` table, an index page of `games`).
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from moderator.domain import PlayerKnockedOut, ResultsDeclared, TurnPassed
from moderator.storage import DATABASE_NAME, Store

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
PAGE = 4096


def build(folder: Path, games: int, *, turns: int = 30, last_open: bool = True) -> None:
    """`games` games, 3 per series, each with `turns` passed turns, 2 knock-outs and results.

    With `last_open`, the last game stops after its turns (a game in progress).
    """
    with Store.open(folder) as store:
        series = 0
        for index in range(games):
            if index % 3 == 0:
                series = store.new_series()
            game = store.new_game(series, PLAYERS, index % 4)
            for _ in range(turns):
                game.record(TurnPassed())
            if last_open and index == games - 1:
                break
            game.record(PlayerKnockedOut(2))
            game.record(PlayerKnockedOut(3))
            game.record(ResultsDeclared((index % 2,), (1, 0, 2, index % 3)))


def pages(path: Path, name: str, kind: str = "leaf") -> list[int]:
    """The page numbers of table or index `name` of kind `leaf` or `internal`, in order."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [
            int(row[0])
            for row in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
                (name, kind),
            )
        ]
    finally:
        conn.close()


def overwrite_page(path: Path, page: int, seed: int = 1) -> None:
    """Page `page` (1-based) of the file replaced by random bytes, as a bad sector leaves it."""
    noise = random.Random(seed).randbytes(PAGE)
    with path.open("r+b") as file:
        file.seek((page - 1) * PAGE)
        file.write(noise)


def zero_bytes(path: Path, offset: int, count: int) -> None:
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(b"\0" * count)


def database(folder: Path) -> Path:
    return folder / DATABASE_NAME


def corrupt_files(folder: Path) -> list[Path]:
    """The copies of a damaged database the store set aside in `folder` (`*.corrupt-*`)."""
    return sorted(p for p in folder.iterdir() if ".corrupt-" in p.name)


def edit(folder: Path, sql: str, *params: object) -> None:
    """One statement run on the database in `folder`, as a hand edit would (committed)."""
    conn = sqlite3.connect(folder / DATABASE_NAME)
    with conn:
        conn.execute(sql, params)
    conn.close()
