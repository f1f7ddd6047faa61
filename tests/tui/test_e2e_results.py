"""End to end: the result screen typed in a real terminal (tmux), checked in SQLite.

Waffles typed too high ("99", "13") are refused at the keystroke; the box keeps
what it had, and Ctrl+S saves nothing until the box is typed again, so the
database never holds a shorter number nobody meant. The rows are reached with
the arrow keys, and the saved result is read back from the score database.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.storage import Store
from tests.tui.tmux import Terminal, quit_from_board, start_four_player_game

pytestmark = pytest.mark.slow


def to_results(term: Terminal) -> None:
    """A 4-player game: Cy and Dee knocked out end it; on to entering the results."""
    start_four_player_game(term)
    for name in ("Cy", "Dee"):
        term.keys("k")
        term.wait_for("Who is knocked out?", name)
        term.keys("Down", "Down", "Enter")
        term.wait_for(f"{name} is knocked out.")
    term.wait_for("Press Enter to enter who growled.")
    term.keys("Enter")
    term.wait_for("Tick everyone who growled", "Cy  (knocked out)")


def test_refused_waffles_are_never_saved_as_the_shorter_number(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, data_dir, status_file = terminal
    to_results(term)
    # Focus starts on Ann's box: Down twice to Cy's box, Space ticks it.
    term.press_seen("Down")
    term.press_seen("Down")
    term.press_seen("Space")
    term.wait_for("the SANE win. Points: Ann 1, Bob 1, Cy 0, Dee 1")
    # Up to Bob's box; "99" arrives in one burst: the second 9 is refused.
    term.press_seen("Up")
    term.type("99")
    term.wait_for("Bob cannot hold 99", "Bob's box still shows 9, not 99")
    term.keys("C-s")
    term.wait_for("Not saved")
    assert "Points:" not in term.screen()
    # Up to Ann's Waffles: "13" keeps 1 and is refused as well.
    term.press_seen("Up")
    term.type("13")
    term.wait_for("Ann cannot hold 13")
    term.keys("C-s")
    screen = term.wait_for("Not saved")
    assert "Series:" not in screen
    # Typed again, each box settles; what shows is what is saved.
    # Backspace is a binding (handled after the key bubbles up), a digit is typed
    # where it lands: a typist's gap keeps them in order, as press_seen does.
    term.press_seen("BSpace")
    term.type("1")
    term.press_seen("Down")
    term.press_seen("BSpace")
    term.type("9")
    term.wait_for("the SANE win. Points: Ann 2, Bob 10, Cy 0, Dee 1")
    term.keys("C-s")
    term.wait_for("Series: 1 of 3 games played")
    quit_from_board(term, status_file, "An unfinished series is waiting for its next game.")

    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is None
        (game,) = store.series_games(unfinished.series_id)
        assert dict(game.points) == {"Ann": 2, "Bob": 10, "Cy": 0, "Dee": 1}
        assert set(game.possessed) == {"Cy"}
