"""End to end in a real terminal (tmux): an accidental start taken back, and a name
fixed between games of a series that keeps the player's points (issue 10, items 5-6).

The installed `mindflayer` command runs in the same terminal fixture as
`test_e2e_tmux.py` (conftest.py); keys that move the focus are paced as a typist's.
The score database is then read to check what was saved.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from moderator.domain import Team
from moderator.storage import DATABASE_NAME, Store
from tests.tui.tmux import Terminal, quit_from_board, seat_new_series

pytestmark = pytest.mark.slow


def test_accidental_start_undone_and_renamed_player_keeps_points(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, data_dir, status_file = terminal
    seat_new_series(term, ("Ann", "Bob", "Noah", "Dee"))

    # Shift+Tab from the name field lands on "Start game"; Enter starts by accident.
    term.press_on("BTab", "Start game ^S")  # the button is drawn focused: Enter is its
    term.keys("Enter")
    term.wait_for("Seat 1: your turn", "Meetings done: 0 of 3")
    term.keys("u")
    back = term.wait_for("Undone: the start of game 1", "4 players seated")
    for seat in ("1. Ann", "2. Bob", "3. Noah", "4. Dee"):
        assert seat in back, f"the roster lost {seat!r}:\n{back}"

    # The real game 1: Bob and Noah are knocked out, Dee growled, Noah holds 2 Waffles.
    term.keys("C-s")
    term.wait_for("Seat 1: your turn")
    term.keys("k")
    term.wait_for("Who is knocked out?", "2. Bob")
    term.keys("Down", "Enter")
    term.wait_for("Bob is knocked out.")
    term.keys("k")
    term.wait_for("Who is knocked out?", "3. Noah")  # Ann, Noah, Dee are left
    term.keys("Down", "Enter")
    term.wait_for("Press Enter to enter who growled.")
    term.keys("Enter")
    term.wait_for("Tick everyone who growled")
    # As in test_e2e_tmux: focus starts on Ann's box; Tab: Ann's Waffles, Bob's box,
    # Bob's Waffles, Noah's box, Noah's Waffles. Each Tab waits for its row to be
    # drawn focused, so what is typed next lands in the right field.
    ann, bob, noah, dee = "▌ Ann ", "▌ Bob  (knocked out)", "▌ Noah  (knocked out)", "▌ Dee "
    for row in (ann, bob, bob, noah, noah):
        term.press_on("Tab", row)
    term.type("2")
    term.wait_for("Waffles: 2")
    term.press_on("Tab", dee)
    term.keys("Space")  # Dee growled
    term.wait_for("the SANE win. Points: Ann 1, Bob 1, Noah 3, Dee 0")
    term.keys("C-s")
    term.wait_for("Series: 1 of 3 games played")

    # Game 2: Noah's name is fixed to "Noah B"; the table says it is the same player.
    term.keys("n")
    term.wait_for("4 players seated", "3. Noah")
    term.keys("Tab")  # to the roster: its keys show in the footer once it has the focus
    term.wait_for("e Fix")
    # From here a typist's burst (issue 15 item 10): the roster runs its keys in order and
    # "Fix" hands the field the keys typed behind it, so nothing waits on the machine.
    term.keys("Down", "Down", "e", "End")  # "Fix": Noah's name goes into the field
    term.type(" B")
    term.keys("Enter")
    term.wait_for("3. Noah B")
    term.keys("C-s")
    term.wait_for("Is Noah B an earlier player", "1. Noah", "2. No: a new player")
    term.keys("Enter")
    term.wait_for("Seat 1: your turn")

    quit_from_board(term, status_file, "Game 2 is unfinished")

    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert unfinished.game.number == 2
        assert unfinished.game.state.players == ("Ann", "Bob", "Noah B", "Dee")
        (game_one,) = store.series_games(unfinished.series_id)
        assert game_one.number == 1 and game_one.winner is Team.SANE
        assert dict(game_one.points) == {"Ann": 1, "Bob": 1, "Noah B": 3, "Dee": 0}
    conn = sqlite3.connect(f"file:{data_dir / DATABASE_NAME}?mode=ro", uri=True)
    try:
        games = conn.execute(
            "SELECT number, withdrawn_at IS NOT NULL FROM games ORDER BY id"
        ).fetchall()
        assert games == [(1, True), (1, False), (2, False)], "the accidental game is set aside"
        withdrawn_log = conn.execute(
            "SELECT count(*) FROM log WHERE game_id = (SELECT min(id) FROM games)"
        ).fetchone()
        assert withdrawn_log == (1,), "its log is kept as it was (append-only)"
        renames = conn.execute("SELECT old_name, new_name FROM renames").fetchall()
        assert renames == [("Noah", "Noah B")]
    finally:
        conn.close()
