"""The flat rows read in one query (`history_rows`) give the replaying store's outputs.

`mindflayer history` and its exports go from flat rows to text without a
`GameScore` per game; when a game needs a replay, the rows are made from the
store's records (`Store.history`, `Store.finished_games`) and go through the same
writers (`replayed_output`). Each output of the one is compared byte for byte
with the other's on a varied history: many series of 4-10 seated players, random
results, co-winners, an abandoned series and an unfinished game, a withdrawn
game, chained renames, unicode, wide and formula names. A game the rows cannot
serve as written (a hand-edited cache, a grown log, an unreadable one, another
time format) makes the command read the store's records: same bytes, same notices.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator.domain import PlayerKnockedOut, ResultsDeclared, Timeline, TurnPassed
from moderator.history_report.command import open_for_reading, run_history
from moderator.history_report.output import (
    Output,
    Wanted,
    read_output,
    replayed_output,
    row_output,
)
from moderator.history_report.text import table, width
from moderator.storage import DATABASE_NAME, Store
from moderator.storage.history_rows import NeedsReplay
from tests.storage.storage_play import random_results

EXPORTED_AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALL = (Wanted(), Wanted(csv=True), Wanted(json=True), Wanted(bgstats=True))
NAMES = (
    "Ann",
    "ann",
    "Zoë",
    "José",
    "李雷",
    "🦇 Bat",
    "=SUM(A1)",
    "+Eve",
    "'Quote",
    'O"Neil, Jr',
    "Émile",
    "emile",
    "Bob",
    "Cyd",
)


def play(store: Store, series: int, roster: Sequence[str], rng: random.Random, **kw: object) -> int:
    """One game of `roster` to random (legal) results; its id."""
    game = store.new_game(series, roster, rng.randrange(len(roster)), **kw)  # type: ignore[arg-type]
    for _ in range(rng.randint(0, 2)):
        game.record(TurnPassed())
    state = game.state
    for seat in range(state.count - 2):
        game.record(PlayerKnockedOut(seat))
    game.record(random_results(Timeline.from_log(game.timeline.log), rng))
    return game.game_id


def roster_of(rng: random.Random) -> list[str]:
    """4 to 10 names, no two the same but for case (one roster refuses that; two may not)."""
    roster: dict[str, str] = {}
    for name in rng.sample(NAMES, len(NAMES)):
        roster.setdefault(name.casefold(), name)
    return list(roster.values())[: rng.randint(4, 10)]


def varied_history(store: Store) -> None:
    rng = random.Random(15)
    for _ in range(12):
        series = store.new_series()
        roster = roster_of(rng)
        for _ in range(3):
            play(store, series, roster, rng)
    tie = store.new_series()  # co-winners: everyone scores the same
    for _ in range(3):
        game = store.new_game(tie, ["Ann", "李雷", "Bob", "Cyd"], 1)
        game.record(PlayerKnockedOut(0))
        game.record(PlayerKnockedOut(2))
        game.record(ResultsDeclared((0, 2), (0, 0, 0, 0)))  # Sane win: 李雷 and Cyd 1 each
    chain = store.new_series()  # Noah -> Noah B -> Noah Bell, carried over the series
    play(store, chain, ["Ann", "Noah", "Zoë", "Bob"], rng)
    play(store, chain, ["Ann", "Noah B", "Zoë", "Bob"], rng, renames={"Noah": "Noah B"})
    store.withdraw_game(store.new_game(chain, ["Ann", "Nope", "Zoë", "Bob"], 0).game_id)
    play(store, chain, ["Ann", "Noah Bell", "Zoë", "Bob"], rng, renames={"Noah B": "Noah Bell"})
    dropped = store.new_series()  # played games of a series set aside: BG Stats plays only
    play(store, dropped, ["Ann", "Bob", "Cyd", "Dee"], rng)
    play(store, dropped, ["Ann", "Bob", "Cyd", "Dee"], rng)
    store.abandon_series(dropped)
    open_series = store.new_series()  # unfinished: its game in progress counts nowhere
    play(store, open_series, ["Zoë", "José", "Cyd", "Dee"], rng)
    store.new_game(open_series, ["Zoë", "José", "Cyd", "Dee"], 2).record(TurnPassed())


def outputs(data_dir: Path, path: Callable[..., Output]) -> tuple[list[Output], list[str]]:
    """Every output through `path`, and the notices the store gathered meanwhile."""
    store = open_for_reading(data_dir)
    assert store is not None
    with store:
        found = [path(store, wanted, EXPORTED_AT) for wanted in ALL]
        return found, list(store.notices)


@pytest.fixture
def history_dir(store: Store, data_dir: Path) -> Path:
    varied_history(store)
    store.close()
    return data_dir


def test_every_output_from_rows_is_the_object_paths_bytes(history_dir: Path) -> None:
    rows, _ = outputs(history_dir, row_output)
    objects, _ = outputs(history_dir, replayed_output)
    for wanted, new, old in zip(ALL, rows, objects, strict=True):
        assert new == old, wanted
    report, csv_text, json_text, plays = rows
    assert report.series == 14 and "Winners: Cyd, 李雷 (3 points)" in report.report
    assert "Noah Bell" in report.report and "Noah B " not in report.report
    assert "'=SUM(A1)" in csv_text.csv and '"O""Neil, Jr"' in csv_text.csv
    assert '"Zoë"' in json_text.json and "🦇 Bat" in json_text.json
    assert plays.play_count == 14 * 3 + 3 and plays.latest is not None  # + 2 set aside, 1 open


def test_the_command_writes_the_object_paths_bytes(history_dir: Path, tmp_path: Path) -> None:
    objects, _ = outputs(history_dir, replayed_output)
    report, csv_text, _, plays = objects
    out = tmp_path / "out"
    out.mkdir()
    for option, name in (("csv", "h.csv"), ("bgstats", "plays.json")):
        args = argparse.Namespace(data_dir=str(history_dir), csv=None, json=None, bgstats=None)
        setattr(args, option, str(out / name))
        assert run_history(args) == 0
    assert (out / "h.csv").read_bytes() == b"\xef\xbb\xbf" + csv_text.csv.encode()
    assert (out / "plays.json").read_text(encoding="utf-8") == plays.plays
    assert report.report.startswith("Series 1: ")


def test_an_empty_database_reads_the_same_both_ways(store: Store, data_dir: Path) -> None:
    store.close()
    rows, _ = outputs(data_dir, row_output)
    objects, _ = outputs(data_dir, replayed_output)
    assert rows == objects
    assert rows[0].report.startswith("No complete series yet")


def edit(data_dir: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    with conn:
        conn.execute(sql, params)
    conn.close()


def cache_edit(game_id: int, old: str, new: str) -> tuple[str, tuple[object, ...]]:
    """An UPDATE replacing `old` by `new` in a game's score cache."""
    return "UPDATE games SET score = replace(score, ?, ?) WHERE id = ?", (old, new, game_id)


