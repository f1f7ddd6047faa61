"""Issue 20 item 2: notices never hide the table (no toast over a seat tile or its lines)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets._toast import Toast

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.table_picture import SeatTile
from tests.tui.helpers import key, knock_out, new_game

NINE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy"]
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def overlaps(app: MindFlayerApp) -> list[str]:
    """Each (toast, tile) pair whose regions meet on screen; the toasts must be shown."""
    toasts = list(app.screen.query(Toast).results(Toast))
    assert toasts, "a notice is on screen"
    tiles = [tile for tile in app.screen.query(SeatTile).results(SeatTile) if tile.display]
    return [
        f"{toast.region} over seat {tile.seat} {tile.region}"
        for toast in toasts
        for tile in tiles
        if toast.region.overlaps(tile.region)
    ]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("names", [NINE, FIVE], ids=["nine", "five"])
async def test_a_knock_out_notice_covers_no_tile_at_the_table_or_in_a_meeting(
    app_factory: Callable[[], MindFlayerApp], size: tuple[int, int], names: list[str]
) -> None:
    app = app_factory()
    async with app.run_test(size=size, notifications=True) as pilot:
        await new_game(pilot, names)
        await key(pilot, "t")  # past the reveal (six and more)
        assert isinstance(app.screen, TableScreen)
        await knock_out(pilot, 1)
        assert not overlaps(app)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await knock_out(pilot, 2)  # "k 3": Cy, during the silent passing
        assert isinstance(app.screen, MeetingScreen)
        assert not overlaps(app)
