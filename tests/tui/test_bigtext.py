"""Big text stays large and solid at 80x24: the name and turn seen across the table."""

from __future__ import annotations

import pytest
from no_message_left import settled
from textual.app import App, ComposeResult
from textual.containers import Horizontal

from moderator.tui.widgets.bigtext import (
    COMPACT,
    LARGE,
    ROWS_SOLID,
    SOLID,
    BigText,
    big_lines,
    big_width,
    pick_scale,
)

HALF_BLOCKS = set("▀▄")


class TableTop(App[None]):
    """The table screen's top row: a narrow turn box and the current player's box."""

    CSS = """
    #turn { width: 12; }
    #name { width: 46; }
    """

    def __init__(self, name: str, turn: str) -> None:
        super().__init__()
        self._name, self._turn = name, turn

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield BigText(self._turn, id="turn")
            yield BigText(self._name, id="name")


def drawn(widget: BigText) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("name", "turn"), [("Max", "7"), ("Jonathan", "12"), ("Will", "99")])
async def test_name_and_turn_are_five_solid_rows(
    size: tuple[int, int], name: str, turn: str
) -> None:
    app = TableTop(name, turn)
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        for widget_id in ("#name", "#turn"):
            widget = app.query_one(widget_id, BigText)
            rows = drawn(widget)
            assert widget.size.height == ROWS_SOLID, f"{widget_id} at {size}: {rows}"
            ink = "".join(rows)
            assert "█" in ink and not HALF_BLOCKS & set(ink), f"{widget_id} is not solid: {rows}"


async def test_update_is_a_drop_in_for_digits() -> None:
    app = TableTop("Max", "1")
    async with app.run_test(size=(80, 24)) as pilot:
        turn = app.query_one("#turn", BigText)
        turn.update("10")
        await settled(pilot)
        assert turn.text == "10" and turn.size.height == ROWS_SOLID


def test_the_solid_font_is_half_as_wide_as_the_large_one() -> None:
    assert len(big_lines("AB", SOLID)) == ROWS_SOLID
    assert big_width("MAX", SOLID) == 13 and big_width("MAX", LARGE) == 26
    assert big_lines("I", SOLID) == ["███", " █ ", " █ ", " █ ", "███"]


def test_long_captions_on_a_small_screen_still_use_the_compact_font() -> None:
    caption = "Everyone, close your eyes and put your fist in front of you."
    assert pick_scale(caption, 78, 24) == COMPACT
    assert pick_scale("Max", 46, 24) == LARGE
    assert pick_scale("Jonathan", 46, 24) == SOLID
