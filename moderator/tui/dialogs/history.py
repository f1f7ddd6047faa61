"""History: every complete series, and each player's record, from the store.

Each series row lists every player's points, best first, wrapped onto as many
lines as the window needs: a 10-player series never loses names off the edge.

The history is read off the UI thread (a worker; thousands of games take a
moment) while the dialog shows "Reading the history…": the keys keep working
meanwhile (Esc closes it), and the tables fill in when the read is done. It is
read as the command line reads it, from flat rows (`Store.history_summary`):
only the listed series become objects.

Above the tables, the leaderboard and the trends as pictures
(`history_figures`, drawn by `history_report.charts`), counted in the same worker: of
tonight's table by default (the players of the current series, or of the
setup to come, or else of the newest series), or of everyone (g). o sorts the leaderboard.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static

from moderator.i18n import N_, _, ngettext
from moderator.i18n.numbers import date_and_time, number
from moderator.i18n.refusals import refusal
from moderator.storage import HistorySummary, SeriesLine
from moderator.storage.history_figures import Figures
from moderator.table.controller import TableController
from moderator.table.ports import ACTION_ERRORS
from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.dialogs.history_pictures import HistoryPictures, figures_of, tonights_group

#: Cells the history box loses to its border and padding (see screens.tcss).
_BOX_FRAME = 4
#: The box's width: 90% of the screen, at most this many cells.
_BOX_MAX = 110
#: Cells DataTable adds around each column (one each side).
_CELL_PADDING = 2
#: A vertical scrollbar, when there are more series than the table's height.
_SCROLLBAR = 2
#: What the dialog says while the worker reads the history (a msgid).
LOADING = N_("Reading the history…")
#: The newest series shown as rows. A row costs the UI thread ~5 ms to lay out
#: (its points wrap), so 6,667 series froze it for half a minute; the command
#: line prints and exports every one.
SHOWN_SERIES = 100


class HistoryRead(Message):
    """The worker has read the history (or failed to: `error` says why, `summary` is None).

    A plain class, as in `moderator.tui.messages` (a dataclass costs start-up time).
    """

    def __init__(
        self,
        summary: HistorySummary | None,
        error: str | None = None,
        figures: tuple[Figures, Figures | None] | None = None,
        group: frozenset[str] | None = None,
    ) -> None:
        super().__init__()
        self.summary = summary
        self.error = error
        #: Everyone's figures, and the group's (None: no group tonight).
        self.figures = figures
        self.group = group


def points_lines(record: SeriesLine, width: int) -> Text:
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


class HistoryScreen(HistoryPictures, DialogScreen[None]):
    """Past series (winners, totals) and per-player statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,h", "close", N_("Close"), id="history-close"),
    ]

    #: The complete series listed (kept to re-wrap the points on resize).
    _records: list[SeriesLine] | None = None

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """Two tables: series, then players (hidden until the history is read)."""
        with Vertical(id="history-box"):
            yield Static(_(LOADING), id="history-loading", markup=False)
            with VerticalScroll(id="history-scroll"):
                yield from self.compose_pictures()
                yield Static(
                    _("Complete series"), classes="help-heading history-part", markup=False
                )
                yield DataTable(
                    id="history-series",
                    classes="history-part",
                    cursor_type="row",
                    zebra_stripes=True,
                )
                yield Static(_("Players"), classes="help-heading history-part", markup=False)
                yield DataTable(
                    id="history-players",
                    classes="history-part",
                    cursor_type="row",
                    zebra_stripes=True,
                )
                yield Static("", id="history-empty", markup=False)
            yield Static(
                _("Esc closes. o sorts the leaderboard; g: this table or everyone."), markup=False
            )

    def on_mount(self) -> None:
        """Show the loading line and read the history off the UI thread."""
        for part in self.query(".history-part"):
            part.display = False
        # After the first paint: the worker's read competes with the UI thread for the GIL,
        # and the loading frame is what the table waits to see.
        self.call_after_refresh(self._read_history)

    @work(thread=True, exit_on_error=False, exclusive=True)
    def _read_history(self) -> None:
        """Read the history (the newest `SHOWN_SERIES` series, the stats) and post it back."""
        try:
            summary = self.controller.history(SHOWN_SERIES)
            group = tonights_group(self.controller, summary)
        except ACTION_ERRORS as error:
            self.post_message(HistoryRead(None, refusal(error)))
            return
        self.post_message(HistoryRead(summary, None, figures_of(summary, group), group))

    def on_history_read(self, message: HistoryRead) -> None:
        """Fill the tables in, in place of the loading line."""
        if message.error is not None:
            self.notify(message.error, severity="error", markup=False)
        summary = message.summary or HistorySummary([], 0, [])
        stats, count = summary.stats, summary.series_count
        self.show_pictures(message.figures, message.group)
        self._records = summary.newest[-SHOWN_SERIES:]
        self._fill_series()
        players = self.query_one("#history-players", DataTable)
        # Points right after the name: on a narrow window the last columns are cut.
        players.add_columns(
            _("Player"),
            _("Points"),
            _("Series won"),
            _("Games won"),
            _("Wins as Sane"),
            _("Wins as Possessed"),
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
        if not count:
            self.query_one("#history-empty", Static).update(
                _("No complete series yet: a series counts here after its third game.")
            )
        elif count > len(self._records):
            self.query_one("#history-empty", Static).update(
                ngettext(
                    "The newest {shown} of {count} complete series are listed (the players' "
                    "table counts them all); `mindflayer history` prints every one, and "
                    "--csv or --json exports them.",
                    "The newest {shown} of {count} complete series are listed (the players' "
                    "table counts them all); `mindflayer history` prints every one, and "
                    "--csv or --json exports them.",
                    count,
                ).format(shown=len(self._records), count=number(count))
            )

    def on_resize(self) -> None:
        """Re-wrap the points to the new width."""
        if self._records is not None:
            self._fill_series()

    def _fill_series(self) -> None:
        records = self._records or []
        series = self.query_one("#history-series", DataTable)
        series.clear(columns=True)
        series.add_columns(_("Finished"), _("Winners, then every player's points"))
        box = min(_BOX_MAX, int(self.app.size.width * 0.9)) - _BOX_FRAME
        width = max(20, box - len("2026-01-01 00:00") - 2 * _CELL_PADDING - _SCROLLBAR)
        for record in reversed(records):
            names = " & ".join(record.winners)
            label = ngettext("Winner: {names}", "Winners: {names}", len(record.winners))
            cell = Text(label.format(names=names) + "\n", style="bold")
            cell.append_text(points_lines(record, width))
            series.add_row(Text(date_and_time(record.finished_at.astimezone())), cell, height=None)

    def action_close(self) -> None:
        """Back to the start screen."""
        self.dismiss(None)
