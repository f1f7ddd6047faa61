"""The table's snapshot reaches the widgets: what changed repaints, with no needless layout.

A key of the game is drawn from one `TableSnapshot` set on the screen of its
phase; every widget is bound to a reactive of that screen, so a next turn
repaints the turn, the name, its caption and two tiles, and the screen is
not laid out again (a layout arranges and redraws everything). A text that
does need more rows still gets them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import key
from no_message_left import settled
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList, Static

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.table_picture import SeatTile
from tests.tui.app_driver import narration_over, seat_question, text_of, tracked_app

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]

#: (widget id or class name, whether it asked for a layout) of every refresh seen.
Refreshes = list[tuple[str, bool]]


async def at_the_table(pilot: Pilot[None]) -> TableScreen:
    """Seven players seated, past the reveal: the table screen, with its snapshot."""
    await seated(pilot, SEVEN)
    await key(pilot, "t")
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen) and screen.snapshot is not None
    return screen


@pytest.fixture
def refreshes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Refreshes]:
    """Every widget refresh while the test listens (a spy on Textual's real `refresh`)."""
    seen: Refreshes = []
    real = Widget.refresh

    def spy(self: Widget, *regions: object, **flags: bool) -> Widget:
        seen.append((self.id or type(self).__name__, bool(flags.get("layout"))))
        return real(self, *regions, **flags)  # type: ignore[arg-type]

    monkeypatch.setattr(Widget, "refresh", spy)
    yield seen


async def test_next_turn_repaints_the_turn_the_name_and_two_tiles_without_layout(
    app_factory: Callable[[], MindFlayerApp], refreshes: Refreshes
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await at_the_table(pilot)
        refreshes.clear()
        await key(pilot, "n")
        assert app.controller.state.current == 1
        assert app.screen.query_one("#table-current", BigText).text == "Bob"
        layouts = [name for name, layout in refreshes if layout]
        assert layouts == [], f"laid out again for {layouts}"
        assert {name for name, _ in refreshes} == {
            "table-turn",
            "table-current-label",
            "table-current",
            "seat-0",
            "seat-1",
        }


async def test_the_same_snapshot_again_repaints_nothing(
    app_factory: Callable[[], MindFlayerApp], refreshes: Refreshes
) -> None:
    """A refused action, or one that changed nothing shown, leaves every widget alone."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        assert screen.snapshot is not None
        refreshes.clear()
        screen.snapshot = replace(screen.snapshot)
        await settled(pilot)
        assert refreshes == []


async def test_the_table_screen_draws_the_snapshot_it_is_given(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """The snapshot is the screen's only source: a state set there is what the widgets show."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        snapshot = screen.snapshot
        assert snapshot is not None and snapshot.state is not None
        state = replace(snapshot.state, current=3, turn=12, knocked_out=frozenset({5}))
        screen.snapshot = replace(snapshot, state=state)
        await settled(pilot)
        assert screen.query_one("#table-current", BigText).text == "Dee"
        assert screen.query_one("#table-turn", BigText).text == "12"
        assert "Seat 4" in text_of(screen.query_one("#table-current-label", Static))
        assert "current" in screen.query_one("#seat-3", SeatTile).marks
        assert "current" not in screen.query_one("#seat-0", SeatTile).marks
        assert "knocked-out" in screen.query_one("#seat-5", SeatTile).marks


async def test_a_sit_out_toggle_repaints_without_layout(
    folders: dict[str, Path], refreshes: Refreshes
) -> None:
    """In a Meeting a seat's digit repaints who takes part and the tiles whose chart moved.

    The Meeting's voice is over first: a line of it arriving during the toggle
    changes the caption (and its height), which is the voice's, not the toggle's.
    """
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 32)) as pilot:
        await at_the_table(pilot)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await narration_over(pilot, narrator)
        refreshes.clear()
        await key(pilot, "3")
        meeting = app.controller.state.meeting
        assert meeting is not None and meeting.sitting_out == {2}
        assert "sitting-out" in app.screen.query_one("#seat-2", SeatTile).marks
        assert [name for name, layout in refreshes if layout] == []
        names = {name for name, _ in refreshes}
        assert "meeting-sitting-out" in names and "seat-2" in names
        # The tiles whose passing did not change (Ann gives to Gus and Bob) keep their paint.
        assert "seat-0" not in names and app.screen not in names


