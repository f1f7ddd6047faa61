"""Fixes to Textual applied when the app is built (Textual 8.2.8).

Toast timers. A notification's toast computes its remaining time twice: the toast rack keeps
the notification if `has_expired` is false, then the new `Toast` reads
`time_left` again. Between the two reads the time can run out, so the toast
starts `set_timer` with a tiny negative delay (about -0.00006 s). Textual's
timer loop, given a negative interval, computes its skip count as 0 forever
without ever awaiting: the app froze at 100% CPU. A toast's timer is started
with at least `MIN_TIMER_DELAY`, which expires it on the next tick as intended.

Header titles. `Header` sets its title from a watcher that runs after the
header is mounted; when keys arrive in a burst, a screen can be shown and
removed at once, so the watcher runs after the title widget was removed and
raised "No nodes match 'HeaderTitle'" (Textual only catches `NoScreen`
there). The title of a header being removed is not needed: it is skipped.

Select overlays. `Select` fills its overlay in its mount handler; when a dialog
holding a Select (the settings' language) is removed in the same burst of keys
that opened it, the overlay is pruned first and the handler raised "No nodes
match 'SelectOverlay'" (or, from its current-value line, "No nodes match
'#label'"). A Select whose parts are already gone is being removed: there is
nothing to fill.
"""

from __future__ import annotations

from typing import Any

from textual.dom import NoScreen
from textual.events import Mount
from textual.widgets._header import Header, HeaderTitle
from textual.widgets._select import Select, SelectCurrent, SelectOverlay
from textual.widgets._toast import Toast

#: The shortest delay given to a Textual timer (seconds); never zero or negative.
MIN_TIMER_DELAY = 0.01


def clamp_delay(delay: float) -> float:
    """A timer delay Textual can run: at least `MIN_TIMER_DELAY`."""
    return max(delay, MIN_TIMER_DELAY)


def apply() -> None:
    """Apply the fixes (idempotent)."""
    _clamp_toast_timers()
    _tolerate_removed_header_title()
    _tolerate_removed_select_overlay()


def _clamp_toast_timers() -> None:
    """Make toasts start their timers with a positive delay."""
    original: Any = Toast.__dict__["_on_mount"]
    if getattr(original, "_clamped", False):
        return

    def _on_mount(self: Toast, event: Mount) -> None:
        self._timeout = clamp_delay(self._timeout)
        original(self, event)

    _on_mount._clamped = True  # type: ignore[attr-defined]
    _on_mount.__doc__ = original.__doc__
    Toast._on_mount = _on_mount  # type: ignore[method-assign,assignment]


def _tolerate_removed_header_title() -> None:
    """Watch the titles as Textual does, but skip a header whose title is gone."""
    original: Any = Header.__dict__["_on_mount"]
    if getattr(original, "_tolerant", False):
        return

    def _on_mount(self: Header, event: Mount) -> None:
        async def set_title() -> None:
            try:
                for title in self.query(HeaderTitle).results(HeaderTitle):
                    title.update(self.format_title())
            except NoScreen:
                pass

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)

    _on_mount._tolerant = True  # type: ignore[attr-defined]
    _on_mount.__doc__ = original.__doc__
    Header._on_mount = _on_mount  # type: ignore[method-assign,assignment]


def _tolerate_removed_select_overlay() -> None:
    """Mount a Select as Textual does, unless its overlay was already removed."""
    original: Any = Select.__dict__["_on_mount"]
    if getattr(original, "_tolerant", False):
        return

    def _on_mount(self: Select[Any], event: Mount) -> None:
        if not self.query(SelectOverlay):
            return
        original(self, event)

    _on_mount._tolerant = True  # type: ignore[attr-defined]
    _on_mount.__doc__ = original.__doc__
    Select._on_mount = _on_mount  # type: ignore[method-assign,assignment]

    original_update: Any = SelectCurrent.__dict__["update"]

    def update(self: SelectCurrent, label: Any) -> None:
        if not self.query("#label"):
            return
        original_update(self, label)

    update.__doc__ = original_update.__doc__
    SelectCurrent.update = update  # type: ignore[method-assign]
