"""Driving the app like a table would, quickly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from time import monotonic

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from moderator.domain import GameState, IllegalAction, ResultsDeclared
from moderator.table.ports import NarratorLike
from moderator.tui.app import MindFlayerApp
from moderator.tui.run import make_app
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.setup import SetupScreen
from tests.tui.quiet import BOUND, record_toasts, settled

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def app_on(folders: Mapping[str, Path], narrator: NarratorLike) -> MindFlayerApp:
    """The real app on a test's data, config and cache folders, without a voice scripts folder.

    It keeps every toast it raises (`tests.tui.quiet.toasts`), expired or not.
    """
    app = make_app(folders["data"], folders["config"], folders["cache"], None, narrator=narrator)
    record_toasts(app)
    return app


def state_of(app: MindFlayerApp) -> GameState:
    """The open game's saved state."""
    return app.controller.state


async def key(pilot: Pilot[None], *keys: str) -> None:
    """Fast key presses (a burst: one round of the screen's queue each), then all handled."""
    for name in keys:
        pilot.app.simulate_key(name)
        await pilot.pause(0)
    await settled(pilot)


async def to_setup(pilot: Pilot[None]) -> SetupScreen:
    """From the start screen, n: the setup screen of a new series."""
    await key(pilot, "n")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    return screen


async def seat_players(pilot: Pilot[None], names: Sequence[str], first: int = 0) -> None:
    """On the setup screen: type the names in order and choose the first player."""
    app = pilot.app
    assert isinstance(app.screen, SetupScreen)
    field = app.screen.query_one("#setup-name", Input)
    field.focus()
    await pilot.pause(0)
    for name in names:
        field.value = name
        app.simulate_key("enter")
        await pilot.pause(0)
    await settled(pilot)
    app.screen.query_one("#setup-roster").focus()
    app.screen.query_one("#setup-roster").highlighted = first  # type: ignore[attr-defined]
    await key(pilot, "f")


async def new_game(
    pilot: Pilot[None], names: Sequence[str], first: int = 0, *, from_start: bool = True
) -> None:
    """From the start screen (or setup): a new series and a new game, started."""
    if from_start:
        await key(pilot, "n")
    await seat_players(pilot, names, first)
    await key(pilot, "ctrl+s")


async def wait_for(pilot: Pilot[None], predicate: object, bound: float = BOUND) -> None:
    """Pause until `predicate()` is true (narration runs on its own thread).

    Bounded by wall-clock seconds, not by a count of short pauses: a starved
    process takes far longer than its pauses to get there.
    """
    assert callable(predicate)
    deadline = monotonic() + bound
    while not predicate():
        if monotonic() > deadline:
            raise AssertionError(f"condition not reached in {bound} s")
        await pilot.pause(0.02)


async def declare(
    pilot: Pilot[None], possessed: Sequence[int], waffles: dict[int, int] | None = None
) -> None:
    """On the result screen: tick who growled, type Waffles, save."""
    screen = pilot.app.screen
    for seat in possessed:
        screen.query_one(f"#possessed-{seat}").value = True  # type: ignore[attr-defined]
    for seat, count in (waffles or {}).items():
        screen.query_one(f"#waffles-{seat}").value = str(count)  # type: ignore[attr-defined]
    await settled(pilot)
    await key(pilot, "ctrl+s")


async def knock_out(pilot: Pilot[None], seat: int) -> None:
    """Press k and pick `seat` in the dialog (it lists the seats in play)."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    in_play = app.controller.state.in_play
    await key(pilot, "k")
    app.screen.query_one("#pick-list").highlighted = in_play.index(seat)  # type: ignore[attr-defined]
    await key(pilot, "enter")


def shown(widget: Static | Checkbox) -> str:
    """A widget's rendered text, as plain characters (no colour)."""
    return str(widget.render())


async def to_results(pilot: Pilot[None]) -> ResultScreen:
    """Four players; Cy and Dee knocked out end the game; on to the result screen."""
    await new_game(pilot, FOUR)
    await key(pilot, "n")
    await knock_out(pilot, 2)
    await knock_out(pilot, 3)
    assert isinstance(pilot.app.screen, FinaleScreen)
    await key(pilot, "enter")
    screen = pilot.app.screen
    assert isinstance(screen, ResultScreen)
    return screen


def domain_sentence(app: MindFlayerApp, event: ResultsDeclared) -> str:
    """The sentence the domain gives for `event` (the test fails if it accepts it)."""
    game = app.controller.game
    assert game is not None
    with pytest.raises(IllegalAction) as refused:
        game.timeline.check(event)
    return str(refused.value)


async def save_showing_points(pilot: Pilot[None], preview: str, points: Sequence[int]) -> None:
    """On the result screen: the preview ends with `preview`; Ctrl+S saves exactly `points`."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    assert shown(app.screen.query_one("#result-winner", Static)).endswith(preview)
    await key(pilot, "ctrl+s")
    result = state_of(app).result
    assert result is not None and result.points == tuple(points)


async def history_read(pilot: Pilot[None]) -> None:
    """Wait until the History dialog has read the history (its worker) and shown it."""
    screen = pilot.app.screen
    await pilot.app.workers.wait_for_complete([w for w in pilot.app.workers if w.node is screen])
    await pilot.pause()
