"""A game taken back right after its start, and a name fixed between games of a series."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from moderator.domain import IllegalAction, PlayerKnockedOut, ResultsDeclared, TurnPassed
from moderator.domain.timeline import Undo
from moderator.storage import DATABASE_NAME, Store, schema
from moderator.storage.database import connect
from moderator.storage.saved_game import SavedGame
from tests.storage.test_storage_migrations import build_v1

FOUR = ("Ann", "Bob", "Noah", "Dee")


def finish(game: SavedGame, possessed: tuple[int, ...], waffles: tuple[int, ...]) -> None:
    """Knock out two players (the game ends) and declare the results."""
    game.record(PlayerKnockedOut(1))
    game.record(PlayerKnockedOut(2))
    game.record(ResultsDeclared(possessed, waffles))


def test_a_withdrawn_game_frees_its_number_and_is_never_resumed(
    open_store: Callable[[], Store],
) -> None:
    store = open_store()
    series = store.new_series()
    finish(store.new_game(series, FOUR, 0), (3,), (0, 0, 0, 0))
    accidental = store.new_game(series, FOUR, 1)
    assert accidental.number == 2
    store.withdraw_game(accidental.game_id)
    unfinished = store.unfinished()
    assert unfinished is not None and unfinished.series_id == series
    assert unfinished.game is None, "the taken-back game is not offered to resume"
    again = store.new_game(series, FOUR, 2)
    assert again.number == 2, "the series numbering stays right"
    store.close()
    reopened = open_store()
    resumed = reopened.unfinished()
    assert resumed is not None and resumed.game is not None
    assert resumed.game.game_id == again.game_id
    # The withdrawn game's log is still there, untouched (append-only).
    conn = reopened.journal.conn
    rows = conn.execute("SELECT count(*) FROM log WHERE game_id = ?", (accidental.game_id,))
    assert rows.fetchone() == (1,)


def test_a_withdrawn_game_does_not_settle_the_previous_results(store: Store) -> None:
    series = store.new_series()
    first = store.new_game(series, FOUR, 0)
    finish(first, (3,), (0, 0, 0, 0))
    store.withdraw_game(store.new_game(series, FOUR, 0).game_id)
    first.record(Undo())  # the results can still be undone: no later game counts
    assert first.state.result is None


@pytest.mark.parametrize("undone", [False, True])
def test_a_played_game_cannot_be_withdrawn(store: Store, undone: bool) -> None:
    game = store.new_game(store.new_series(), FOUR, 0)
    game.record(TurnPassed())
    if undone:
        game.record(Undo())  # back at the start, but its redo is still worth keeping
    with pytest.raises(IllegalAction, match="only a game with nothing done yet"):
        store.withdraw_game(game.game_id)


def test_a_rename_carries_the_points_into_the_series_total(
    open_store: Callable[[], Store],
) -> None:
    store = open_store()
    series = store.new_series()
    finish(store.new_game(series, FOUR, 0), (3,), (0, 0, 2, 0))  # Sane win: Noah 3
    renamed = ("Ann", "Bob", "Noah B", "Dee")
    assert store.series_names(series) == ["Ann", "Bob", "Dee", "Noah"]
    finish(store.new_game(series, renamed, 0, {"Noah": "Noah B"}), (3,), (0, 0, 1, 0))
    store.close()
    store = open_store()
    games = store.series_games(series)
    assert [sorted(game.points) for game in games] == [sorted(renamed)] * 2
    assert sum(game.points.get("Noah B", 0) for game in games) == 5
    assert all("Noah" not in game.points for game in games)


def test_a_rename_of_a_withdrawn_game_is_void(store: Store) -> None:
    series = store.new_series()
    finish(store.new_game(series, FOUR, 0), (3,), (0, 0, 0, 0))
    renamed = ("Ann", "Bob", "Noah B", "Dee")
    store.withdraw_game(store.new_game(series, renamed, 0, {"Noah": "Noah B"}).game_id)
    (game,) = store.series_games(series)
    assert "Noah" in game.points and "Noah B" not in game.points


@pytest.mark.parametrize(
    ("renames", "sentence"),
    [
        ({"Zed": "Noah B"}, "Zed is not a player of an earlier game"),
        ({"Ann": "Noah B"}, "Ann is not a player of an earlier game"),
        ({"Noah": "Bob"}, "Bob is not a new name"),
    ],
)
def test_a_rename_that_does_not_fit_the_roster_is_refused(
    store: Store, renames: dict[str, str], sentence: str
) -> None:
    series = store.new_series()
    finish(store.new_game(series, FOUR, 0), (3,), (0, 0, 0, 0))
    with pytest.raises(IllegalAction, match=sentence):
        store.new_game(series, ("Ann", "Bob", "Noah B", "Dee"), 0, renames)
    assert store.unfinished() is not None and store.unfinished().game is None  # type: ignore[union-attr]


def test_version_2_database_migrates_with_foreign_keys_still_enforced(data_dir: Path) -> None:
    data_dir.mkdir()
    build_v1(data_dir / DATABASE_NAME)
    conn = connect(data_dir / DATABASE_NAME)
    schema.migrate(conn, target=2)
    conn.close()
    with Store.open(data_dir) as store:
        conn = store.journal.conn
        assert schema.user_version(conn) == schema.SCHEMA_VERSION
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert [game.number for game in store.series_games(1)] == [1]
        resumed = store.unfinished()
        assert resumed is not None and resumed.game is not None and resumed.game.number == 2
