"""The test helpers' waits hold on a starved machine (bench/no_message_left.py).

A CPU-starved process is modelled by pinning `process_time` (what Textual's
idle wait reads): a process that gets no CPU does not advance it either.
"""

from __future__ import annotations

import asyncio
import time

import no_message_left
import pytest
import textual._wait
import textual.notifications
from no_message_left import Stall, busy_pumps, record_toasts, settled, toasts
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from moderator.tui.textual_fixes import private

STEPS = 200


class Step(Message, bubble=False):
    """One step of a relay between the app and a widget."""

    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left


class Relay(Static):
    """Passes each step back to the app, after a millisecond of work."""

    def on_step(self, step: Step) -> None:
        app = self.app
        assert isinstance(app, RelayApp)
        time.sleep(app.work)  # a key's real work: a save, a layout
        app.post_message(Step(step.left - 1))


class RelayApp(App[None]):
    """x starts a relay of STEPS messages between the app and its widget."""

    def __init__(self, work: float = 0.001) -> None:
        super().__init__()
        self.done = False
        #: Steps the app has handled.
        self.steps = 0
        #: Seconds of work per step.
        self.work = work

    def compose(self) -> ComposeResult:
        yield Relay(id="relay")

    BINDINGS = [("x", "relay", "Relay")]

    def action_relay(self) -> None:
        """Start the relay."""
        self.screen.query_one(Relay).post_message(Step(STEPS))

    def on_step(self, step: Step) -> None:
        self.steps += 1
        if not self.screen_stack:  # a failed test left the app: its error is the one to see
            return
        if step.left <= 0:
            self.done = True
        else:
            self.screen.query_one(Relay).post_message(step)


async def test_settled_waits_for_a_key_s_whole_effect_when_the_cpu_looks_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = RelayApp()
    async with app.run_test() as pilot:
        monkeypatch.setattr(textual._wait, "process_time", lambda: 0.0)  # starved
        app.simulate_key("x")
        await settled(pilot)
        assert app.done


async def test_a_toast_is_still_read_after_its_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    app = RelayApp()
    record_toasts(app)
    async with app.run_test(notifications=True) as pilot:
        app.notify("Undone: Dee knocked out.", timeout=3)
        await settled(pilot)
        later = time.time() + 10  # the test was starved for 10 s after the key
        monkeypatch.setattr(textual.notifications, "time", lambda: later)
        assert not private.live_notices(app)  # Textual has dropped it
        assert toasts(app) == ["Undone: Dee knocked out."]


async def test_a_focused_field_holds_no_pending_work_between_keys() -> None:
    """The still-cursor hook (autouse here): a focused field has nothing queued while idle.

    Its blink queued work every half second; on a loaded machine each round of
    `settled` outlasted that, so the app never looked quiet twice in a row and a
    key's wait failed after `BOUND` s ("still busy: WaffleInput"). Without the hook
    the polls below see the field busy at most blinks; with it, never.
    """

    class Field(App[None]):
        def compose(self) -> ComposeResult:
            yield Input(id="field")

        def on_mount(self) -> None:
            self.query_one(Input).focus()

    app = Field()
    async with app.run_test() as pilot:
        await settled(pilot)
        busy: list[str] = []
        for _ in range(300):  # three seconds: six blinks
            await asyncio.sleep(0.01)
            busy += [pump for pump in busy_pumps(app) if "Input" in pump]
        assert busy == []


async def test_a_long_burst_that_keeps_moving_outlasts_the_bound() -> None:
    """A wait fails on a standstill, not on a slow machine.

    A burst of 300 keys on a starved CI machine took longer than `settled`'s whole
    60 s bound and failed though the app never stopped working. Here the same shape,
    scaled down: 2 s of steady work (200 steps of 10 ms) against a bound of 0.3 s.
    """
    app = RelayApp(work=0.01)
    async with app.run_test() as pilot:
        app.simulate_key("x")
        await settled(pilot, bound=0.3)
        assert app.done


async def test_every_second_step_of_a_relay_is_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """A relay in full flow is progress at every look, however its messages are allocated.

    The relay frees each message as it posts the next, and CPython gives a new
    message a freed one's address: compared by `id`, two steps apart the heads
    looked the same, and a wait with a short bound took a moving app for a stuck
    one. A bound of a nanosecond fails any look that sees no progress. Looks are
    taken while the app holds a message, as `settled` takes them (a pump inside a
    handler holds nothing, and an app holding nothing is quiet, not stuck).
    """
    monkeypatch.setattr(no_message_left, "CAP", 10**12)  # only the no-progress bound here
    app = RelayApp()
    async with app.run_test():
        stall = Stall(app, bound=1e-9)
        app.simulate_key("x")
        looked = seen = 0
        while not app.done:
            await asyncio.sleep(0)
            if app.steps >= seen + 2 and busy_pumps(app):
                seen = app.steps
                stall.check()
                looked += 1
        assert looked >= STEPS // 4  # the relay was looked at all along


class Stuck(Static):
    """Waits on the first step it gets until released, with more steps queued behind it."""

    def __init__(self) -> None:
        super().__init__(id="stuck")
        self.release = asyncio.Event()

    async def on_step(self, step: Step) -> None:
        await self.release.wait()


class StuckApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Stuck()


async def test_an_app_that_stands_still_fails_the_wait() -> None:
    app = StuckApp()
    async with app.run_test() as pilot:
        stuck = app.query_one(Stuck)
        for left in range(3):
            stuck.post_message(Step(left))
        with pytest.raises(AssertionError, match="no progress"):
            await settled(pilot, bound=1.0)
        stuck.release.set()


async def test_a_handler_still_running_with_nothing_queued_is_waited_for() -> None:
    """A pump inside a handler, its queue empty, is not idle: `settled` waits for it.

    An empty queue does not say a pump is done: this one is handling its only step.
    """
    app = StuckApp()
    async with app.run_test() as pilot:
        await settled(pilot)
        stuck = app.query_one(Stuck)
        stuck.post_message(Step(0))
        await asyncio.sleep(0.05)  # the step is taken: the queue is empty again
        assert not busy_pumps(app)
        try:
            with pytest.raises(AssertionError, match="no progress"):
                await settled(pilot, bound=1.0)
        finally:
            stuck.release.set()  # else the app could not close: the test would hang
        await settled(pilot)


class Placer(Static):
    """Places what it shows on Resize, as the table picture places its tiles."""

    placed_for: Size | None = None

    def on_resize(self, event: events.Resize) -> None:
        self.placed_for = event.size


class GrowingApp(App[None]):
    CSS = "#above { height: auto; } Placer { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Static("one line", id="above")
        yield Placer("tiles")


async def test_settled_waits_for_the_resize_its_own_layout_posts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loaded run drew a Meeting's tiles where the old, taller picture had them.

    On a starved loop the screen's update timer had not run when the queues went
    quiet, so `settled`'s closing layout pass was the one that shrank the picture,
    and the Resize it posted was still queued when the test read the tiles. Here
    the screen's own updates never run, which makes that order certain.
    """
    resume = Timer.resume

    def never_for_the_screen(timer: Timer) -> None:
        if timer.name != "screen_update":
            resume(timer)

    monkeypatch.setattr(Timer, "resume", never_for_the_screen)
    app = GrowingApp()
    async with app.run_test(size=(40, 12)) as pilot:
        await settled(pilot)
        placer = app.query_one(Placer)
        app.query_one("#above", Static).update("\n".join(["a longer text"] * 5))
        await settled(pilot)
        assert placer.size.height == 12 - 5, "the text above took five rows"
        assert placer.placed_for == placer.size, "its Resize was handled before settled returned"
