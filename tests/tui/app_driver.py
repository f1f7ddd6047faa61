"""The one test driver: the real app on a test's folders, driven like a table would.

Every helper waits for what it did by the app's queues (`settled`) or by the
state it leads to (`until`, `shown`), never by `pilot.pause()`: on a loaded
machine a starved process looks idle, and a pause returns before a key's
effect (a screen switch, a saved state) has happened.

Snapshot and fuzz tests need the screen to stop changing before they look at
it: captions and countdowns arrive from the narration thread. `TrackedNarrator`
wraps the real narrator (speech disabled, a tiny time scale) and counts the
playbacks that have not reported `Finished` yet; `settle` waits for zero, then
lets the app handle the messages already posted.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from time import monotonic
from typing import Any, TypeVar

import pytest
from controller_shortcuts import seated
from driving import key, press, shown, until
from no_message_left import BOUND, caught_up, record_toasts, settled
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Checkbox, Input, OptionList, Select, Static

from moderator.domain import GameState, IllegalAction, ResultsDeclared
from moderator.narration import Finished, NarrationEvent, VoiceSettings, make_narrator
from moderator.narration.narrator import Narrator
from moderator.table.config import SETTINGS_FILE, TableSettings
from moderator.table.ports import NarratorLike
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.run import make_app
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.picker import Picker

ScreenT = TypeVar("ScreenT", bound=Screen[Any])

#: Ten players, the most a game seats.
TEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]


def app_on(folders: Mapping[str, Path], narrator: NarratorLike) -> MindFlayerApp:
    """The real app on a test's data, config and cache folders, without a voice scripts folder.

    It keeps every toast it raises (`no_message_left.toasts`), expired or not.
    """
    app = make_app(folders["data"], folders["config"], folders["cache"], None, narrator=narrator)
    record_toasts(app)
    return app


def state_of(app: MindFlayerApp) -> GameState:
    """The open game's saved state."""
    return app.controller.state


def speaking(folders: Mapping[str, Path], lang: str) -> None:
    """The table's language is `lang` for the next app on `folders` (its settings file, as the
    Settings dialog writes it)."""
    (folders["config"] / SETTINGS_FILE).write_text(json.dumps({"lang": lang}), encoding="utf-8")


def text_of(widget: Static | Checkbox) -> str:
    """A widget's rendered text, as plain characters (no colour)."""
    return str(widget.render())


def screen_text(where: App[Any] | Screen[Any]) -> str:
    """Every text widget of `where`'s screen (the app's current one), as plain characters."""
    return "\n".join(text_of(widget) for widget in where.screen.query(Static))


def footer(app: App[Any]) -> str:
    """The footer (key bar) as drawn at the app's width (its short words where the full ones
    do not fit)."""
    return str(app.screen.query_one(KeyBar).render())


def words_of(where: App[Any] | Screen[Any], selector: str) -> str:
    """The words of the Static `selector` on `where`'s screen (the app's current one)."""
    return text_of(where.screen.query_one(selector, Static))


def keys_listed(app: App[Any]) -> list[str]:
    """Every key the footer has (before a narrow line leaves some out), as described."""
    return [item.description for item in app.screen.query_one(KeyBar).items]


def header(app: App[Any]) -> str:
    """The header's title line, as drawn."""
    return str(app.screen.query_one("HeaderTitle").render())


# --- a narrator that knows when it has finished talking ---


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


async def narration_over(
    pilot: Pilot[None], narrator: TrackedNarrator, timeout: float = BOUND
) -> None:
    """Wait (bounded) until narration is over and the app has drawn what it said."""
    deadline = monotonic() + timeout
    while not narrator.idle:
        if monotonic() > deadline:
            raise AssertionError(f"narration still running after {timeout} s: {narrator.played}")
        await caught_up(pilot, 0.01)
    # Messages posted before Finished are queued ahead of it: let them land.
    await settled(pilot)


