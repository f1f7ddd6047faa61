"""Waiting for the app to have handled what it was given, by its queues, not by the CPU.

`Pilot.pause()` waits until the process's CPU time stops advancing against the
wall clock. On a loaded machine a starved process does not advance either, so
it looked idle and the pause returned before a key's effect (a screen switch,
a saved state) had happened: the next assert saw the old screen. `settled`
waits instead until every message pump of the app (the app, its screens and
their widgets) has caught up (a callback queued on each has run) and then holds
no message or callback, twice in a row; it fails only if that never happens within `BOUND`
seconds, far beyond any key's work.

`ToastLog` keeps every toast the app raised: Textual drops a toast from
`App._notifications` once its timeout (3 s for a notice) has passed by the wall
clock, which a starved test can take between the key and the assert. It is
the one place the tests reach Textual's private toast collection: the tests
read toasts through `raised`, `toasts` and `toasts_up`.
"""

from __future__ import annotations

import asyncio
from time import monotonic

import pytest
from textual.app import App
from textual.message_pump import MessagePump
from textual.notifications import Notification, Notifications
from textual.pilot import Pilot
from textual.reactive import reactive
from textual.widgets import Input

#: Seconds `settled` waits for a quiet app before failing: generous, it only ends a hang.
BOUND = 60.0


def _pumps(app: App[object]) -> list[MessagePump]:
    """Every message pump of the app: itself, its screens and their widgets."""
    pumps: list[MessagePump] = [app, *app.screen_stack, *app._registry]
    return [pump for pump in dict.fromkeys(pumps) if not pump._closed]


def busy_pumps(app: App[object]) -> list[str]:
    """The app's pumps with a message queued or a callback pending (empty when quiet)."""
    return [repr(pump) for pump in _pumps(app) if pump.message_queue_size or pump._next_callbacks]


async def _round(app: App[object], bound: float) -> None:
    """Let every pump finish what it is handling and what it holds now.

    A callback queued on each pump runs after the messages before it, so once
    all have run no pump is still inside a handler it had begun (Textual's
    queue cannot say whether a message is being handled).
    """
    pending = 0
    all_ran = asyncio.Event()

    def ran() -> None:
        nonlocal pending
        pending -= 1
        if pending == 0:
            all_ran.set()

    for pump in _pumps(app):
        if pump.call_later(ran):
            pending += 1
    if pending:
        await asyncio.wait_for(all_ran.wait(), bound)


async def settled(pilot: Pilot[object], bound: float = BOUND) -> None:
    """Wait until the app has handled every message and callback it holds (bounded).

    Quiet means: after a round in which every pump caught up, no pump holds a
    message or callback, twice in a row (a round's own handlers may post more).
    """
    app = pilot.app
    deadline = monotonic() + bound
    quiet = 0
    while quiet < 2:
        await _round(app, bound)
        await asyncio.sleep(0)
        busy = busy_pumps(app)
        quiet = 0 if busy else quiet + 1
        if busy and monotonic() > deadline:
            raise AssertionError(f"the app was still busy after {bound} s: {busy[:5]}")
    app.screen._on_timer_update()  # lay out what changed, as Pilot.pause does


def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every `Input` mount with its cursor still (Textual's `cursor_blink` off).

    A focused field's cursor toggles every half second. On a loaded machine one
    round of `settled` takes longer than that, so a blink was always pending and
    the app never looked quiet: a key's wait failed after `BOUND` seconds
    ("still busy: WaffleInput"). The blink carries no state a test reads.
    """
    still = reactive(False, init=False)
    still.__set_name__(Input, "cursor_blink")
    monkeypatch.setattr(Input, "cursor_blink", still)


class ToastLog(Notifications):
    """The app's notifications, plus every one ever added (`shown`), expired or not."""

    def __init__(self) -> None:
        super().__init__()
        #: Every notification added, in order.
        self.shown: list[Notification] = []
        #: The identities of those the app withdrew or cleared (not those that expired).
        self.withdrawn: set[str] = set()

    def add(self, notification: Notification) -> ToastLog:
        """Keep `notification`, then add it as Textual does."""
        self.shown.append(notification)
        super().add(notification)
        return self

    def __delitem__(self, notification: Notification) -> None:
        """Note a toast the app withdrew (`App._unnotify`), then forget it as Textual does."""
        self.withdrawn.add(notification.identity)
        super().__delitem__(notification)

    def clear(self) -> ToastLog:
        """Note every toast cleared (`App.clear_notifications`), then clear as Textual does."""
        self.withdrawn.update(notification.identity for notification in self.shown)
        super().clear()
        return self


def record_toasts(app: App[object]) -> ToastLog:
    """Make `app` keep every toast it raises (call before the app runs)."""
    log = ToastLog()
    app._notifications = log  # the collection Textual adds toasts to
    return log


def raised(app: App[object]) -> list[Notification]:
    """Every toast `app` raised (see `record_toasts`), expired or not, in order."""
    log = app._notifications
    assert isinstance(log, ToastLog), "the app was not built with record_toasts"
    return list(log.shown)


def toasts(app: App[object]) -> list[str]:
    """The messages of every toast `app` raised (see `record_toasts`), expired or not."""
    return [notification.message for notification in raised(app)]


def toasts_up(app: App[object]) -> list[Notification]:
    """The toasts `app` still shows: raised and not withdrawn nor cleared.

    Expiry is not counted: a starved test can take longer than a toast's
    timeout between the key and the assert.
    """
    log = app._notifications
    assert isinstance(log, ToastLog), "the app was not built with record_toasts"
    return [n for n in log.shown if n.identity not in log.withdrawn]
