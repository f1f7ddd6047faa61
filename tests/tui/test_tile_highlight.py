"""A tile's marks (the current seat, sitting out, knocked out): drawn with no restyle.

A CSS class flip makes Textual restyle the tile against the whole stylesheet;
on a next turn two tiles flipped, about a tenth of the key's time to screen.
The tile lays its marks' component styles (CSS, so the theme's colours) over
itself instead. These tests read what the tile draws (its lines, border and
background), not a class; the screen snapshots (tests/tui/test_snapshots.py)
show the same table as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from controller_shortcuts import seated
from driving import key
from no_message_left import settled
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.table_picture import SeatTile

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
#: The corners of Textual's heavy border (the current seat) and round one (the others).
HEAVY, ROUND = "┏", "╭"


async def at_the_table(pilot: Pilot[Any]) -> TableScreen:
    """Seven players seated, past the reveal: the table screen."""
    await seated(pilot, SEVEN)
    await key(pilot, "t")
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    return screen


def drawn(tile: SeatTile) -> list[Strip]:
    """The lines the tile draws (border, padding, text), as the compositor gets them."""
    width, height = tile.outer_size
    return tile.render_lines(Region(0, 0, width, height))


def corner(tile: SeatTile) -> str:
    """The tile's top left cell as drawn: which border it wears."""
    return drawn(tile)[0].text[0]


def border_colour(tile: SeatTile) -> Color | None:
    """The colour its top left corner is drawn in."""
    style = next(iter(drawn(tile)[0])).style
    return None if style is None or style.color is None else Color.from_rich_color(style.color)


@pytest.fixture
def restyled(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every node Textual restyles while the test listens (a spy on `Stylesheet.apply`)."""
    seen: list[str] = []
    real = Stylesheet.apply

    def spy(self: Stylesheet, node: DOMNode, *args: Any, **kwargs: Any) -> None:
        seen.append(node.id or type(node).__name__)
        real(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", spy)
    yield seen


async def test_a_next_turn_restyles_no_widget(
    app_factory: Callable[[], MindFlayerApp], restyled: list[str]
) -> None:
    """The highlight moves from seat 1 to seat 2 by a repaint: no style is computed again."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        restyled.clear()
        await key(pilot, "n")
        assert app.controller.state.current == 1
        assert restyled == []
        assert "current" in screen.query_one("#seat-1", SeatTile).marks
        assert "current" not in screen.query_one("#seat-0", SeatTile).marks


async def test_a_sit_out_and_a_knock_out_restyle_no_widget(
    app_factory: Callable[[], MindFlayerApp], restyled: list[str]
) -> None:
    """In a Meeting a seat's digit marks its tile; a knock-out from the picker too."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await at_the_table(pilot)
        await key(pilot, "m")
        restyled.clear()
        await key(pilot, "3")
        meeting = app.controller.state.meeting
        assert meeting is not None and meeting.sitting_out == {2}
        assert restyled == []
        assert "sitting-out" in app.screen.query_one("#seat-2", SeatTile).marks
        await key(pilot, "3", "k")
        restyled.clear()
        await key(pilot, "5")
        assert app.controller.state.knocked_out == {4}
        assert [name for name in restyled if name.startswith("seat-")] == []
        assert "knocked-out" in app.screen.query_one("#seat-4", SeatTile).marks


async def test_marks_stack_as_their_css_order_says(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """The current seat sitting out: the dashed border and muted text over its highlight."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await at_the_table(pilot)
        tile = app.screen.query_one("#seat-0", SeatTile)
        highlight = tile.styles.background
        await key(pilot, "m")
        tile = app.screen.query_one("#seat-0", SeatTile)
        await key(pilot, "1")
        assert tile.marks == {"current", "sitting-out"}
        assert drawn(tile)[0].text[1] == "╍"  # Textual's dashed top edge (heavy is "━")
        assert tile.styles.background == highlight
        assert tile.styles.color == tile.get_component_styles("seat--sitting-out").color
        assert tile.styles.color != tile.get_component_styles("seat--current").color


async def test_the_current_seat_is_drawn_highlighted(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """The current tile draws the heavy border and its background; the last one lets go."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        tiles = [screen.query_one(f"#seat-{seat}", SeatTile) for seat in range(len(SEVEN))]
        assert [corner(tile) for tile in tiles] == [HEAVY] + [ROUND] * 6
        plain = tiles[1].styles.background
        await key(pilot, "n")
        assert [corner(tile) for tile in tiles] == [ROUND, HEAVY] + [ROUND] * 5
        assert tiles[1].styles.background != plain
        assert tiles[0].styles.background == plain
        success = Color.parse(app.get_css_variables()["success"])
        assert border_colour(tiles[1]) == success


async def test_the_highlight_follows_a_new_theme(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """Its colours are the theme's: another theme, the current tile's border follows."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        tile = screen.query_one("#seat-0", SeatTile)
        before = border_colour(tile)
        app.theme = next(
            name
            for name, theme in app.available_themes.items()
            if theme.success is not None and Color.parse(theme.success) != before
        )
        await settled(pilot)
        success = Color.parse(app.get_css_variables()["success"])
        assert success != before
        assert corner(tile) == HEAVY
        assert border_colour(tile) == success
