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

from collections.abc import Callable, Iterator
from time import time

import pytest
from controller_shortcuts import seated
from driving import key, shown, until
from no_message_left import settled, toasts
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.key_bar import KeyBar
from tests.tui.app_driver import knock_out
from tests.tui.drawn import drawn_rows, visible_regions

TEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]
SIZES = [(80, 24), (120, 40)]
#: The id of the game screens' notice strip.
NOTICES = "notices"


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Notices never run out during a test: their clock stands still (at its start)."""
    now = time()
    monkeypatch.setattr("textual.notifications.time", lambda: now)
    yield


async def to_table(pilot: Pilot[None], players: int) -> None:
    """A new game of `players`, past the reveal (6 and more) to the table screen."""
    await seated(pilot, TEN[:players])
    if players >= 6:
        await key(pilot, "t")
    await shown(pilot, TableScreen)


def notices_on_screen(app: MindFlayerApp) -> dict[Widget, Region]:
    """The notice widgets drawn on the current screen and where (toasts and the strip)."""
    toasts = set(app.screen.query("Toast"))  # Textual's toast widget, found by its type name
    return {
        widget: region
        for widget, region in visible_regions(app).items()
        if (widget in toasts or widget.id == NOTICES) and widget.visible
    }


def text_in(rows: list[str], region: Region) -> str:
    """The text drawn in `region`, its rows joined by spaces (wrapped words rejoined).

    The strip starts each row with a severity mark ("▌"): it is not the sentence's.
    """
    cut = (row[region.x : region.right] for row in rows[region.y : region.bottom])
    lines = (line.strip().removeprefix("▌").strip() for line in cut)
    return " ".join(line for line in lines if line)


def keep_clear(app: MindFlayerApp, sentence: str) -> None:
    """`sentence` is readable in full in a notice, and no notice covers a tile or the footer."""
    screen = app.screen
    tiles = [widget.region for widget in screen.query(".seat")]
    footer = screen.query_one(KeyBar).region
    assert tiles, "the screen shows the table's tiles"
    notices = notices_on_screen(app)
    for widget, region in notices.items():
        for tile in tiles:
            assert not region.overlaps(tile), (type(widget).__name__, region, tile)
        assert not region.overlaps(footer), (type(widget).__name__, region, footer)
    rows = drawn_rows(app)
    readable = [text_in(rows, region) for region in notices.values()]
    assert any(sentence in text for text in readable), (sentence, readable)


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
        await to_table(pilot, players)
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
        await to_table(pilot, players)
        await key(pilot, "m")
        await shown(pilot, MeetingScreen)
        await key(pilot, "k")
        await key(pilot, "3")  # the picker's digit: Cy is knocked out
        await until(pilot, lambda: 2 in app.controller.state.knocked_out, "Cy knocked out")
        await shown(pilot, MeetingScreen)
        await settled(pilot)
        assert any("L ▸" in text for text in meeting_names(app))
        keep_clear(app, "Cy is knocked out.")
