"""A one-line title bar: what Textual's `Header` shows, in one widget, for the start screen.

The `Header` is four widgets (icon, title, clock space, the header) whose
title is filled in by watchers after mounting; on the start screen that cost
a measurable share of the first frame (docs/startup.md). This bar draws the
same line itself (the icon on the left, the app's title centred between the
icon's 8 columns and the clock's 10, as the Header does) and repaints when the
app's or the screen's title changes, so the voice's fault marker
(`moderator.tui.widgets.voice_state`) shows here as on every other screen.
The icon is not a button here (on the Header a click opens the command
palette; ctrl+p does, and the key bar shows it).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import RenderResult
from textual.content import Content
from textual.widget import Widget

#: Columns of the Header's icon (left) and clock space (right): the title is centred between.
ICON_WIDTH = 8
CLOCK_WIDTH = 10
ICON = "⭘"


def fitted_title(title: str, sub_title: str, name: str, width: int) -> tuple[str, str]:
    """The title and sub-title a header `width` columns wide shows whole, if it can.

    The sub-title is the game's state ("Partie 1 sur 3 · Réunions terminées : 0
    sur 3"), which the table reads; the app's own `name` at the start of the
    title is what it can do without: where both do not fit (French and German
    at 80 columns), the name is left out and only what follows it (the voice's
    fault markers) is kept. What still does not fit is cut by the header.
    """
    room = max(0, width - ICON_WIDTH - CLOCK_WIDTH)
    if not sub_title or cell_len(title) + 3 + cell_len(sub_title) <= room:
        return title, sub_title
    rest = title.removeprefix(name).lstrip(" ·") if title.startswith(name) else title
    return rest, sub_title


class TitleBar(Widget, can_focus=False):
    """The app's title (and sub-title) on one line at the top of the screen."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def on_mount(self) -> None:
        """Repaint whenever a title changes (the app's, or this screen's own)."""
        for node in (self.app, self.screen):
            self.watch(node, "title", self._retitle, init=False)
            self.watch(node, "sub_title", self._retitle, init=False)

    def _retitle(self) -> None:
        self.refresh()

    @property
    def title_text(self) -> str:
        """The title shown, as plain text (the screen's own title wins, as in the Header)."""
        return self._title().plain

    def _title(self) -> Content:
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def render(self) -> RenderResult:
        """The icon, then the title centred in the columns the Header gives it."""
        width = self.size.width
        middle = max(0, width - ICON_WIDTH - CLOCK_WIDTH)
        title = self._title()
        if title.cell_length > middle:
            title = title.truncate(middle, ellipsis=True)
        left_pad = (middle - title.cell_length) // 2
        icon = f" {ICON}".ljust(ICON_WIDTH)[:width]
        return Content.assemble(
            icon,
            " " * left_pad,
            title,
            " " * max(0, width - len(icon) - left_pad - title.cell_length),
        )
