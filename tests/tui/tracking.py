"""A silent, fast narrator that knows when it has finished talking.

Snapshot and fuzz tests need the screen to stop changing before they look at
it: captions and countdowns arrive from the narration thread. `TrackedNarrator`
wraps the real narrator (speech disabled, a tiny time scale) and counts the
playbacks that have not reported `Finished` yet; `settle` waits for zero, then
lets the app handle the messages already posted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from time import monotonic
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList

from moderator.narration import Finished, NarrationEvent, VoiceSettings, make_narrator
from moderator.narration.narrator import Narrator
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.screens.setup import SetupScreen
from tests.tui.helpers import app_on
from tests.tui.quiet import BOUND, settled

ScreenT = TypeVar("ScreenT", bound=Screen[Any])


class TrackedNarrator:
    """The real narrator, muted and fast, plus a count of unfinished playbacks."""

    def __init__(self, cache_dir: Path, time_scale: float = 0.01) -> None:
        self.inner: Narrator = make_narrator(
            VoiceSettings(enabled=False), None, cache_dir, time_scale=time_scale
        )
        self._lock = threading.Lock()
        self._running = 0
        #: Scripts played, in order (for tests that check what was narrated).
        self.played: list[str] = []
        #: The context each script was played with, in the same order.
        self.contexts: list[dict[str, object]] = []

    @property
    def warnings(self) -> list[str]:
        """The wrapped narrator's warnings."""
        return self.inner.warnings

    @property
    def languages(self) -> Sequence[Any]:
        """The wrapped narrator's languages."""
        return self.inner.languages

    @property
    def idle(self) -> bool:
        """Whether every playback so far has reported Finished."""
        with self._lock:
            return self._running == 0

    def play(
        self,
        script: str,
        context: Mapping[str, object],
        on_event: Callable[[NarrationEvent], None],
    ) -> None:
        """Play through the real narrator, noting when this playback ends."""
        done = threading.Event()

        def tracked(event: NarrationEvent) -> None:
            try:
                on_event(event)
            finally:
                if isinstance(event, Finished) and not done.is_set():
                    done.set()
                    with self._lock:
                        self._running -= 1

        with self._lock:
            self._running += 1
        self.played.append(script)
        self.contexts.append(dict(context))
        self.inner.play(script, context, tracked)

    def lines(self, script: str, context: Mapping[str, object]) -> list[str]:
        """The captions of a script."""
        return self.inner.lines(script, context)

    def cancel(self) -> None:
        """Silence at once."""
        self.inner.cancel()

    def update_settings(self, settings: Any) -> None:
        """Pass new settings on."""
        self.inner.update_settings(settings)

    def close(self) -> None:
        """Stop the narration thread."""
        self.inner.close()


def tracked_app(folders: Mapping[str, Path]) -> tuple[MindFlayerApp, TrackedNarrator]:
    """The real app on these folders with a tracked, silent narrator."""
    narrator = TrackedNarrator(folders["cache"])
    app = app_on(folders, narrator)
    return app, narrator


async def settle(pilot: Pilot[None], narrator: TrackedNarrator, timeout: float = BOUND) -> None:
    """Wait (bounded) until narration is over and the app has drawn what it said."""
    deadline = monotonic() + timeout
    while not narrator.idle:
        if monotonic() > deadline:
            raise AssertionError(f"narration still running after {timeout} s: {narrator.played}")
        await pilot.pause(0.01)
    # Messages posted before Finished are queued ahead of it: let them land.
    await settled(pilot)


def still_cursor(pilot: Pilot[None]) -> None:
    """Stop text cursors blinking, so a screenshot does not depend on timing."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


# --- driving the app (kept here, so these tests do not move with tests/tui/helpers.py) ---


async def until(
    pilot: Pilot[None], condition: Callable[[], bool], what: str, timeout: float = 60.0
) -> None:
    """Let the app run until `condition()` holds (bounded only against a hang).

    One `pilot.pause()` after a key is not "the key is handled": it waits for the
    messages queued at that moment and for the process to look idle, and on a
    loaded machine a starved process looks idle. A key that changes screens goes
    key -> binding -> intent -> app -> new screen -> compose -> mount, so the
    test waits for the state the key leads to instead.
    """
    deadline = monotonic() + timeout
    while not condition():
        if monotonic() > deadline:
            raise AssertionError(f"not reached after {timeout} s: {what}")
        await pilot.pause(0.01)
    await pilot.pause()


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


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Keys as the table would press them, each delivered before the next.

    The caller waits (`until`, `shown`) for what a key leads to.
    """
    for name in keys:
        pilot.app.simulate_key(name)
        await settled(pilot)


async def seat(pilot: Pilot[None], names: Sequence[str], first: int) -> None:
    """On the setup screen: add `names` clockwise and choose the first player."""
    screen = await shown(pilot, SetupScreen)
    field = screen.query_one("#setup-name", Input)
    field.focus()
    await settled(pilot)
    for count, name in enumerate(names, start=1):
        field.value = name
        await press(pilot, "enter")
        await until(pilot, lambda n=count: len(screen.players) == n, f"{name} seated")
    roster = screen.query_one("#setup-roster", OptionList)
    roster.focus()
    await until(pilot, lambda: roster.has_focus, "the roster focused")
    roster.highlighted = first
    await settled(pilot)
    await press(pilot, "f")
    await until(pilot, lambda: screen.first_player == first, "the first player chosen")
    assert screen.players == list(names), screen.players
    assert screen.first_player == first, screen.first_player


async def start_game(pilot: Pilot[None], names: Sequence[str], first: int = 0) -> None:
    """From the start screen: a new series, the roster seated, the game started."""
    await press(pilot, "n")
    await seat(pilot, names, first)
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


async def knock_out(pilot: Pilot[None], seat_: int) -> None:
    """k, then pick `seat_` in the dialog (it lists the seats still in play)."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    in_play = app.controller.state.in_play
    await press(pilot, "k")
    picker = (await shown(pilot, PickPlayerScreen)).query_one("#pick-list", OptionList)
    picker.highlighted = in_play.index(seat_)
    await pilot.pause()
    await press(pilot, "enter")
    await until(
        pilot,
        lambda: (
            seat_ in app.controller.state.knocked_out
            and not isinstance(app.screen, PickPlayerScreen)
            and app.screen.is_mounted
        ),
        f"seat {seat_} knocked out",
    )
