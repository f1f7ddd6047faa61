"""Patches to Textual's own classes, each wrapping the original method (see the package).

Toast timers (no upstream issue found). A notification's toast computes its
remaining time twice: the toast rack keeps the notification if `has_expired`
is false, then the new `Toast` reads `time_left` again. Between the two reads
the time can run out, so the toast starts `set_timer` with a tiny negative
delay (about -0.00006 s). Textual's timer loop, given a negative interval,
computes its skip count as 0 (then below) forever without ever awaiting: the
app froze at 100% CPU. A toast's timer is started with at least
`MIN_TIMER_DELAY`, which expires it on the next tick as intended.

Header titles (Textual issue #4258). `Header` sets its title from a watcher
that runs after the header is mounted; when keys arrive in a burst, a screen
can be shown and removed at once, so the watcher runs after the title widget
was removed and raised "No nodes match 'HeaderTitle'" (Textual only catches
`NoScreen` there). The title of a header being removed is not needed: it is
skipped.

Select overlays (Textual issue #6581). `Select` fills its overlay in its mount
handler; when a dialog holding a Select (the settings' language) is removed in
the same burst of keys that opened it, the overlay is pruned first and the
handler raised "No nodes match 'SelectOverlay'" (or, from its current-value
line, "No nodes match '#label'"). A Select whose parts are already gone is
being removed: there is nothing to fill.

CSS parsed three times (Textual issues #5210, #5211). The first screen of a
mode runs `App.refresh_css`, which calls `Stylesheet.set_variables` (clearing
the parse cache even when the variables are the same) and `Stylesheet.reparse`
(which parses every source again in a fresh stylesheet whose cache it throws
away). At start that parsed the app's CSS three times before the first frame
(about 15 ms of the start-up, docs/startup.md), and again on each phase's
first visit. Here `set_variables` keeps the cache when the variables did not
change, and `reparse` lends the fresh stylesheet this one's cache: the result
is the same rules, and a source is parsed once per set of variables.

Clicks on a widget just removed (no upstream issue found). The screen looks up
the widget under a mouse press in its compositor map to start a text
selection; between a widget's removal and the next layout the map still holds
it, with no parent, and `Screen._forward_event` raised AttributeError
("'NoneType' object has no attribute 'region'"). A toast expiring under the
pointer is such a widget (the fuzz test clicked one). A detached widget is
not offered for selection: the press goes on as over empty space.

Paging a list not laid out yet (known downstream, e.g. kagan-sh/kagan-legacy
issue 31; no upstream issue found). `OptionList` pages from its line map, which
it builds only once it has a size; Page Up or Page Down reaching a list shown
in the same frame (the seat question opened and paged in one burst of keys:
the fuzz test met it) raised KeyError from `_move_page`. Before its first
layout a list pages as a list that fits whole does: up to its first enabled
option, down to its last.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.css.stylesheet import Stylesheet
from textual.events import Mount
from textual.geometry import Offset
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets._header import Header, HeaderTitle
from textual.widgets._select import Select, SelectCurrent, SelectOverlay
from textual.widgets._toast import Toast

#: The shortest delay given to a Textual timer (seconds); never zero or negative.
MIN_TIMER_DELAY = 0.01


def clamp_delay(delay: float) -> float:
    """A timer delay Textual can run: at least `MIN_TIMER_DELAY`."""
    return max(delay, MIN_TIMER_DELAY)


def apply() -> None:
    """Apply the patches (idempotent)."""
    _patch(Toast, "_on_mount", clamped_toast_mount)
    _patch(Header, "_on_mount", tolerant_header_mount)
    _patch(Select, "_on_mount", tolerant_select_mount)
    _patch(SelectCurrent, "update", tolerant_select_update)
    _patch(Stylesheet, "set_variables", cache_keeping_set_variables)
    _patch(Stylesheet, "reparse", cache_sharing_reparse)
    _patch(Stylesheet, "__init__", cache_borrowing_init)
    _patch(Screen, "get_widget_and_offset_at", attached_widget_at)
    _patch(OptionList, "_move_page", paging_before_layout)


#: (class, attribute) pairs already replaced, so `apply` can run once per app.
_applied: set[tuple[type, str]] = set()


def _patch(owner: type, name: str, replace: Callable[[Any], Callable[..., Any]]) -> None:
    """Replace `owner.name` by `replace(original)`, once; the original keeps its docstring."""
    if (owner, name) in _applied:
        return
    original = owner.__dict__[name]
    patched = replace(original)
    patched.__doc__ = original.__doc__
    setattr(owner, name, patched)
    _applied.add((owner, name))


def attached_widget_at(
    original: Any,
) -> Callable[[Screen[Any], int, int], tuple[Widget | None, Offset | None]]:
    def get_widget_and_offset_at(
        self: Screen[Any], x: int, y: int
    ) -> tuple[Widget | None, Offset | None]:
        widget, offset = original(self, x, y)
        if widget is not None and widget is not self and widget.parent is None:
            return None, None  # removed since the last layout: nothing to select there
        return widget, offset

    return get_widget_and_offset_at


def paging_before_layout(original: Any) -> Callable[[OptionList, int], None]:
    """Page as Textual does once the list has lines; before that, to its first or last option."""

    def _move_page(self: OptionList, direction: int) -> None:
        if self.option_count and not self.scrollable_content_region:
            # No size yet, so no line map: the whole list is the page.
            if direction < 0:
                self.action_first()
            else:
                self.action_last()
            return
        original(self, direction)

    return _move_page


def clamped_toast_mount(original: Any) -> Callable[[Toast, Mount], None]:
    """A toast's mount handler that starts its timer with a positive delay."""

    def _on_mount(self: Toast, event: Mount) -> None:
        self._timeout = clamp_delay(self._timeout)
        original(self, event)

    return _on_mount


