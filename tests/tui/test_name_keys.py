"""A fast name fix keeps every key (issue 15, item 10).

Keys are queued on the app without waiting, as a fast typist's reach it in one
read: a bound key (e, End, Backspace) must act before the letters typed behind
it, and the name field must not select the name it is given to fix.
"""

from __future__ import annotations

from collections.abc import Callable

from driving import seat_players, to_setup
from no_message_left import settled
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.setup import SetupScreen

ROSTER = ["Ann", "Bob", "Noah", "Dee"]


def typed(app: MindFlayerApp, *keys: str) -> None:
    """Queue keys as the terminal sends them: a name, or a single character."""
    for name in keys:
        character = {"space": " "}.get(name, name if len(name) == 1 else None)
        app.post_message(events.Key(name, character))


async def noah_highlighted(pilot: Pilot[None]) -> SetupScreen:
    """The setup with `ROSTER` seated and Noah highlighted in the focused roster."""
    screen = await to_setup(pilot)
    await seat_players(pilot, ROSTER)
    screen.query_one("#setup-roster").highlighted = 2  # type: ignore[attr-defined]
    await settled(pilot)
    return screen


async def test_fix_then_end_then_letters_in_one_burst_keeps_the_name(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await noah_highlighted(pilot)
        typed(app, "e", "end", "space", "B", "enter")
        await settled(pilot)
        assert screen.players == ["Ann", "Bob", "Noah B", "Dee"]


async def test_end_right_after_the_fix_field_took_focus_acts_before_the_letters(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await noah_highlighted(pilot)
        typed(app, "e")
        await settled(pilot)
        field = screen.query_one("#setup-name", Input)
        assert app.focused is field and field.value == "Noah"
        assert field.selection.is_empty, "the name to fix is not selected (a letter would wipe it)"
        typed(app, "end", "space", "B")
        await settled(pilot)
        assert field.value == "Noah B"


async def test_backspace_in_a_burst_deletes_the_letter_before_it(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await to_setup(pilot)
        field = screen.query_one("#setup-name", Input)
        field.focus()
        await settled(pilot)
        typed(app, "N", "o", "a", "backspace", "h", "left", "x", "enter")
        await settled(pilot)
        assert screen.players == ["Noxh"]
