"""History: every complete series, and each player's record, from the store.

Each series row lists every player's points, best first, wrapped onto as many
lines as the window needs: a 10-player series never loses names off the edge.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from moderator.storage import SeriesRecord
from moderator.tui.controller import TableController
from moderator.tui.ports import ACTION_ERRORS
from moderator.tui.screens.dialog import DialogScreen

#: Cells the history box loses to its border and padding (see screens.tcss).
_BOX_FRAME = 4
#: The box's width: 90% of the screen, at most this many cells.
_BOX_MAX = 110
#: Cells DataTable adds around each column (one each side).
_CELL_PADDING = 2
#: A vertical scrollbar, when there are more series than the table's height.
_SCROLLBAR = 2
_TIME_FORMAT = "%Y-%m-%d %H:%M"


def points_lines(record: SeriesRecord, width: int) -> Text:
    """Every player's series points, best first, wrapped to `width` cells."""
    entries = sorted(record.totals.items(), key=lambda item: (-item[1], item[0].casefold()))
    lines: list[str] = []
    current = ""
    for name, score in entries:
        entry = f"{name} {score}"
        candidate = f"{current}, {entry}" if current else entry
        if current and Text(candidate).cell_len > width:
            lines.append(current + ",")
            current = entry
        else:
            current = candidate
    lines.append(current)
    return Text("\n".join(lines))


class HistoryScreen(DialogScreen[None]):
    """Past series (winners, totals) and per-player statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,h", "close", "Close", id="history-close"),
    ]

    #: The complete series shown (kept to re-wrap the points on resize).
    _records: list[SeriesRecord] | None = None

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
        self._records = list(records)
        self._fill_series()
        players = self.query_one("#history-players", DataTable)
        # Points right after the name: on a narrow window the last columns are cut.
        players.add_columns(
            "Player", "Points", "Series won", "Games won", "As Sane", "As Possessed"
        )
        for line in stats:
            players.add_row(
                Text(line.name),
                Text(str(line.points)),
                Text(f"{line.series_won}/{line.series_played}"),
                Text(f"{line.games_won}/{line.games_played}"),
                Text(str(line.wins_as_sane)),
                Text(str(line.wins_as_possessed)),
            )
        if not records:
            self.query_one("#history-empty", Static).update(
                "No complete series yet: a series counts here after its third game."
            )

    def on_resize(self) -> None:
        """Re-wrap the points to the new width."""
        if self._records is not None:
            self._fill_series()

    def _fill_series(self) -> None:
        records = self._records or []
        series = self.query_one("#history-series", DataTable)
        series.clear(columns=True)
        series.add_columns("Finished", "Winners, then every player's points")
        box = min(_BOX_MAX, int(self.app.size.width * 0.9)) - _BOX_FRAME
        width = max(20, box - len("2026-01-01 00:00") - 2 * _CELL_PADDING - _SCROLLBAR)
        for record in reversed(records):
            label = "Winners" if len(record.winners) > 1 else "Winner"
            cell = Text(f"{label}: {' & '.join(record.winners)}\n", style="bold")
            cell.append_text(points_lines(record, width))
            series.add_row(
                Text(record.finished_at.astimezone().strftime(_TIME_FORMAT)), cell, height=None
            )

    def action_close(self) -> None:
        """Back to the start screen."""
        self.dismiss(None)
