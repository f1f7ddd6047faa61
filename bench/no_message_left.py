"""Waiting for the app to have handled what it was given, by its queues, not by the CPU.

`Pilot.pause()` waits until the process's CPU time stops advancing against the
wall clock. On a loaded machine a starved process does not advance either, so
it looked idle and the pause returned before a key's effect (a screen switch,
a saved state) had happened: the next assert saw the old screen. `settled`
waits instead until every message pump of the app (the app, its screens and
their widgets) has caught up (a callback queued on each has run) and then holds
no message or callback, twice in a row, and laying out the screen leaves it so; it fails only
if that never happens within `BOUND` seconds, far beyond any key's work.

`ToastLog` keeps every toast the app raised: Textual drops a toast from
`App._notifications` once its timeout (3 s for a notice) has passed by the wall
clock, which a starved test can take between the key and the assert. It is
the one place the tests reach Textual's private toast collection: the tests
read toasts through `raised`, `toasts` and `toasts_up`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from time import monotonic

import pytest
from textual.app import App
from textual.message_pump import MessagePump
from textual.notifications import Notification, Notifications
from textual.pilot import Pilot
from textual.reactive import reactive
from textual.widgets import Input

#: Seconds without progress after which `settled` fails: it only ends a hang.
BOUND = 60.0
#: How often (seconds) a wait looks at the app's progress.
LOOK_EVERY = 0.5
#: A wait that keeps moving still ends after this many `BOUND`s (an app busy for ever).
CAP = 10


def _pumps(app: App[object]) -> list[MessagePump]:
    """Every message pump of the app: itself, its screens and their widgets."""
    pumps: list[MessagePump] = [app, *app.screen_stack, *app._registry]
    return [pump for pump in dict.fromkeys(pumps) if not pump._closed]


def busy_pumps(app: App[object]) -> list[str]:
    """The app's pumps with a message queued or a callback pending (empty when quiet)."""
    return [repr(pump) for pump in _pumps(app) if pump.message_queue_size or pump._next_callbacks]


def _heads(app: App[object]) -> tuple[object, ...]:
    """What each pump handles next: its first queued message and its first callback.

    The objects themselves, not their `id`s: a relay frees each message as it
    posts the next, and CPython gives the new one the freed one's address, so
    the ids of a relay in full flow looked the same at 30 of 34 looks 50 ms apart
    and a moving app was taken for a stuck one ("no progress", then "No screens on
    stack" as the test left an app still relaying). Holding the objects keeps
    their addresses taken, so a new message is always a new head. A burst
    shrinking its queue and a relay both change the heads; a stuck pump does not.
    """
    heads: list[object] = []
    for pump in _pumps(app):
        queued: Sequence[object] = pump._message_queue.values  # Textual's own queue
        heads.append(queued[0] if queued else None)
        heads.append(pump._next_callbacks[0] if pump._next_callbacks else None)
    return tuple(heads)


def _same_heads(before: tuple[object, ...], after: tuple[object, ...]) -> bool:
    """Whether no pump has taken anything between two looks (compared by identity)."""
    return len(before) == len(after) and all(a is b for a, b in zip(before, after, strict=True))


class Stall:
    """A clock that fails a wait only when the app makes no progress for `bound` seconds.

    Progress is any pump taking the next thing it holds (`_heads` changed). A burst
    of 300 keys on a starved machine takes longer than any fixed bound but is always
    moving; a hung app stands still and fails after `bound`. An app busy for ever (a
    timer that keeps posting) moves too: `CAP` x `bound` in all ends that.
    """

    def __init__(self, app: App[object], bound: float) -> None:
        self.app, self.bound = app, bound
        self.heads = _heads(app)
        self.started = self.since = monotonic()

    def check(self) -> None:
        """Note the progress since the last look; fail once it has stood for `bound` s."""
        heads, now = _heads(self.app), monotonic()
        if not _same_heads(heads, self.heads):
            self.heads, self.since = heads, now
        busy = busy_pumps(self.app)[:5]
        if now - self.since > self.bound:
            raise AssertionError(f"the app made no progress for {self.bound} s: {busy}")
        if now - self.started > CAP * self.bound:
            raise AssertionError(f"the app was still busy after {CAP * self.bound} s: {busy}")


async def _round(app: App[object], bound: float) -> None:
    """Let every pump finish what it is handling and what it holds now.

    A callback queued on each pump runs after the messages before it, so once
    all have run no pump is still inside a handler it had begun (Textual's
    queue cannot say whether a message is being handled). Every pump gets one,
    even a pump that looks idle (waiting on an empty queue): skipping those
    (tried for speed) let the wait end before a widget shown a moment earlier
    was laid out (its region still empty), in 2 of 12 runs beside a busy loop,
    0 of 16 with a callback on every pump.
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
    stall: Stall | None = None  # taken at the first slow look: most rounds end before
    while pending:
        try:
            await asyncio.wait_for(all_ran.wait(), LOOK_EVERY)
        except TimeoutError:
            stall = stall or Stall(app, bound)
            stall.check()


async def caught_up(pilot: Pilot[object], delay: float = 0.0) -> None:
    """What `Pilot.pause(delay)` does, without a callback to a pump already waiting.

    One round (every pump of the app past what it held: `_round`), `delay`
    seconds, then the screen laid out and drawn. Pilot's own wait posts a
    callback to every widget of the screen each time, which a fuzz step or a
    poll paid for again and again. Not a wait for quiet: that is `settled`.
    """
    await _round(pilot.app, BOUND)
    await asyncio.sleep(delay)
    pilot.app.screen._on_timer_update()


async def settled(pilot: Pilot[object], bound: float = BOUND) -> None:
    """Wait until the app has handled every message and callback it holds.

    Quiet means: after a round in which every pump caught up, no pump holds a
    message or callback, twice in a row (a round's own handlers may post more).
    Bounded by progress, not by the clock: see `Stall`.
    """
    app = pilot.app
    stall = Stall(app, bound)
    while True:
        quiet = 0
        while quiet < 2:
            await _round(app, bound)
            await asyncio.sleep(0)
            busy = busy_pumps(app)
            quiet = 0 if busy else quiet + 1
            if busy:
                stall.check()
        # Lay out what changed, as Pilot.pause does. On a starved loop the screen's own
        # update timer may not have run yet, so this pass is the one that moves widgets,
        # and it posts their Resize events: a widget that places its children on
        # Resize (the table picture's tiles) has not done so yet. Quiet again, then.
        app.screen._on_timer_update()
        if not busy_pumps(app):
            return
        stall.check()


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
