"""Textual quarantined: every patch to a Textual internal, applied when the app is built.

Textual is pinned exactly in pyproject.toml (the version below) because these
patches replace private handlers. Each patch is listed in `PATCHES` with the
upstream issue it works around and the canary test in `tests/tui/test_compat.py`
that runs the bug on plain Textual, without the patch: when a Textual upgrade
fixes a bug, its canary fails and says which patch to delete.

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

Toasts on screen (no patch; private API). Textual keeps no public list of the
toasts being shown, so counting an error toast that comes again ("... (x3)",
`MindFlayerApp.notify`) reads `App._notifications` (expired toasts drop out as
it is read) and withdraws one with `App._unnotify`; the game screens' notice
strip reads the same collection (`live_notices`, which also honours
`run_test(notifications=False)`). The helpers below are the only users;
`tests/tui/test_compat.py::test_private_toast_api_still_behaves` fails if a
Textual upgrade changes them.

Keys passed on (no patch; private API). A key can be routed to the roster just
before a key ahead of it moved the focus to the name field; `forward_key` hands
it on with `Widget._forward_event`, as the app does for the focused widget
(`tests/tui/test_name_keys.py` types such a burst on plain Textual widgets).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import NoScreen
from textual.events import Key, Mount
from textual.geometry import Offset
from textual.notifications import Notification
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets._header import Header, HeaderTitle
from textual.widgets._select import Select, SelectCurrent, SelectOverlay
from textual.widgets._toast import Toast

#: The Textual release these patches were written and tested against (pinned in pyproject).
TEXTUAL_VERSION = "8.2.8"

#: The shortest delay given to a Textual timer (seconds); never zero or negative.
MIN_TIMER_DELAY = 0.01

NO_UPSTREAM_ISSUE = "no upstream issue found"


@dataclass(frozen=True)
class Patch:
    """One workaround for a Textual bug, and how we learn that it is no longer needed."""

    #: What it patches, in words.
    name: str
    #: The upstream issue's address, or `NO_UPSTREAM_ISSUE`.
    upstream: str
    #: The test in tests/tui/test_compat.py that shows the bug on unpatched Textual.
    canary: str


PATCHES = (
    Patch(
        "Toast starts its timer with a positive delay",
        NO_UPSTREAM_ISSUE,
        "test_canary_toast_negative_delay_freezes_the_app",
    ),
    Patch(
        "Header skips the title of a header whose HeaderTitle is gone",
        "https://github.com/Textualize/textual/issues/4258",
        "test_canary_header_title_watcher_raises_without_its_title",
    ),
    Patch(
        "Select skips filling an overlay that was already removed",
        "https://github.com/Textualize/textual/issues/6581",
        "test_canary_select_mounted_and_removed_at_once_raises",
    ),
    Patch(
        "SelectCurrent skips updating a value line that was already removed",
        "https://github.com/Textualize/textual/issues/6581",
        "test_canary_select_value_line_removed_raises",
    ),
    Patch(
        "Stylesheet keeps its parse cache through set_variables (same variables) and reparse",
        "https://github.com/Textualize/textual/issues/5210",
        "test_canary_a_mode_parses_the_app_css_three_times",
    ),
    Patch(
        "Screen offers no selection on a widget removed since the last layout",
        NO_UPSTREAM_ISSUE,
        "test_canary_a_press_on_a_removed_widget_raises",
    ),
    Patch(
        "OptionList pages to its first or last option before its first layout",
        NO_UPSTREAM_ISSUE,
        "test_canary_paging_a_list_not_laid_out_raises",
    ),
)


def clamp_delay(delay: float) -> float:
    """A timer delay Textual can run: at least `MIN_TIMER_DELAY`."""
    return max(delay, MIN_TIMER_DELAY)


def apply() -> None:
    """Apply the patches (idempotent)."""
    _patch(Toast, "_on_mount", _clamped_toast_mount)
    _patch(Header, "_on_mount", _tolerant_header_mount)
    _patch(Select, "_on_mount", _tolerant_select_mount)
    _patch(SelectCurrent, "update", _tolerant_select_update)
    _patch(Stylesheet, "set_variables", _cache_keeping_set_variables)
    _patch(Stylesheet, "reparse", _cache_sharing_reparse)
    _patch(Screen, "get_widget_and_offset_at", _attached_widget_at)
    _patch(OptionList, "_move_page", _paging_before_layout)


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


def _attached_widget_at(
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


def _paging_before_layout(original: Any) -> Callable[[OptionList, int], None]:
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


def _clamped_toast_mount(original: Any) -> Callable[[Toast, Mount], None]:
    """A toast's mount handler that starts its timer with a positive delay."""

    def _on_mount(self: Toast, event: Mount) -> None:
        self._timeout = clamp_delay(self._timeout)
        original(self, event)

    return _on_mount


