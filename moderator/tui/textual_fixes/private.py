"""Textual's private names the app reads, one helper each (no patch; see the package).

Toasts on screen (no patch; private API). Textual keeps no public list of the
toasts being shown, so counting an error toast that comes again ("... (x3)",
`MindFlayerApp.notify`) reads `App._notifications` (expired toasts drop out as
it is read) and withdraws one with `App._unnotify`; the game screens' notice
strip reads the same collection (`live_notices`, which also honours
`run_test(notifications=False)`). The helpers below are the only users;
`tests/tui/test_textual_fixes.py::test_private_toast_api_still_behaves` fails if a
Textual upgrade changes them.

Keys passed on (no patch; private API). A key can be routed to the roster just
before a key ahead of it moved the focus to the name field; `forward_key` hands
it on with `Widget._forward_event`, as the app does for the focused widget
(`tests/tui/test_name_keys.py` types such a burst on plain Textual widgets).
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.events import Key
from textual.notifications import Notification
from textual.widget import Widget

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
