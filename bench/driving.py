"""The real app driven like a table would: keys, waits for what they lead to, a new game.

Why here, beside the benches: the benches that time the app (the board, the
prepared narration, the read-aloud key) drive it exactly as the tests do, and a
bench may not import the tests (`make bench` runs on its own). The tests import
these from here; `no_message_left.settled` is the wait they all end with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import monotonic
from typing import Any, TypeVar

from no_message_left import BOUND, caught_up, settled
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.setup import SetupScreen

FOUR = ["Ann", "Bob", "Cy", "Dee"]

ScreenT = TypeVar("ScreenT", bound=Screen[Any])


# --- waiting ---


async def until(
    pilot: Pilot[None],
    condition: Callable[[], object],
    what: str = "the awaited condition",
    timeout: float = BOUND,
) -> None:
    """Let the app run until `condition()` holds, then until its queues are quiet.

    Bounded by wall-clock seconds only against a hang: a starved process takes
    far longer than its polls to get there. A key that changes screens goes
    key -> binding -> intent -> app -> new screen -> compose -> mount, and
    narration arrives from its own thread, so the test waits for the state the
    key leads to.
    """
    deadline = monotonic() + timeout
    while not condition():
        if monotonic() > deadline:
            raise AssertionError(f"not reached after {timeout} s: {what}")
        await caught_up(pilot, 0.01)
    await settled(pilot)


async def shown(pilot: Pilot[None], kind: type[ScreenT]) -> ScreenT:
    """Wait until the app shows a `kind` screen that has mounted (its `entered` has run).

    A phase screen fills its fields in `on_mount`; a value a test sets before then
    is overwritten, and a query made while it composes finds nothing.
    """
    await until(
        pilot,
        lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen.is_mounted,
        f"a mounted {kind.__name__} (showing {type(pilot.app.screen).__name__})",
    )
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


# --- keys ---


async def key(pilot: Pilot[None], *keys: str) -> None:
    """Fast key presses (a burst: one round of the screen's queue each), then all handled."""
    for name in keys:
        pilot.app.simulate_key(name)
        await pilot.pause(0)
    await settled(pilot)


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Keys as the table would press them, each handled before the next."""
    for name in keys:
        pilot.app.simulate_key(name)
        await settled(pilot)


# --- setting up and playing a game ---


async def to_setup(pilot: Pilot[None]) -> SetupScreen:
    """From the start screen, n: the setup screen of a new series."""
    await key(pilot, "n")
    return await shown(pilot, SetupScreen)


async def seat_players(pilot: Pilot[None], names: Sequence[str], first: int = 0) -> None:
    """On the setup screen: type the names in order and choose the first player.

    A name the screen refuses (too many, a duplicate) stays refused: the caller
    checks the roster.
    """
    screen = await shown(pilot, SetupScreen)
    field = screen.query_one("#setup-name", Input)
    field.focus()
    await settled(pilot)
    for name in names:
        field.value = name
        await press(pilot, "enter")
    roster = screen.query_one("#setup-roster", OptionList)
    roster.focus()
    await until(pilot, lambda: roster.has_focus, "the roster focused")
    roster.highlighted = first
    await settled(pilot)
    await press(pilot, "f")


async def new_game(
    pilot: Pilot[None], names: Sequence[str], first: int = 0, *, from_start: bool = True
) -> None:
    """From the start screen (or setup): a new series and a new game, started and shown."""
    if from_start:
        await key(pilot, "n")
    await seat_players(pilot, names, first)
    await press(pilot, "ctrl+s")
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    await until(
        pilot,
        lambda: (
            app.controller.game is not None
            and not isinstance(app.screen, SetupScreen)
            and app.screen.is_mounted
        ),
        "the game started and its first screen shown",
    )