def _tolerant_header_mount(original: Any) -> Callable[[Header, Mount], None]:
    """Watch the titles as Textual does, but skip a header whose title is gone."""

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

    return _on_mount


def _tolerant_select_mount(original: Any) -> Callable[[Select[Any], Mount], None]:
    """Mount a Select as Textual does, unless its overlay was already removed."""

    def _on_mount(self: Select[Any], event: Mount) -> None:
        if self.query(SelectOverlay):
            original(self, event)

    return _on_mount


def _tolerant_select_update(original: Any) -> Callable[[SelectCurrent, Any], None]:
    """Update a Select's value line as Textual does, unless its label was already removed."""

    def update(self: SelectCurrent, label: Any) -> None:
        if self.query("#label"):
            original(self, label)

    return update


def _cache_keeping_set_variables(original: Any) -> Callable[[Stylesheet, dict[str, str]], None]:
    """Set the CSS variables; the parsed rules stay cached unless the variables changed."""

    def set_variables(self: Stylesheet, variables: dict[str, str]) -> None:
        if variables == self._variables:
            self._invalid_css = set()  # as Textual does: a broken source is tried again
            return
        original(self, variables)

    return set_variables


def _cache_sharing_reparse(original: Any) -> Callable[[Stylesheet], None]:
    """Textual 8.2.8's `reparse`, except that the fresh stylesheet shares our parse cache.

    The fresh stylesheet is made with our variables, so whatever it parses is
    what we would parse: sharing the cache changes no rule, only the time.
    """

    def reparse(self: Stylesheet) -> None:
        # Parsed in a fresh stylesheet, as Textual does, so an error leaves self intact.
        fresh = Stylesheet(variables=self._variables)
        fresh._parse_cache = self._parse_cache
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            fresh.add_source(
                css,
                read_from=read_from,
                is_default_css=is_defaults,
                tie_breaker=tie_breaker,
                scope=scope,
            )
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)  # Textual #3581, as upstream
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False

    return reparse


# --- toasts on screen (private API, no patch) -------------------------------------------


def toast_shown(app: App[Any], notification: Notification) -> bool:
    """Whether `notification` is still on screen (not expired, not withdrawn)."""
    return notification in app._notifications


def withdraw_toast(app: App[Any], notification: Notification) -> None:
    """Take a toast off the screen now (the next `show_toast` redraws the rack)."""
    app._unnotify(notification, refresh=False)


def live_notices(app: App[Any]) -> list[Notification]:
    """The notifications still running, oldest first (none when the app hides them)."""
    if app._disable_notifications:  # `run_test(notifications=False)`: no toasts either
        return []
    # Not `list(app._notifications)`: `list()` asks its argument's `__len__` for a size
    # hint after taking the iterator, and Textual's `Notifications.__len__` drops the
    # toasts expired since, out of the dict being iterated: "dictionary changed size
    # during iteration" crashed the app when a toast ran out between the two (a loaded
    # fuzz run). The comprehension only iterates.
    return [notification for notification in app._notifications]


def show_toast(app: App[Any], notification: Notification) -> None:
    """Show a notification built by the caller (what `App.notify` does after building it)."""
    app._notifications.add(notification)
    app._refresh_notifications()


# --- a key passed on to the widget it was typed for (private API, no patch) ---------------


def forward_key(target: Widget, key: Key) -> None:
    """Hand a copy of `key` to `target` as the app hands keys to the focused widget.

    The copy is marked forwarded (`Widget._forward_event`), so when it bubbles
    back to the app unhandled, the app takes it for the focused widget's key
    and checks its bindings, instead of routing it again as a new key press.
    The roster uses it for keys already on their way to it when "Fix name"
    moved the focus to the name field (`widgets/name_input.py`).
    """
    target._forward_event(Key(key.key, key.character))
