"""The big-text font and the table picture's seating geometry."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import key
from no_message_left import settled
from textual.geometry import Region

from moderator.tui.app import MindFlayerApp
from moderator.tui.widgets.bigtext import ROWS, big_lines, big_width, render_big, wrap_words
from moderator.tui.widgets.table_picture import layout_counts, seat_boxes
from tests.tui.app_driver import narration_over, tracked_app


def test_big_text_draws_known_letters_in_three_rows() -> None:
    lines = big_lines("AB")
    assert len(lines) == ROWS
    assert {len(line) for line in lines} == {big_width("AB")}
    assert lines == big_lines("ab"), "lower case is drawn in capitals"


def test_markup_characters_are_drawn_as_letters_never_parsed() -> None:
    lines = big_lines("[@]")
    assert len(lines) == 3 and not set("[@]") & set("".join(lines)), lines
    assert lines == [" ".join(rows) for rows in zip(*(big_lines(c) for c in "[@]"), strict=True)]
    assert big_lines("界") == big_lines("□"), "no letter of the font inside: the placeholder box"


def test_text_too_wide_for_big_letters_falls_back_to_plain_text() -> None:
    assert wrap_words("ANN BOB", 100) == ["ANN BOB"]
    assert wrap_words("ANN BOB", big_width("ANN")) == ["ANN", "BOB"]
    assert wrap_words("Bartholomew", 10) is None
    fallback = render_big("Bartholomew", 10)
    assert fallback.plain == "Bartholomew"


@pytest.mark.parametrize("count", range(4, 11))
@pytest.mark.parametrize(
    ("width", "height", "tile"),
    # 14, 13 and 10 rows: a Meeting's five-row tiles in a picture too short for three rows
    # (a long instruction above); 9: one row.
    [(80, 18, 4), (80, 17, 5), (200, 50, 5), (80, 14, 5), (80, 13, 5), (80, 10, 5), (80, 9, 5)],
)
def test_seats_never_overlap_and_stay_inside(
    count: int, width: int, height: int, tile: int
) -> None:
    boxes = seat_boxes(count, width, height, tile)
    assert len(boxes) == count == sum(layout_counts(count))
    regions = [Region(x, y, w, h) for x, y, w, h in boxes]
    for region in regions:
        assert region.x >= 0 and region.right <= width
        assert region.y >= 0 and region.bottom <= height
    for first, second in combinations(regions, 2):
        assert not first.overlaps(second)


def test_seating_runs_clockwise_from_the_top_left() -> None:
    boxes = seat_boxes(8, 80, 18, 4)
    top = [x for x, y, _, _ in boxes if y == 0]
    assert top == sorted(top), "the top row runs left to right"
    bottom_y = max(y for _, y, _, _ in boxes)
    bottom = [x for x, y, _, _ in boxes if y == bottom_y]
    assert bottom == sorted(bottom, reverse=True), "the bottom row runs right to left"
    assert boxes[3][0] > boxes[-1][0], "seat after the top row is on the right side"


def test_a_short_picture_seats_the_sides_at_the_ends_of_two_rows_still_clockwise() -> None:
    boxes = seat_boxes(9, 80, 13, 5)
    assert {y for _, y, _, _ in boxes} == {0, 8}, "two rows, the lower one at the bottom edge"
    top = [x for x, y, _, _ in boxes[:5]]
    bottom = [x for x, y, _, _ in boxes[5:]]
    assert all(y == 0 for _, y, _, _ in boxes[:5]) and top == sorted(top), "seats 1-5 on top"
    assert bottom == sorted(bottom, reverse=True), "seats 6-9 back along the bottom"
    assert top[-1] + 15 == 80 - 1, "the right seat ends the top row at the right edge"


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_ten_players_fit_on_an_80x24_screen(
    app_factory: Callable[..., MindFlayerApp], theme: str
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await seated(pilot, [f"Player {n}" for n in range(10)])
        await key(pilot, "t", "m")
        for _ in range(2):
            await settled(pilot)
            screen = app.screen
            regions = [screen.query_one(f"#seat-{seat}").region for seat in range(10)]
            for region in regions:
                assert region.width > 8 and region.height >= 4
                assert screen.region.contains_region(region)
            for first, second in combinations(regions, 2):
                assert not first.overlaps(second)
            await key(pilot, "u")


async def test_a_long_instruction_above_a_meeting_cuts_no_passing_line(
    folders: dict[str, Path],
) -> None:
    """Nine players' Meeting at 80x24 under an instruction two rows longer than usual.

    The picture then has 13 rows, too few for three rows of five-row tiles: every
    tile still lies inside the picture and every giver's two lines are drawn.
    """
    app, narrator = tracked_app(folders)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy"]
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, names)
        await key(pilot, "t", "m")
        await narration_over(
            pilot, narrator
        )  # the voice is done: no caption of its own comes after
        screen = app.screen
        screen.caption = " ".join(["Pass both cards to the neighbours the tiles name."] * 5)
        await settled(pilot)
        picture = screen.query_one("#meeting-picture").region
        assert picture.height < 15, picture
        for seat in range(9):
            tile = screen.query_one(f"#seat-{seat}")
            assert picture.contains_region(tile.region), (seat, tile.region, picture)
            lines = str(tile.render()).splitlines()
            assert len(lines) == 3 and "L ▸" in lines[1] and "R ▸" in lines[2], lines
            assert tile.region.height == len(lines) + 2, "the lines and the borders all show"


def test_tall_terminals_get_the_full_block_font_when_it_fits() -> None:
    from moderator.tui.widgets.bigtext import ROWS_LARGE, pick_scale

    assert len(big_lines("Ann", 2)) == ROWS_LARGE
    assert big_width("Ann", 2) == 2 * big_width("Ann")
    assert pick_scale("Ann", 100, 50) == 2
    assert pick_scale("Ann", 100, 24) == 2, "an 80x24 screen keeps the large font too"
    assert pick_scale("Bartholomew Longname", 30, 50) == 1, "too wide for the solid fonts"


def test_the_finale_count_is_read_from_captions_in_every_shipped_language() -> None:
    from moderator.tui.screens.finale import count_in

    assert [count_in(c) for c in ("One.", "Deux.", "Drei!", "Tres.")] == ["1", "2", "3", "3"]
    assert count_in("Everyone, count with me.") is None
    assert count_in("Un deux") is None
