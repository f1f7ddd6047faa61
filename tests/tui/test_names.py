"""Player names are data: markup, links, actions and escapes are shown literally."""

from __future__ import annotations

from collections.abc import Callable

from driving import key, new_game, to_setup
from no_message_left import settled, toasts
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from tests.tui.app_driver import declare, knock_out, state_of

HOSTILE = ["[/]", "[@click=app.quit]x", "[link=x]y", "[b]Bo[/b]", "$accent", "Zoë 🧇"]


def plain(widget: Static) -> str:
    """What a Static shows, as plain text."""
    return str(widget.render())


async def test_hostile_names_render_literally_everywhere(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await to_setup(pilot)
        await new_game(pilot, HOSTILE, first=1, from_start=False)
        await key(pilot, "t")
        assert isinstance(app.screen, TableScreen)
        assert app.screen.query_one("#table-current", BigText).text == "[@click=app.quit]x"
        for seat, name in enumerate(HOSTILE):
            tile = app.screen.query_one(f"#seat-{seat}", Static)
            assert plain(tile).splitlines()[0] == f"{seat + 1} {name}"  # the seat number first
        # Clicking the tile named like an action does not run the action.
        await pilot.click("#seat-1")
        await settled(pilot)
        assert app.is_running
        assert app.screen.query_one("#pick-list", OptionList).highlighted == 1
        await key(pilot, "escape")
        await knock_out(pilot, 0)
        messages = toasts(app)
        assert "[/] is knocked out." in messages
        await key(pilot, "m")
        chart_tile = plain(app.screen.query_one("#seat-1", Static))
        assert "L ▸ [link=x]y" in chart_tile and "R ▸ Zoë 🧇" in chart_tile
        await key(pilot, "enter")
        for seat in (2, 3, 4):
            await knock_out(pilot, seat)
        assert isinstance(app.screen, FinaleScreen)
        await key(pilot, "enter")
        await declare(pilot, [2, 4])
        board = app.screen.query_one("#series-board", DataTable)
        names = [board.get_row_at(row)[0] for row in range(board.row_count)]
        assert all(isinstance(cell, Text) for cell in names)
        assert [cell.plain for cell in names] == HOSTILE
        assert state_of(app).result is not None
    assert app.return_code is None or app.return_code == 0


async def test_control_characters_are_refused_with_the_domain_sentence(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        field = app.screen.query_one("#setup-name", Input)
        field.value = "\x1b[2J"
        await pilot.press("enter")
        error = plain(app.screen.query_one("#setup-error", Static))
        assert "control characters" in error
        assert field.value == "\x1b[2J", "what was typed is kept for fixing"
        assert isinstance(app.screen, SetupScreen) and app.screen.players == []


async def name_field(pilot: Pilot[None]) -> Input:
    """From the start screen: a new series' setup, its name field focused."""
    await pilot.press("n")
    field = pilot.app.screen.query_one("#setup-name", Input)
    field.focus()
    await settled(pilot)
    return field


async def test_a_bracketed_paste_of_colour_codes_is_refused_not_stored(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """Textual's parser types the Escape of a pasted "\\x1b[31m" into the field as "^["."""
    from textual._xterm_parser import XTermParser
    from textual.events import Key

    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        field = await name_field(pilot)
        pasted = "\x1b[200~\x1b[31mZo\u00eb\x1b[0m\x1b[201~"
        for event in XTermParser().feed(pasted):
            if isinstance(event, Key):
                app.post_message(Key(event.key, event.character))
        await settled(pilot)
        assert field.value == "^[31mZo\u00eb^[0m", "what Textual 8.2.8 makes of the paste"
        await pilot.press("enter")
        assert "pasted with colour codes" in plain(app.screen.query_one("#setup-error", Static))
        assert isinstance(app.screen, SetupScreen) and app.screen.players == []
        assert field.value == "^[31mZo\u00eb^[0m", "kept in the field to fix"


async def test_zoe_spelled_two_ways_is_one_player(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        field = await name_field(pilot)
        for spelling in ("Zoe\u0308", "Zo\u00eb"):
            field.value = spelling
            await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen) and app.screen.players == ["Zo\u00eb"]
        assert "Two players are called" in plain(app.screen.query_one("#setup-error", Static))