def still_cursor(pilot: Pilot[None]) -> None:
    """Stop text cursors blinking, so a screenshot does not depend on timing."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


#: A way to one screen of the app, driven by the keys, for a snapshot of it.
Scenario = Callable[[Pilot[None], TrackedNarrator], Awaitable[None]]


def snapshot(
    snap_compare: Callable[..., bool],
    folders: Mapping[str, Path],
    scenario: Scenario,
    size: tuple[int, int] = (80, 24),
) -> bool:
    """Run `scenario` on a fresh app, wait until all is still, compare the screen.

    Still: the narration over and drawn, the toasts cleared, the cursors not
    blinking, the app's queues empty; then the SVG does not depend on timing.
    """
    app, narrator = tracked_app(folders)

    async def run_before(pilot: Pilot[None]) -> None:
        await scenario(pilot, narrator)
        await narration_over(pilot, narrator)
        pilot.app.clear_notifications()
        still_cursor(pilot)
        await settled(pilot)

    return snap_compare(app, terminal_size=size, run_before=run_before)


# --- setting up and playing a game ---


def seat_question(app: App[Any]) -> Picker | None:
    """The seat question open over the current screen (knock-out, sit-out), if any."""
    screen = app.screen
    if isinstance(screen, PlayScreen) and screen.asking:
        return screen.query_one("#pick-box.seat-question", Picker)
    return None


#: Six players: enough for the eyes-closed reveal (6 to 10), the fewest that have it.
REVEAL_SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


async def at_the_reveal(pilot: Pilot[None], settings: TableSettings | None = None) -> RevealScreen:
    """From the start screen: six players seated (`settings` first, if given), at the reveal."""
    if settings is not None:
        pilot.app.controller.change_settings(settings)  # type: ignore[attr-defined]
    screen = await seated(pilot, list(REVEAL_SIX))
    assert isinstance(screen, RevealScreen)
    return screen


async def at_the_table(pilot: Pilot[None], names: Sequence[str]) -> TableScreen:
    """A new series' first game of `names`, past the reveal (6 and more players): the table
    screen, with its snapshot."""
    if isinstance(await seated(pilot, names), RevealScreen):
        await key(pilot, "t")
    screen = await shown(pilot, TableScreen)
    assert screen.snapshot is not None
    return screen


async def asked(pilot: Pilot[None]) -> Picker:
    """Wait until a seat question is open over the current screen; the picker showing it."""
    await until(pilot, lambda: seat_question(pilot.app) is not None, "a seat question")
    picker = seat_question(pilot.app)
    assert picker is not None
    return picker


async def knock_out(pilot: Pilot[None], seat: int) -> None:
    """k, then pick `seat` in the question (it lists the seats still in play)."""
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    in_play = app.controller.state.in_play
    await press(pilot, "k")
    picker = (await asked(pilot)).query_one("#pick-list", OptionList)
    picker.highlighted = in_play.index(seat)
    await settled(pilot)
    await press(pilot, "enter")
    await until(
        pilot,
        lambda: (
            seat in app.controller.state.knocked_out
            and seat_question(app) is None
            and app.screen.is_mounted
        ),
        f"seat {seat} knocked out",
    )


async def choose_in_the_settings(
    pilot: Pilot[None], narrator: TrackedNarrator, lang: str, back_on: type[Screen[None]]
) -> None:
    """F2, the language `lang`, Ctrl+S: back on the `back_on` screen, its voice done."""
    await key(pilot, "f2")
    dialog = await shown(pilot, SettingsScreen)
    dialog.query_one("#settings-lang", Select).value = lang
    await settled(pilot)
    await key(pilot, "ctrl+s")
    await shown(pilot, back_on)
    await narration_over(pilot, narrator)


async def play_quick_game(
    pilot: Pilot[None], possessed: int, knocked: tuple[int, int], waffles: dict[int, int]
) -> None:
    """A 4-player game ended by two knock-outs, results entered."""
    for seat in knocked:
        await knock_out(pilot, seat)
    assert isinstance(pilot.app.screen, FinaleScreen)
    await key(pilot, "enter")
    await declare(pilot, [possessed], waffles)
    assert isinstance(pilot.app.screen, SeriesScreen)


#: What the `at_results` fixture opens: the app, its pilot, the result screen reached.
AtResults = tuple[MindFlayerApp, Pilot[None], ResultScreen]
#: The `at_results` fixture: `async with at_results(size=..., notifications=...) as (app,
#: pilot, screen)`; by default 80x24, toasts hidden (as `run_test`).
ReachResults = Callable[..., AbstractAsyncContextManager[AtResults]]


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
    assert text_of(app.screen.query_one("#result-winner", Static)).endswith(preview)
    await key(pilot, "ctrl+s")
    result = state_of(app).result
    assert result is not None and result.points == tuple(points)


async def history_read(pilot: Pilot[None]) -> None:
    """Wait until the History dialog has read the history (its worker) and shown it."""
    screen = pilot.app.screen
    await pilot.app.workers.wait_for_complete([w for w in pilot.app.workers if w.node is screen])
    await settled(pilot)
