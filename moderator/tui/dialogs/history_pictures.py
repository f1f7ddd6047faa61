"""The History dialog's pictures: the leaderboard and the trends, for a group or everyone.

A mixin of `HistoryScreen`, kept apart so the dialog's tables and its pictures
each have their module. The worker counts everyone's figures and tonight's
table's (`figures_of`); g switches between them and o sorts the leaderboard
without reading anything again.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from moderator.history_report import charts
from moderator.i18n import N_, _
from moderator.storage import HistorySummary, history_figures
from moderator.storage.history_figures import Figures
from moderator.table.controller import TableController
from moderator.tui.widgets.leaderboard_chart import Group, LeaderboardChart, read_figures


def tonights_group(controller: TableController, summary: HistorySummary) -> Group:
    """The players of the current series, or of the setup to come, or else of the newest
    complete series (the table that played last); None for an empty history."""
    games = controller.series_games()
    if games:
        return frozenset(name for game in games for name in game.points)
    plan = controller.seating_plan()
    if plan is not None:
        return frozenset(plan.players)
    return history_figures.group_of(summary.rows[-1]) if summary.rows else None


def figures_of(summary: HistorySummary, group: Group) -> tuple[Figures, Figures | None]:
    """Everyone's figures and `group`'s (None without a group): off the UI thread."""
    everyone = read_figures(summary, None)
    return everyone, (read_figures(summary, group) if group is not None else None)


class HistoryPictures(Screen[None]):
    """The leaderboard, its legend and the trends, above the dialog's tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "sort_leaderboard", N_("Sort"), id="history-sort"),
        Binding("g", "switch_group", N_("Group"), id="history-group"),
    ]
    #: Everyone's figures, the group's, the group, and which of the two is shown.
    _pictures: tuple[Figures, Figures | None] | None = None
    _group: Group = None
    _showing_group = True

    def compose_pictures(self) -> ComposeResult:
        """The pictures' widgets (hidden until the history is read)."""
        yield Static(_("Leaderboard"), classes="help-heading history-part", markup=False)
        yield LeaderboardChart(id="history-leaderboard", classes="history-part")
        yield Static("", id="history-legend", classes="history-part", markup=False)
        yield Static(_("Trends"), classes="help-heading history-part", markup=False)
        yield Static("", id="history-trends", classes="history-part", markup=False)

    def show_pictures(self, pictures: tuple[Figures, Figures | None] | None, group: Group) -> None:
        """Draw the figures the worker counted (tonight's table's first, if any)."""
        self._pictures, self._group = pictures, group
        self._showing_group = group is not None
        self._draw_pictures()

    def _draw_pictures(self) -> None:
        chart = self.query_one("#history-leaderboard", LeaderboardChart)
        legend = self.query_one("#history-legend", Static)
        trends = self.query_one("#history-trends", Static)
        if self._pictures is None:
            return
        everyone, of_group = self._pictures
        shown, group = (of_group, self._group) if self._showing_group else (everyone, None)
        if shown is None:
            shown, group = everyone, None
        chart.show_figures(shown, group)
        if shown.series:
            legend.update(charts.leaderboard_legend())
        elif group is not None:
            legend.update(_("No complete series for this table yet; g shows everyone's."))
        else:
            legend.update("")
        cells = chart.content_size.width or self.app.size.width
        trends.update("\n".join(charts.trends(shown, cells)))

    def action_sort_leaderboard(self) -> None:
        """o: the next order (points, series won, win rate as Sane, as Possessed)."""
        chart = self.query_one("#history-leaderboard", LeaderboardChart)
        order = chart.next_order()
        self.notify(_("Leaderboard sorted by {order}.").format(order=order), markup=False)

    def action_switch_group(self) -> None:
        """g: tonight's table or everyone."""
        if self._pictures is None or self._group is None:
            self.notify(_("No table tonight yet: this is everyone's history."), markup=False)
            return
        self._showing_group = not self._showing_group
        self._draw_pictures()
