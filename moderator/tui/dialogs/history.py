"""History: every complete series, and each player's record, from the store.

Each series row lists every player's points, best first, wrapped onto as many
lines as the window needs: a 10-player series never loses names off the edge.

The history is read off the UI thread (a worker; thousands of games take a
moment) while the dialog shows "Reading the history…": the keys keep working
meanwhile (Esc closes it), and the tables fill in when the read is done.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from moderator.storage import PlayerStats, SeriesRecord
from moderator.table.controller import TableController
from moderator.table.ports import ACTION_ERRORS
from moderator.tui.dialogs.dialog import DialogScreen

#: Cells the history box loses to its border and padding (see screens.tcss).
_BOX_FRAME = 4
#: The box's width: 90% of the screen, at most this many cells.
_BOX_MAX = 110
#: Cells DataTable adds around each column (one each side).
_CELL_PADDING = 2
#: A vertical scrollbar, when there are more series than the table's height.
_SCROLLBAR = 2
_TIME_FORMAT = "%Y-%m-%d %H:%M"
#: What the dialog says while the worker reads the history.
LOADING = "Reading the history…"
#: The newest series shown as rows. A row costs the UI thread ~5 ms to lay out
#: (its points wrap), so 6,667 series froze it for half a minute; the command
#: line prints and exports every one.
SHOWN_SERIES = 100


class HistoryRead(Message):
    """The worker has read the history (or failed to: `error` says why).

    A plain class, as in `moderator.tui.messages` (a dataclass costs start-up time).
    """

    def __init__(
        self, records: list[SeriesRecord], stats: list[PlayerStats], error: str | None = None
    ) -> None:
        super().__init__()
        self.records = records
        self.stats = stats
        self.error = error


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
        """Two tables: series, then players (hidden until the history is read)."""
        with Vertical(id="history-box"):
            yield Static(LOADING, id="history-loading", markup=False)
            yield Static("Complete series", classes="help-heading history-part", markup=False)
            yield DataTable(
                id="history-series", classes="history-part", cursor_type="row", zebra_stripes=True
            )
            yield Static("Players", classes="help-heading history-part", markup=False)
            yield DataTable(
                id="history-players", classes="history-part", cursor_type="row", zebra_stripes=True
            )
            yield Static("", id="history-empty", markup=False)
            yield Static("Esc closes.", markup=False)

    def on_mount(self) -> None:
        """Show the loading line and read the history off the UI thread."""
        for part in self.query(".history-part"):
            part.display = False
        self._read_history()

    @work(thread=True, exit_on_error=False, exclusive=True)
    def _read_history(self) -> None:
        """Read the history (the store computes it from the game logs) and post it back."""
        try:
            records, stats = self.controller.history()
        except ACTION_ERRORS as error:
            self.post_message(HistoryRead([], [], str(error)))
            return
        self.post_message(HistoryRead(records, stats))

    def on_history_read(self, message: HistoryRead) -> None:
        """Fill the tables in, in place of the loading line."""
        if message.error is not None:
            self.notify(message.error, severity="error", markup=False)
        records, stats = message.records, message.stats
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
        self.query_one("#history-loading", Static).display = False
        for part in self.query(".history-part"):
            part.display = True
        if not records:
            self.query_one("#history-empty", Static).update(
                "No complete series yet: a series counts here after its third game."
            )
        elif len(records) > SHOWN_SERIES:
            self.query_one("#history-empty", Static).update(
                f"The newest {SHOWN_SERIES} of {len(records):,} complete series are listed "
                "(the players' table counts them all); `mindflayer history` prints every "
                "one, and --csv or --json exports them."
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
        for record in reversed(records[-SHOWN_SERIES:]):
            label = "Winners" if len(record.winners) > 1 else "Winner"
            cell = Text(f"{label}: {' & '.join(record.winners)}\n", style="bold")
            cell.append_text(points_lines(record, width))
            series.add_row(
                Text(record.finished_at.astimezone().strftime(_TIME_FORMAT)), cell, height=None
            )

    def action_close(self) -> None:
        """Back to the start screen."""
        self.dismiss(None)
