"""The test helpers' waits hold on a starved machine (tests/tui/quiet.py).

A CPU-starved process is modelled by pinning `process_time` (what Textual's
idle wait reads): a process that gets no CPU does not advance it either.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import textual._wait
import textual.notifications
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Input, Static

from tests.tui.quiet import busy_pumps, record_toasts, settled, toasts

STEPS = 200


class Step(Message, bubble=False):
    """One step of a relay between the app and a widget."""

    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left


class Relay(Static):
    """Passes each step back to the app, after a millisecond of work."""

    def on_step(self, step: Step) -> None:
        time.sleep(0.001)  # a key's real work: a save, a layout
        self.app.post_message(Step(step.left - 1))


class RelayApp(App[None]):
    """x starts a relay of STEPS messages between the app and its widget."""

    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def compose(self) -> ComposeResult:
        yield Relay(id="relay")

    BINDINGS = [("x", "relay", "Relay")]

    def action_relay(self) -> None:
        """Start the relay."""
        self.screen.query_one(Relay).post_message(Step(STEPS))

    def on_step(self, step: Step) -> None:
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
        assert not list(app._notifications)  # Textual has dropped it
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
