"""Names typed quickly, one after the other, all arrive intact."""

from __future__ import annotations

from collections.abc import Callable

from driving import to_setup
from no_message_left import settled
from textual.widgets import Input

from moderator.tui.app import MindFlayerApp

NAMES = ["Ann", "Bob", "[/]", "Dee", "Zoë"]


async def test_keys_typed_right_after_enter_start_the_next_name(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await to_setup(pilot)
        screen.query_one("#setup-name", Input).focus()
        # Queue every key without waiting: as fast as a typist who never pauses.
        for name in NAMES:
            for char in name:
                app.simulate_key(char)
            app.simulate_key("enter")
        app.simulate_key("E")
        await settled(pilot)
        assert screen.players == NAMES
        assert screen.query_one("#setup-name", Input).value == "E"


async def test_a_refused_name_stays_in_the_field_to_fix(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await to_setup(pilot)
        field = screen.query_one("#setup-name", Input)
        field.focus()
        for name in ("Ann", "ANN"):
            field.value = name
            await pilot.press("enter")
        assert screen.players == ["Ann"]
        assert field.value == "ANN"
        assert "Two players are called" in str(screen.query_one("#setup-error").render())
