"""End to end (tmux): the app killed while eyes are closed offers the reveal again on
resume (issue 15, item 5).

The installed command runs in the terminal fixture of conftest.py; tmux kills it
mid-reveal (`respawn-pane -k`, which also starts the command again in the same
pane, with the same folders), and the table resumes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.storage import Store
from tests.tui.tmux import Terminal, seat_new_series

#: The default 5 s window: the reveal must still run when tmux kills the app.
pytestmark = [pytest.mark.slow, pytest.mark.default_timing]

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
READY = "Press Enter (or space) to start the reveal"


def test_a_reveal_killed_mid_way_is_offered_again_on_resume(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, data_dir, status_file = terminal
    seat_new_series(term, SIX, "Then the eyes-closed reveal")
    term.keys("C-s")
    term.wait_for(READY)
    term.keys("Enter")
    term.wait_for("Reveal running. Esc stops it.")

    term.run("respawn-pane", "-k", "-t", term.target)  # the app dies mid-reveal
    term.wait_for("Game 1 is unfinished", "Resume (c)")
    term.keys("c")
    term.wait_for("reveal had not finished", READY)

    term.keys("t")  # the table skips it this time: saved as the reveal's end
    term.wait_for("Seat 1: your turn")
    term.keys("Escape")
    term.wait_for("Game 1 is unfinished")
    term.keys("q")
    assert term.wait_exit(status_file) == 0
    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert unfinished.game.state.revealed and not unfinished.game.state.reveal_pending
