"""The leaderboard as a picture: the text drawing of `history_report.charts` in a Static.

The History dialog and the series board both show it. The figures come from a
worker (`read_figures`, off the UI thread); drawing them is cheap, so the
widget redraws itself on a resize and when the order changes. Names are shown
literally (`markup=False`; the drawing is plain text).
"""

from __future__ import annotations

from textual import work
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from moderator.board.snapshot import LeaderboardView
from moderator.history_report import charts
from moderator.storage import HistorySummary, history_figures
from moderator.storage.history_figures import Figures
from moderator.table.board_host import BoardHost
from moderator.table.ports import ACTION_ERRORS

#: The phone board's leaderboard width: a phone held upright (390 px) shows about this
#: many monospace cells at the page's size; a wider line scrolls sideways, uncut.
PHONE_CELLS = 50

#: Who the figures are about: a group of names, or None for everyone.
Group = frozenset[str] | None


def read_figures(summary: HistorySummary, group: Group) -> Figures:
    """The figures of `group`'s series in `summary` (call it off the UI thread)."""
    return history_figures.figures(history_figures.narrowed(summary.rows, group))


class LeaderboardChart(Static):
    """Each player's points, series won and win rates, as bars, sorted as asked."""

    DEFAULT_CSS = "LeaderboardChart { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.figures: Figures | None = None
        self.group: Group = None
        self.order = "points"
        #: Say whose history it is and how long, above the bars.
        self.titled = True
        self._drawn_at = 0

    def show_figures(self, figures: Figures, group: Group) -> None:
        """Draw `figures` (the history of `group`)."""
        self.figures, self.group = figures, group
        self.redraw()

    def next_order(self) -> str:
        """Sort by the next of `history_figures.SORTS`; its name, to tell the table."""
        orders = history_figures.SORTS
        self.order = orders[(orders.index(self.order) + 1) % len(orders)]
        self.redraw()
        return charts.order_names()[self.order]

    def redraw(self) -> None:
        """The drawing at the widget's width (the screen's, before the first layout)."""
        figures = self.figures
        if figures is None:
            self.update("")
            return
        cells = self._drawn_at = self.content_size.width or self.app.size.width
        lines = []
        if self.titled:
            lines += charts.wrapped(
                charts.group_title(self.group, figures.series, figures.games), cells
            )
        lines += charts.leaderboard(figures.leaderboard, cells, self.order)
        self.update("\n".join(lines))

    def on_resize(self) -> None:
        """Fit the bars to a new width (a new height is the drawing's own)."""
        if self.content_size.width != self._drawn_at:
            self.redraw()


class LeaderboardRead(Message):
    """The series board's worker has counted tonight's table's figures (None: it failed)."""

    def __init__(self, figures: Figures | None, group: frozenset[str]) -> None:
        super().__init__()
        self.figures = figures
        self.group = group


class SeriesBoardLeaderboard(Screen[None]):
    """The series board's part: tonight's table's leaderboard under the board.

    A mixin of `SeriesScreen`. The history is read off the UI thread once per
    game played (the board is redrawn after every action); the chart is hidden
    while this table has no complete series.
    """

    #: The (table, games played) the leaderboard was last read for.
    _leaderboard_for: tuple[frozenset[str], int] | None = None

    def read_leaderboard(self, group: frozenset[str], played: int) -> None:
        """Read the figures of `group` unless they were read for this many games."""
        if not group or self._leaderboard_for == (group, played):
            return
        self._leaderboard_for = (group, played)
        self._count_leaderboard(group)

    @work(thread=True, exit_on_error=False, exclusive=True, group="leaderboard")
    def _count_leaderboard(self, group: frozenset[str]) -> None:
        controller = getattr(self, "controller", None)
        try:
            summary = controller.history(0) if controller is not None else None
        except ACTION_ERRORS:
            summary = None  # the board says the store's trouble; the chart just stays hidden
        figures = read_figures(summary, group) if summary is not None else None
        self.post_message(LeaderboardRead(figures, group))

    def on_leaderboard_read(self, message: LeaderboardRead) -> None:
        """Draw the table's leaderboard, or hide it (no complete series yet); the phone
        board shows the same."""
        chart = self.query_one("#series-leaderboard", LeaderboardChart)
        figures = message.figures
        chart.display = figures is not None and figures.series > 0
        if figures is not None:
            chart.show_figures(figures, message.group)
        host = getattr(self.app, "board", None)
        if isinstance(host, BoardHost):
            host.show_leaderboard(phone_leaderboard(figures, message.group))


def phone_leaderboard(figures: Figures | None, group: Group) -> LeaderboardView | None:
    """The leaderboard as the phone board shows it (None: nothing to show)."""
    if figures is None or not figures.series:
        return None
    title = charts.group_title(group, figures.series, figures.games)
    lines = charts.leaderboard(figures.leaderboard, PHONE_CELLS, "points", cut=False)
    return LeaderboardView(
        title, (*lines, *charts.wrapped(charts.leaderboard_legend(), PHONE_CELLS))
    )
