"""Error toasts folded: the same sentence again counts ("… (×3)") instead of stacking.

Keys in a burst (or a held key) can be refused many times in a row; ten
identical red toasts hide the table. `MindFlayerApp.notify` posts an
`ErrorToast` (thread-safe), and the app's loop folds it here into the same
toast still on screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.notifications import Notification

from moderator.tui import compat

if TYPE_CHECKING:
    from textual.app import App

#: Error toasts on screen by (title, sentence): the toast and how many times.
Shown = dict[tuple[str, str], tuple[Notification, int]]


class ErrorToast(Message):
    """An error toast to show on the app's loop (see `MindFlayerApp.notify`)."""

    def __init__(self, message: str, title: str, timeout: float | None, markup: bool) -> None:
        super().__init__()
        self.message = message
        self.title = title
        self.timeout = timeout
        self.markup = markup


def fold_error_toast(app: App[Any], toast: ErrorToast, shown_toasts: Shown) -> None:
    """Show `toast`, replacing the same one still on screen with its count."""
    key = (toast.title, toast.message)
    count = 1
    shown = shown_toasts.get(key)
    if shown is not None and compat.toast_shown(app, shown[0]):
        count = shown[1] + 1
        compat.withdraw_toast(app, shown[0])
    text = toast.message if count == 1 else f"{toast.message} (×{count})"
    timeout = app.NOTIFICATION_TIMEOUT if toast.timeout is None else toast.timeout
    notification = Notification(text, toast.title, "error", timeout, markup=toast.markup)
    shown_toasts[key] = (notification, count)
    compat.show_toast(app, notification)