SPACED = (
    '{"players": ["Ann", "Bob", "Cyd", "Dee"], "first_player": 0, "winner": "sane", '
    '"possessed": [1], "points": [1, 0, 1, 1], "entries": 4}'
)


@pytest.mark.parametrize(
    ("sql", "params"),
    [
        ("UPDATE games SET score = ? WHERE id = 1", (SPACED,)),  # the object path reads it
        ("UPDATE games SET score = NULL WHERE id = 2", ()),  # replayed
        ("UPDATE games SET score = '{not json' WHERE id = 3", ()),  # replayed
        (
            "UPDATE games SET score = replace(score, '\"points\":[', '\"points\":[true,') "
            "WHERE id = 4",
            (),
        ),
        ("UPDATE games SET finished_at = '2026-03-14 19:30:00' WHERE id = 5", ()),
        ("UPDATE series SET started_at = '2026-03-14T21:00:00+02:00' WHERE id = 1", ()),
        (
            "INSERT INTO log (game_id, seq, at, entry) "
            "VALUES (6, 99, '2026-03-14T20:00:00+00:00', '{\"type\": \"Bogus\"}')",
            (),
        ),
        # The cache cut where `score_text` puts its keys: any other spelling is decoded by
        # the object path (which reads the same values, or replays).
        cache_edit(7, ',"entries":', ',"points":[9],"entries":'),
        cache_edit(8, '"first_player":', '"first_player":0'),
        ("UPDATE games SET score = score || ' ' WHERE id = 9", ()),
        cache_edit(10, '"players":[', '"players":[1,'),
        cache_edit(11, '"possessed":[', '"possessed":[99,'),
        cache_edit(12, '"entries":', '"entries":1'),
        cache_edit(13, '"entries":', '"entries":' + "9" * 5000),  # too long for `int`
    ],
    ids=[
        "spaced-cache",
        "no-cache",
        "bad-json",
        "bool-points",
        "other-time",
        "offset",
        "log",
        "second-points",
        "leading-zero",
        "trailing-space",
        "number-name",
        "possessed-seat-out",
        "stale-entries",
        "huge-number",
    ],
)
def test_a_game_the_rows_cannot_serve_takes_the_object_path(
    history_dir: Path, sql: str, params: tuple[object, ...]
) -> None:
    edit(history_dir, sql, *params)
    store = open_for_reading(history_dir)
    assert store is not None
    with store, pytest.raises(NeedsReplay):
        row_output(store, Wanted(csv=True, bgstats=True), EXPORTED_AT)
    chosen, chosen_notices = outputs(history_dir, read_output)
    objects, notices = outputs(history_dir, replayed_output)
    assert chosen == objects
    assert chosen_notices == notices


