"""The notices' own rows: a strip above the footer of every game screen.

Textual draws a toast bottom right, over whatever is there: at the table that
was the last seats' tiles, and in a Meeting their passing lines during the
silent passing. On the game screens the notices get rows of their own instead:
this strip, docked above the footer, two rows tall (the board above it is that
much shorter), which no tile or chart ever overlaps.

It shows the notices still running (the app's notifications, read through
`moderator.tui.textual_fixes.private`), newest last and always in full; the rows it leaves
free show the notices before it, one row each, dimmed, cut with "…". A notice
longer than two rows makes the strip grow up to `MAX_ROWS` while it lasts,
so nothing a notice says is lost. When the last notice runs out the strip is
empty (its rows stay: the board never jumps).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.geometry import Size
from textual.notifications import Notification
from textual.timer import Timer
from textual.widget import Widget

from moderator.tui.textual_fixes.patches import clamp_delay

#: The rows the strip always keeps (the board is laid out around them).
MIN_ROWS = 2
#: The most rows a long notice may take (the board shrinks for it while it lasts).
MAX_ROWS = 4
#: What starts each row of a notice, in its severity's colour (as a toast's left edge).
MARK = "▌ "
#: The colour of each severity's mark (theme variables).
MARK_STYLE = {"information": "$success", "warning": "$warning", "error": "$error"}


def _wrapped(notification: Notification, width: int) -> list[Content]:
    """`notification`'s sentence in rows of `width` cells, each with its mark."""
    body = Content(notification.message)
    if notification.title:
        body = Content.assemble((notification.title, "bold"), ": ", body)
    mark = Content.styled(MARK, MARK_STYLE.get(notification.severity, "$success"))
    text_width = max(1, width - mark.cell_length)
    return [mark + line for line in body.wrap(text_width)]


def notice_rows(notices: Sequence[Notification], width: int) -> list[Content]:
    """The rows the strip draws: the newest notice in full, older ones in the rows left.

    The newest takes as many rows as it needs, up to `MAX_ROWS` (cut with "…"
    beyond). Each older notice still running takes one of the rows left above
    it (dimmed, cut with "…"), the most recent nearest.
    """
    if not notices or width <= len(MARK):
        return []
    newest = _wrapped(notices[-1], width)
    if len(newest) > MAX_ROWS:
        newest = [*newest[: MAX_ROWS - 1], newest[MAX_ROWS - 1].truncate(width - 1) + "…"]
    older: list[Content] = []
    for notification in reversed(notices[:-1]):
        if len(older) + len(newest) >= MIN_ROWS:
            break
        rows = _wrapped(notification, width)
        row = rows[0] if len(rows) == 1 else rows[0].truncate(width - 1) + "…"
        older.insert(0, row.stylize("$text-muted"))
    return [*older, *newest]


class NoticeStrip(Widget, can_focus=False):
    """The game screen's notices, in rows no tile overlaps (see the module's docstring)."""

    DEFAULT_CSS = """
    NoticeStrip {
        dock: bottom;
        margin-bottom: 1;
        width: 1fr;
        height: auto;
        min-height: 2;
        max-height: 4;
        background: $panel;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The notices still running, oldest first.
        self.notices: tuple[Notification, ...] = ()
        self._expiry: Timer | None = None

    def follow(self, notices: Sequence[Notification]) -> None:
        """Show `notices` (those still running, oldest first) and wait for the first to end."""
        live = tuple(notification for notification in notices if not notification.has_expired)
        if self._expiry is not None:
            self._expiry.stop()
            self._expiry = None
        if live:
            delay = clamp_delay(min(notification.time_left for notification in live))
            self._expiry = self.set_timer(delay, self._expire)
        if live == self.notices:
            return
        before = self.notices
        self.notices = live
        self.refresh(layout=self._rows(before) != self._rows(live))

    def _expire(self) -> None:
        """The first notice shown ran out: show those still running."""
        self._expiry = None
        self.follow(self.notices)

    def _rows(self, notices: Sequence[Notification]) -> int:
        """How many rows the strip takes for `notices` at its width."""
        width = self.content_region.width or self.app.size.width
        return max(MIN_ROWS, len(notice_rows(notices, width)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Two rows, or up to `MAX_ROWS` for a long newest notice."""
        return max(MIN_ROWS, len(notice_rows(self.notices, width)))

    def render(self) -> Content:
        """The rows of `notice_rows` at the strip's width."""
        return Content("\n").join(notice_rows(self.notices, self.content_region.width))
