"""What `mindflayer history` writes, read and formatted before anything is written.

One writer per output (`export` for the CSV and JSON, `bgstats.Plays`, the report's
`render_rows`), fed flat rows (`history_rows`). The rows are read one query per
output (`row_output`), without per-game objects; when a row raises `NeedsReplay`
(a hand-edited file, a game left out because its log cannot be rebuilt) they are
made from the store's records instead (`replayed_output`: `Store.history`,
`Store.finished_games`, which replay a game whose cache cannot be used).
`read_output` picks. Each text is built only when an option asks for it, from one
read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from moderator.history_report.text import render_rows
from moderator.storage import export, history_rows
from moderator.storage.bgstats import Plays, create_play_link
from moderator.storage.history_figures import Narrowing
from moderator.storage.history_rows import Game, NeedsReplay, Series
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

    @property
    def series(self) -> bool:
        """Whether an output reads the complete series (all but the BG Stats plays)."""
        return self.csv or self.json or self.report


@dataclass
class Output:
    """The texts to write (empty when not wanted) and what the summaries say."""

    #: How many complete series the CSV / JSON / report hold.
    series: int = 0
    csv: str = ""
    json: str = ""
    report: str = ""
    plays: str = ""
    #: How many BG Stats plays `plays` holds, the latest game and its link ("" if none).
    play_count: int = 0
    latest: GameScore | None = None
    latest_link: str = ""


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
        return written([], [], wanted, exported_at)
    try:
        return row_output(store, wanted, exported_at, narrowing)
    except NeedsReplay:
        return replayed_output(store, wanted, exported_at, narrowing)


def row_output(
    store: Store,
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The outputs from flat rows; raises `NeedsReplay` if a game's cache cannot serve."""
    series = list(history_rows.complete_series(store.journal)) if wanted.series else []
    games = history_rows.finished_games(store.journal) if wanted.bgstats else ()
    return written(series, games, wanted, exported_at, narrowing)


def replayed_output(
    store: Store,
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The outputs from the store's records (replaying what must be), through the same writers."""
    series = history_rows.series_of_records(store.history()) if wanted.series else []
    games: list[Game] = []
    if wanted.bgstats:
        games = [
            history_rows.game_of_score(game, kind)
            for kind, game in enumerate(store.finished_games())
        ]
    return written(series, games, wanted, exported_at, narrowing)


def written(
    series: list[Series],
    games: Iterable[Game],
    wanted: Wanted,
    exported_at: datetime | None = None,
    narrowing: Narrowing = WHOLE,
) -> Output:
    """The wanted outputs of these complete series and games with results."""
    output = Output()
    if narrowing.narrows:
        series = narrowing.rows(series)
    output.series = len(series)
    if wanted.csv:
        output.csv = export.csv_text(series)
    if wanted.json:
        output.json = export.json_export_text(series, exported_at or utc_now())
    if wanted.report:
        output.report = render_rows(series)
    if wanted.bgstats:
        plays = Plays()
        output.plays = plays.text(games)
        output.play_count, output.latest = plays.count, plays.latest
        output.latest_link = create_play_link(plays.last) if plays.last else ""
    return output
