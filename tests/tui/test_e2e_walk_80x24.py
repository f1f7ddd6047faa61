"""End to end at 80x24 (issue 20): a whole 6-player game in a real terminal (tmux), and on
every screen its main keys whole on the footer line and the game's progress in words.

Skipped when tmux is missing, unless CI=true or MINDFLAYER_REQUIRE_SPEECH=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.tmux import Terminal, quit_from_board, seat_new_series

pytestmark = pytest.mark.slow

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fin")
#: Every game screen keeps these whole at 80 columns.
GAME_KEYS = ("? Help", "v Mute", "f2 Settings")


def footer_shows(term: Terminal, *keys: str) -> str:
    """Wait until the footer (the pane's last line) shows each key whole; the screen."""
    screen = term.wait_for(*keys)
    last = screen.rstrip("\n").splitlines()[-1]
    for shown in keys:
        assert f" {shown} " in f"{last} ", (shown, last)
    return screen


def test_a_whole_game_at_80x24_shows_every_screens_main_keys(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, _data_dir, status_file = terminal
    term.run("resize-window", "-t", term.target, "-x", "80", "-y", "24")
    term.wait_for("New series (n)")
    size = term.run("display-message", "-p", "-t", term.target, "#{pane_width}x#{pane_height}")
    assert size.strip() == "80x24"
    footer_shows(term, "? Help", "n New series", "q Quit")

    seat_new_series(term, SIX)
    footer_shows(term, "^s Start", "^r Read", "esc Back")

    term.keys("C-s")
    term.wait_for("Press Enter (or space) to start the reveal", "Game 1 of 3")
    footer_shows(term, "esc Abort", "t To table", *GAME_KEYS)

    term.keys("t")
    term.wait_for("Seat 1: your turn", "Game 1 of 3 · next: Meeting 1 of 3")
    footer_shows(term, "n Next turn", "m Meeting", "k Knock out", "u Undo", "esc Menu", *GAME_KEYS)
    term.keys("F3")  # the table read aloud (issue 35): the same sentence shown
    term.wait_for("Turn 1: Ann's turn. Game 1 of 3. Meetings done: 0 of 3.")
    term.keys("v")  # muted: said in the header and on the footer while it lasts
    footer_shows(term, "v Unmute")
    term.wait_for("voice muted")
    term.keys("v")
    footer_shows(term, "v Mute")

    term.keys("m")
    term.wait_for("take part", "Game 1 of 3 · Meeting 1 of 3")
    footer_shows(term, "⏎ Resolved", "o Sit out", "k Knock out", "esc Menu", *GAME_KEYS)
    term.keys("Enter")
    term.wait_for("Game 1 of 3 · next: Meeting 2 of 3")

    for name in SIX[:4]:  # the first in play is highlighted: Ann, Bob, Cy, Dee go out
        term.keys("k")
        term.wait_for("Who is knocked out?", f". {name}")
        term.keys("Enter")
        if name != SIX[3]:
            term.wait_for(f"{name} is knocked out.")
    term.wait_for("Press Enter to enter who growled.", timeout=40)
    footer_shows(term, "c Count again", "esc Menu", *GAME_KEYS)

    term.keys("Enter")
    term.wait_for("Tick everyone who growled")
    footer_shows(term, "^s Save result", "esc Menu", "u Undo", "r Redo", *GAME_KEYS)
    for _ in range(4):
        term.press_seen("Down")  # to Eve's row
    term.keys("Space")
    term.press_seen("Down")
    term.keys("Space")  # Eve and Fin growled
    term.wait_for("the POSSESSED win")
    term.keys("C-s")
    term.wait_for("Series: 1 of 3 games played")
    screen = footer_shows(term, "n Next", "s New series", "u Undo", "r Redo", *GAME_KEYS)
    assert "Traceback" not in screen

    quit_from_board(term, status_file, "An unfinished series is waiting for its next game.")