async def test_a_knock_out_repaints_the_tile_before_the_question_closes(
    app_factory: Callable[[], MindFlayerApp], refreshes: Refreshes
) -> None:
    """The seat question closes and the tile is marked without the table laid out again.

    The question is the screen's own picker, on a layer of its own (no dialog
    screen pushed and popped: closing one repainted the whole table twice). Only
    the picker's box is laid out as it hides; the tile asks for its repaint
    first, so Textual draws both in one frame (the other way round the tile
    came a frame later, ~17-33 ms after the key in bench_tui.py). The screen
    itself is never repainted whole (not even by the focus leaving the picker).
    """
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_table(pilot)
        for seat in (2, 4):
            await key(pilot, "k")
            assert seat_question(app) is not None
            refreshes.clear()
            await key(pilot, str(seat + 1))
            assert seat_question(app) is None and app.screen is screen
            assert "knocked-out" in screen.query_one(f"#seat-{seat}", SeatTile).marks
            assert [name for name, layout in refreshes if layout] == ["pick-box"]
            names = [name for name, _layout in refreshes]
            assert names.index(f"seat-{seat}") < names.index("pick-box"), names
            assert "TableScreen" not in names, names


async def test_the_seat_picker_asked_again_lists_who_is_in_play_now(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """The one picker, asked again, shows the new question's choices and highlight only."""
    app = app_factory()
    async with app.run_test(size=(100, 32)) as pilot:
        await at_the_table(pilot)
        await key(pilot, "k")
        assert seat_question(app) is not None
        await key(pilot, "3")
        assert app.controller.state.knocked_out == {2}
        await key(pilot, "k")
        picker = seat_question(app)
        assert picker is not None
        options = picker.query_one("#pick-list", OptionList)
        listed = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert listed == [f"{seat + 1}. {SEVEN[seat]}" for seat in (0, 1, 3, 4, 5, 6)]
        assert options.highlighted == 0  # as a new picker: Down goes to the second name
        await key(pilot, "escape")
        assert isinstance(app.screen, TableScreen) and seat_question(app) is None
        await key(pilot, "m", "k")  # in a Meeting: the same picker, another question
        assert isinstance(app.screen, MeetingScreen) and seat_question(app) is not None
        await key(pilot, "1")
        assert app.controller.state.knocked_out == {0, 2}


class Lines(App[None]):
    """A narrow column of big text and a caption, each under the other."""

    def compose(self) -> ComposeResult:
        from moderator.tui.widgets.caption import Caption

        yield BigText("ANN", id="big")
        yield Caption("one line", id="caption")


@pytest.mark.parametrize(
    ("widget_id", "taller"),
    [("big", "ANN BOB"), ("caption", "a caption long enough to wrap in a narrow column")],
)
async def test_a_taller_text_still_gets_its_rows(widget_id: str, taller: str) -> None:
    """No layout for a text as tall as the last; a longer one wraps and the widget grows."""
    app = Lines()
    async with app.run_test(size=(24, 30)) as pilot:
        await pilot.pause()
        widget = app.query_one(f"#{widget_id}")
        before = widget.region.height
        widget.text = "BOB"  # type: ignore[attr-defined]
        await settled(pilot)
        assert widget.region.height == before
        widget.text = taller  # type: ignore[attr-defined]
        await settled(pilot)
        assert widget.region.height > before
        widget.text = "CY"  # type: ignore[attr-defined]
        await settled(pilot)
        assert widget.region.height == before
