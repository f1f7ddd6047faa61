"""How names are said lives in the `GameStarted` entry's JSON: no column, no migration.

A game saved with it reopens with it; one saved without it is stored exactly as
before; databases written before it existed load unchanged (every game's
`said_as` is empty).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from moderator.storage import DATABASE_NAME, Store

FOUR = ("Ann", "Bảo", "Cy", "Dee")
V4_DUMP = Path(__file__).with_name("v4_database.sql")


def first_entry(store: Store, game_id: int) -> dict[str, object]:
    (row,) = store._journal.query("SELECT entry FROM log WHERE game_id = ? AND seq = 1", (game_id,))
    entry = json.loads(str(row[0]))
    assert isinstance(entry, dict)
    return entry


def test_a_game_reopens_with_how_its_names_are_said(open_store: Callable[[], Store]) -> None:
    store = open_store()
    game = store.new_game(store.new_series(), FOUR, 0, said_as=("", "Bow", "", ""))
    store.close()
    again = open_store()
    assert again.load_game(game.game_id).state.said_as == ("", "Bow", "", "")
    assert first_entry(again, game.game_id)["said_as"] == ["", "Bow", "", ""]


def test_a_game_without_any_is_stored_as_before(store: Store) -> None:
    game = store.new_game(store.new_series(), FOUR, 1)
    assert first_entry(store, game.game_id) == {
        "type": "GameStarted",
        "players": list(FOUR),
        "first_player": 1,
    }


def test_an_older_database_loads_unchanged(data_dir: Path) -> None:
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / DATABASE_NAME)
    conn.executescript(V4_DUMP.read_text(encoding="utf-8"))
    ids = [int(row[0]) for row in conn.execute("SELECT id FROM games ORDER BY id")]
    conn.close()
    with Store.open(data_dir) as store:
        assert ids
        for game_id in ids:
            assert store.load_game(game_id).state.said_as == ()