def test_times_with_microseconds_are_read_from_rows(history_dir: Path) -> None:
    """`time_to_text` writes microseconds when a clock has them: not the common GLOB."""
    edit(
        history_dir,
        "UPDATE games SET started_at = replace(started_at, '+00:00', '.250000+00:00'), "
        "finished_at = replace(finished_at, '+00:00', '.750000+00:00') WHERE id IN (1, 4)",
    )
    rows, _ = outputs(history_dir, row_output)  # no NeedsReplay
    objects, _ = outputs(history_dir, replayed_output)
    assert rows == objects
    assert ".750000+00:00" in rows[2].json


def reference_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 99
) -> str:
    """The report's table as it was written before the ASCII fast path (the spec)."""
    every = (headers, *rows)
    measured = [[(cell, width(cell)) for cell in row] for row in every]
    widths = [max(column) for column in zip(*([w for _, w in r] for r in measured), strict=True)]
    lines = []
    for number, row in enumerate(measured):
        cells = []
        for index, ((cell, used), size) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (size - used)
            cells.append(pad + cell if index >= numeric_from and number > 0 else cell + pad)
        lines.append("  " + "  ".join(cells).rstrip() + "\n")
    return "".join(lines)


@pytest.mark.parametrize("seed", range(40))
def test_the_table_pads_as_it_always_did(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = ["a", "Z", "1", " ", "-", "{}", "%s", "é", "李", "🦇", "e\u0301", ""]
    pool = alphabet[:6] if seed % 2 else alphabet  # even seeds: not ASCII
    columns = rng.randint(1, 6)
    headers = ["".join(rng.choices(pool, k=rng.randint(1, 6))) for _ in range(columns)]
    rows = [
        ["".join(rng.choices(pool, k=rng.randint(0, 8))) for _ in range(columns)]
        for _ in range(rng.randint(0, 5))
    ]
    numeric_from = rng.choice([0, 1, columns - 1, 99])
    assert table(headers, rows, numeric_from) == reference_table(headers, rows, numeric_from)


def test_the_players_columns_say_they_count_wins(history_dir: Path) -> None:
    """Issue 35 item 11: "as Sane / as Possessed" counted wins without saying so."""
    rows, _ = outputs(history_dir, row_output)
    lines = rows[0].report.splitlines()
    header = next(line for line in lines if "Series won" in line)
    assert "Won as Sane" in header and "Won as Possessed" in header, header