def tolerant_header_mount(original: Any) -> Callable[[Header, Mount], None]:
    """Textual's mount handler, whose title watchers skip a header whose title is gone.

    Textual's handler registers one watcher (`set_title`) on the app's and the
    screen's titles; it is run as it is, with `watch` lending each watcher a
    guard that calls it only while the header still holds its `HeaderTitle`.
    """

    def _on_mount(self: Header, event: Mount) -> None:
        watch = self.watch

        def watch_while_titled(
            obj: Any, attribute_name: str, callback: Callable[[], Any], init: bool = True
        ) -> None:
            async def set_title_if_titled() -> None:
                if self.query(HeaderTitle):  # being removed: its title is not needed
                    await callback()

            watch(obj, attribute_name, set_title_if_titled, init)

        self.watch = watch_while_titled  # type: ignore[method-assign,assignment]
        try:
            original(self, event)
        finally:
            del self.watch

    return _on_mount


def tolerant_select_mount(original: Any) -> Callable[[Select[Any], Mount], None]:
    """Mount a Select as Textual does, unless its overlay was already removed."""

    def _on_mount(self: Select[Any], event: Mount) -> None:
        if self.query(SelectOverlay):
            original(self, event)

    return _on_mount


def tolerant_select_update(original: Any) -> Callable[[SelectCurrent, Any], None]:
    """Update a Select's value line as Textual does, unless its label was already removed."""

    def update(self: SelectCurrent, label: Any) -> None:
        if self.query("#label"):
            original(self, label)

    return update


def cache_keeping_set_variables(original: Any) -> Callable[[Stylesheet, dict[str, str]], None]:
    """Set the CSS variables; the parsed rules stay cached unless the variables changed."""

    def set_variables(self: Stylesheet, variables: dict[str, str]) -> None:
        if variables == self._variables:
            self._invalid_css = set()  # as Textual does: a broken source is tried again
            return
        original(self, variables)

    return set_variables


#: The parse cache `cache_sharing_reparse` lends to the stylesheet Textual makes
#: inside `reparse` (a stack: the UI thread only, never nested in practice).
_lent_caches: list[Any] = []


def cache_sharing_reparse(original: Any) -> Callable[[Stylesheet], None]:
    """Textual's `reparse`, the fresh stylesheet it makes sharing our parse cache.

    The fresh stylesheet is made with our variables, so whatever it parses is
    what we would parse: sharing the cache changes no rule, only the time. The
    cache is lent through `cache_borrowing_init` while Textual's body runs.
    """

    def reparse(self: Stylesheet) -> None:
        _lent_caches.append(self._parse_cache)
        try:
            original(self)
        finally:
            _lent_caches.pop()

    return reparse


def cache_borrowing_init(original: Any) -> Callable[..., None]:
    """A stylesheet made inside `cache_sharing_reparse` takes the lent parse cache."""

    def __init__(self: Stylesheet, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if _lent_caches:
            self._parse_cache = _lent_caches[-1]

    return __init__
