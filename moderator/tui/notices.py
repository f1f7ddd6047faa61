"""Notices: error toasts folded ("… (×3)"), and every notice shown in the game screens' rows.

`Notices` is a collaborator of the app (`MindFlayerApp.notices`), handed
Textual's `App`; it does not know the app's class.

Keys in a burst (or a held key) can be refused many times in a row; ten
identical red toasts hide the table. `MindFlayerApp.notify` posts an
`ErrorToast` (thread-safe), and the app's loop folds it here
(`Notices.fold`) into the same toast still on screen.

On a game screen no toast is drawn (screens.tcss hides Textual's): its
`NoticeStrip` shows the notices in rows of their own, so none covers a tile or
a Meeting's passing lines. `show_notices` hands the strip of the current
screen the notices still running; the app calls it after each new notice
(`NoticesChanged`, posted behind Textual's own `Notify`), the folding does
after each fold, and a game screen does when it is shown again (a notice
raised over a dialog appears there once the dialog closes).
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ScreenStackError
from textual.message import Message
from textual.notifications import Notification

from moderator.tui.textual_fixes import private
from moderator.tui.widgets.notice_strip import NoticeStrip


class ErrorToast(Message):
    """An error toast to show on the app's loop (see `MindFlayerApp.notify`)."""

    def __init__(self, message: str, title: str, timeout: float | None, markup: bool) -> None:
        super().__init__()
        self.message = message
        self.title = title
        self.timeout = timeout
        self.markup = markup


class NoticesChanged(Message):
    """A notice was raised: the current game screen's strip shows the notices again."""


def show_notices(app: App[Any]) -> None:
    """Hand the current screen's notice strip (if it has one) the notices still running."""
    try:
        screen = app.screen
    except ScreenStackError:
        return  # the app is closing
    notices = private.live_notices(app)
    for strip in screen.query_children(NoticeStrip):
        strip.follow(notices)


class Notices:
    """The app's notices: error toasts folded, and the game screens' notice rows kept up."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        #: Error toasts on screen by (title, sentence): the toast and how many times.
        self._shown: dict[tuple[str, str], tuple[Notification, int]] = {}

    def show(self) -> None:
        """The current game screen's notice strip shows the notices still running."""
        show_notices(self._app)

    def fold(self, toast: ErrorToast) -> None:
        """Show `toast`, replacing the same one still on screen with its count."""
        app = self._app
        key = (toast.title, toast.message)
        count = 1
        shown = self._shown.get(key)
        if shown is not None and private.toast_shown(app, shown[0]):
            count = shown[1] + 1
            private.withdraw_toast(app, shown[0])
        text = toast.message if count == 1 else f"{toast.message} (×{count})"
        timeout = app.NOTIFICATION_TIMEOUT if toast.timeout is None else toast.timeout
        notification = Notification(text, toast.title, "error", timeout, markup=toast.markup)
        self._shown[key] = (notification, count)
        private.show_toast(app, notification)
        show_notices(app)
