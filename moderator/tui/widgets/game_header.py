"""The game screens' header: Textual's `Header`, its line fitted again when its width changes.

The app's `format_title` leaves the app's name out where it and the game's
state do not both fit (`moderator.tui.widgets.title_bar.fitted_title`). Textual's
header works its line out only when a title changes, so a terminal made
narrower (or wider) kept the line made for the old width: cut with "…", or the
name missing at 120 columns. This header works it out again on every resize.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Header, Static


class GameHeader(Header):
    """A `Header` whose title line follows the terminal's width."""

    def on_resize(self, event: events.Resize) -> None:
        """The new width may fit the app's name again, or no longer."""
        for title in self.query("HeaderTitle").results(Static):  # Textual's, a Static
            title.update(self.format_title())
