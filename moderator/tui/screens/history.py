"""History: every complete series, and each player's record, from the store."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from moderator.tui.controller import TableController
from moderator.tui.ports import ACTION_ERRORS
from moderator.tui.screens.dialog import DialogScreen


class HistoryScreen(DialogScreen[None]):
    """Past series (winners, totals) and per-player statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,h", "close", "Close", id="history-close"),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """Two tables: series, then players."""
        with Vertical(id="history-box"):
            yield Static("Complete series", classes="help-heading", markup=False)
            yield DataTable(id="history-series", cursor_type="row", zebra_stripes=True)
            yield Static("Players", classes="help-heading", markup=False)
            yield DataTable(id="history-players", cursor_type="row", zebra_stripes=True)
            yield Static("", id="history-empty", markup=False)
            yield Static("Esc closes.", markup=False)

    def on_mount(self) -> None:
        """Read the history (the store computes it from the game logs)."""
        try:
            records, stats = self.controller.history()
        except ACTION_ERRORS as error:
            self.notify(str(error), severity="error", markup=False)
            records, stats = [], []
        series = self.query_one("#history-series", DataTable)
        series.add_columns("Finished", "Winner(s)", "Points")
        for record in reversed(records):
            totals = ", ".join(f"{name} {score}" for name, score in record.totals.items())
            series.add_row(
                Text(record.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")),
                Text(" & ".join(record.winners)),
                Text(totals),
            )
        players = self.query_one("#history-players", DataTable)
        players.add_columns(
            "Player", "Series won", "Games won", "As Sane", "As Possessed", "Points"
        )
        for line in stats:
            players.add_row(
                Text(line.name),
                Text(f"{line.series_won}/{line.series_played}"),
                Text(f"{line.games_won}/{line.games_played}"),
                Text(str(line.wins_as_sane)),
                Text(str(line.wins_as_possessed)),
                Text(str(line.points)),
            )
        if not records:
            self.query_one("#history-empty", Static).update(
                "No complete series yet: a series counts here after its third game."
            )

    def action_close(self) -> None:
        """Back to the start screen."""
        self.dismiss(None)
