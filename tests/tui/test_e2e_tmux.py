"""End to end: the installed `mindflayer` command in a real terminal (tmux).

A 4-player game is played by keystrokes: two knock-outs end it early, the
result is typed in, the app quits; the screen is read with `capture-pane`
and the score database is then opened read-only to check the saved result.
Speech runs for real but into a null ALSA device (`~/.asoundrc` in a temp
HOME), so nothing is heard and nothing may leak onto the screen.

Skipped when tmux is missing, unless CI=true or MINDFLAYER_REQUIRE_SPEECH=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.domain import Team
from moderator.storage import Store
from tests.tui.tmux import Terminal, quit_from_board, start_four_player_game

pytestmark = pytest.mark.slow


def test_four_players_ended_by_knockouts_saved_in_the_database(
    terminal: tuple[Terminal, Path, Path],
) -> None:
    term, data_dir, status_file = terminal
    start_four_player_game(term, "Meetings done: 0 of 3")

    term.keys("n")
    term.wait_for("Seat 2: your turn")
    # The dialog lists the players in play, the first highlighted: Cy is 2 down.
    term.keys("k")
    term.wait_for("Who is knocked out?", "3. Cy")
    term.keys("Down", "Down", "Enter")
    term.wait_for("Cy is knocked out.")
    term.keys("k")
    term.wait_for("Who is knocked out?", "4. Dee")  # Ann, Bob, Dee are left
    term.keys("Down", "Down", "Enter")
    finale = term.wait_for("Only 2 players are still in play: the game ends.")
    assert "GAME OVER" not in finale  # drawn in big letters, not as plain text
    term.wait_for("Press Enter to enter who growled.")

    term.keys("Enter")
    term.wait_for("Tick everyone who growled", "Cy  (knocked out)")
    # Focus starts on Ann's box; then Ann's Waffles, Bob's box, Bob's Waffles.
    for _ in range(3):
        term.press_seen("Tab")
    term.type("2")
    # No points until someone is ticked (the domain's sentence shows instead).
    term.wait_for("Waffles: 2", "mark everyone who growled")
    term.press_seen("Tab")
    term.keys("Space")  # Cy growled
    term.wait_for("the SANE win. Points: Ann 1, Bob 3, Cy 0, Dee 1")
    term.keys("C-s")
    board = term.wait_for("Series: 1 of 3 games played")
    assert "Leading: Bob" in board

    start = quit_from_board(term, status_file, "An unfinished series is waiting for its next game.")
    for noise in ("ALSA", "Traceback", "aplay", "Audio saved"):
        assert noise not in start, f"{noise!r} leaked onto the screen:\n{start}"

    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is None
        (game,) = store.series_games(unfinished.series_id)
        assert list(game.players) == ["Ann", "Bob", "Cy", "Dee"]
        assert game.winner is Team.SANE
        assert dict(game.points) == {"Ann": 1, "Bob": 3, "Cy": 0, "Dee": 1}
        assert set(game.possessed) == {"Cy"}
