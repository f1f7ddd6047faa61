"""What `mindflayer history` writes, read and formatted before anything is written.

Two paths give the same bytes. `row_output` reads flat rows (`history_rows`:
one query per output, no per-game objects) and is what the command uses;
`object_output` goes through the store's records (`Store.history`,
`Store.finished_games`, which replay a game whose cache cannot be used) and is
taken when a row raises `NeedsReplay` (a hand-edited file, a game left out
because its log cannot be rebuilt). `read_output` picks. Each text is built
only when an option asks for it, from one read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from moderator.history_report.text import render, render_rows
from moderator.storage import bgstats, export, flat_export, history, history_rows, json_text
from moderator.storage.history_figures import Narrowing
from moderator.storage.history_rows import NeedsReplay
from moderator.storage.records import GameScore, utc_now
from moderator.storage.store import Store

#: The whole history: nothing left out.
WHOLE = Narrowing()


@dataclass(frozen=True)
class Wanted:
    """Which outputs the command line asks for."""

    csv: bool = False
    json: bool = False
    bgstats: bool = False

    @property
    def report(self) -> bool:
        """The text report: printed when no export is asked for."""
        return not (self.csv or self.json or self.bgstats)


@dataclass
class Output:
    """The texts to write (empty when not wanted) and what the summaries say."""

    #: How many complete series the CSV / JSON / report hold.
    series: int = 0
    csv: str = ""
    json: str = ""
    report: str = ""
    plays: str = ""
    #: How many BG Stats plays `plays` holds, and the latest (for its link).
    play_count: int = 0
    latest: GameScore | None = None


def read_output(
    store: Store | None,
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The outputs from flat rows, or from the store's records if a game needs a replay.

    `narrowing` (`--since`, `--group`) leaves series out of the printed report only.
    """
    if store is None:
        return object_output(None, wanted, exported_at)
    try:
        return row_output(store, wanted, exported_at, narrowing)
    except NeedsReplay:
        return object_output(store, wanted, exported_at, narrowing)


def row_output(
    store: Store,
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The outputs from flat rows; raises `NeedsReplay` if a game's cache cannot serve."""
    output = Output()
    if wanted.csv or wanted.json or wanted.report:
        series = list(history_rows.complete_series(store.journal))
        if narrowing.narrows:
            series = narrowing.rows(series)
        output.series = len(series)
        if wanted.csv:
            output.csv = flat_export.csv_text(series)
        if wanted.json:
            output.json = flat_export.json_export_text(series, exported_at or utc_now())
        if wanted.report:
            output.report = render_rows(series)
    if wanted.bgstats:
        plays = flat_export.Plays()
        output.plays = plays.text(history_rows.finished_games(store.journal))
        output.play_count, output.latest = plays.count, plays.latest
    return output


def object_output(
    store: Store | None,
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The outputs from the store's records (replaying what must be); None: an empty history."""
    output = Output()
    shown = wanted.json or wanted.report
    records = store.history() if store is not None and (shown or wanted.csv) else []
    if narrowing.narrows:
        records = narrowing.records(records)
    stats = history.player_stats(records) if shown else []
    output.series = len(records)
    if wanted.csv:
        output.csv = export.csv_text(records)
    if wanted.json:
        document = export.json_document(records, stats, exported_at or utc_now())
        output.json = json_text.document_text(document)
    if wanted.report:
        output.report = render(records, stats)
    if wanted.bgstats:
        games = store.finished_games() if store is not None else []
        output.plays = bgstats.plays_text(games)
        output.play_count, output.latest = len(games), games[-1] if games else None
    return output
