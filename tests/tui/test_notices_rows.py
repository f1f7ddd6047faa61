"""Notices never hide the table (issue 20, item 2): they have rows of their own.

Measured from what the screen draws (its compositor's visible widgets and its
rendered rows): every notice on screen, Textual's toasts and the notice strip
alike, lies clear of every seat tile (a Meeting's passing lines are in the tiles)
and of the footer, and each notice's sentence can be read there in full, at
80x24 and 120x40, with 4, 9 and 10 players. Textual's toasts sat bottom right,
over the last seats (Finn's and Gus's lines in a 9-player Meeting).

The notices' clock is pinned (`pinned_clock`): a notice shown for 3 s could run
out on a loaded machine between the key and the look, and the look would then
prove nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from driving import key, shown, until
from no_message_left import settled, toasts

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import TEN, at_the_table, knock_out
from tests.tui.notices_drawn import keep_clear, notices_on_screen

SIZES = [(80, 24), (120, 40)]

pytestmark = pytest.mark.usefixtures("pinned_clock")


def meeting_names(app: MindFlayerApp) -> list[str]:
    """Every tile's text on the Meeting screen (its passing lines)."""
    return [str(widget.render()) for widget in app.screen.query(".seat")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [4, 10])
async def test_three_knock_outs_in_a_row_stay_clear_of_the_tiles(
    app_factory: Callable[..., MindFlayerApp], size: tuple[int, int], players: int
) -> None:
    app = app_factory()
    async with app.run_test(size=size, notifications=True) as pilot:
        await at_the_table(pilot, TEN[:players])
        outs = 3 if players == 10 else 1  # a fourth would end a 4-player game at 2 in play
        for seat in range(outs):
            await knock_out(pilot, seat)
            await shown(pilot, TableScreen)
            await until(pilot, lambda: notices_on_screen(app) != {}, "a notice on screen")
            # The player whose turn it was: the notice goes on to say whose turn it is now.
            said = [text for text in toasts(app) if text.startswith(f"{TEN[seat]} is knocked out.")]
            assert said, toasts(app)
            keep_clear(app, said[0])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [9, 10])
async def test_a_knock_out_in_a_meeting_hides_no_passing_line(
    app_factory: Callable[..., MindFlayerApp], size: tuple[int, int], players: int
) -> None:
    app = app_factory()
    async with app.run_test(size=size, notifications=True) as pilot:
        await at_the_table(pilot, TEN[:players])
        await key(pilot, "m")
        await shown(pilot, MeetingScreen)
        await key(pilot, "k")
        await key(pilot, "3")  # the picker's digit: Cy is knocked out
        await until(pilot, lambda: 2 in app.controller.state.knocked_out, "Cy knocked out")
        await shown(pilot, MeetingScreen)
        await settled(pilot)
        assert any("L ▸" in text for text in meeting_names(app))
        keep_clear(app, "Cy is knocked out.")
