"""The result screen's keys in one burst, as a terminal under load delivers them.

A busy machine hands the app several keys in one read: each must act where the
keys before it left the focus, as when typed one by one. Found by the tmux
end-to-end test at a load average of 10 (Space typed into Cy's Waffles).
"""

from __future__ import annotations

from no_message_left import settled
from textual.widgets import Checkbox, Input

from tests.tui.app_driver import ReachResults, text_of


async def test_tab_then_a_digit_in_one_burst_types_into_the_row_tab_reached(
    at_results: ReachResults,
) -> None:
    """Tab then 2 before the app handles either: Bob's Waffles get the 2, focus stays there.

    Tab used to wait in the focused box's queue while the digit (a priority binding)
    acted at once on that box: focus went to Bob's Waffles with the 2, then the late
    Tab moved it on to Cy's box, and the next Tab and Space went to Cy's Waffles.
    """
    async with at_results() as (app, pilot, screen):
        assert app.focused is not None and app.focused.id == "possessed-0"
        for name in ("tab", "tab", "tab", "2", "tab", "space"):
            app.simulate_key(name)
        await settled(pilot)
        assert screen.query_one("#waffles-1", Input).value == "2"
        assert screen.query_one("#waffles-2", Input).value == "0"
        assert app.focused is not None and app.focused.id == "possessed-2"
        assert "X" in text_of(screen.query_one("#possessed-2", Checkbox))


async def test_shift_tab_then_a_digit_in_one_burst_types_into_the_row_it_reached(
    at_results: ReachResults,
) -> None:
    """Shift+Tab from Bob's box back to Ann's Waffles, then 3, in one burst."""
    async with at_results() as (app, pilot, screen):
        screen.query_one("#possessed-1", Checkbox).focus()
        await settled(pilot)
        for name in ("shift+tab", "shift+tab", "3"):
            app.simulate_key(name)
        await settled(pilot)
        assert app.focused is not None and app.focused.id == "waffles-0"
        assert screen.query_one("#waffles-0", Input).value == "3"
