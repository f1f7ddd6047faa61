"""`mindflayer history`: past series and per-player stats, printed or exported.

Without options it prints every complete series (points per player per game,
the winning team of each game, the series winner) and a per-player table.
`--csv FILE` / `--json FILE` export the same data instead (formats documented in
`moderator.storage.export` and `docs/history-export.md`); `--bgstats FILE` writes
every game with results as BG Stats plays and prints the link that adds the
latest one to the app. `FILE` may be `-` (standard output); exports never replace
a device, FIFO or symlink (see `moderator.safe_output`).

Reading needs no write lock, so the history is read without one: beside a
running app (SQLite's WAL lets a reader work beside the writer) and in a
read-only data folder alike. Only a database that must be repaired or migrated
first is opened for writing. Problems are reported as one sentence on stderr
with exit status 1, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from moderator import paths, safe_output
from moderator.domain import Team
from moderator.safe_output import STDOUT
from moderator.storage import bgstats, export, history
from moderator.storage.database import DATABASE_NAME
from moderator.storage.errors import (
    DatabaseInUseError,
    ForeignDatabaseError,
    NewerDatabaseError,
    StorageError,
)
from moderator.storage.records import GameScore, PlayerStats, SeriesRecord, clock_text
from moderator.storage.store import Store, folder_is_a_file

#: Keyed by the member: `Team.value` is a slow enum property (20,000 games: 80,000 reads).
_TEAM_NAMES = {Team.SANE: "Sane", Team.POSSESSED: "Possessed"}


def run_history(args: argparse.Namespace) -> int:
    """Entry point of the sub-command; returns the process exit status."""
    folder = paths.data_dir(getattr(args, "data_dir", None))
    csv_file: str | None = getattr(args, "csv", None)
    json_file: str | None = getattr(args, "json", None)
    bgstats_file: str | None = getattr(args, "bgstats", None)
    # With an export on standard output, the messages go to stderr.
    to_stdout = STDOUT in (csv_file, json_file, bgstats_file)

    def tell(text: str) -> None:
        if to_stdout:
            print(text, file=sys.stderr)
        else:
            safe_output.print_text(text + "\n")

    try:
        store = open_for_reading(folder)
        if store is None:
            records: list[SeriesRecord] = []
            stats: list[PlayerStats] = []
            games: list[GameScore] = []
        else:
            with store:
                # Each read only when something shows it, and once: the stats come
                # from these records, not from `store.player_stats()` (a second read).
                shown = bool(json_file) or not (csv_file or bgstats_file)
                records = store.history() if shown or csv_file else []
                stats = history.player_stats(records) if shown else []
                games = store.finished_games() if bgstats_file else []
                for notice in store.notices:  # after reading: it may add some
                    print(notice, file=sys.stderr)
        if csv_file:
            export.write_csv(csv_file, records)
            tell(f"Exported {_series_count(records)} to {csv_file} (CSV).")
        if json_file:
            export.write_json(json_file, records, stats)
            tell(f"Exported {_series_count(records)} to {json_file} (JSON).")
        if bgstats_file:
            export.write_atomically(bgstats_file, bgstats.plays_text(games))
            tell(_bgstats_summary(games, bgstats_file))
        if not (csv_file or json_file or bgstats_file):
            safe_output.print_text(render(records, stats))
    except (StorageError, safe_output.OutputError) as error:
        print(f"mindflayer history: {error}", file=sys.stderr)
        return 1
    return 0


def open_for_reading(folder: Path) -> Store | None:
    """The store to read the history from, without the write lock; None if there is none.

    A database that is current is read as is (even in a read-only folder, even
    while the app has it open). One that needs a repair or a migration is
    opened normally, which needs the folder to be writable.
    """
    if folder.exists() and not folder.is_dir():
        raise StorageError(folder_is_a_file(folder))
    if not (folder / DATABASE_NAME).exists():
        return None
    try:
        return Store.open_read_only(folder)
    except (NewerDatabaseError, ForeignDatabaseError):
        raise  # refused as it is: a writer must not touch it either
    except StorageError as first:
        try:
            return Store.open(folder)
        except DatabaseInUseError:
            # The running app will repair or migrate it; say what stopped the read.
            raise first from None


def _bgstats_summary(games: Sequence[GameScore], target: str) -> str:
    if not games:
        return f"No game has results yet; wrote an empty list of plays to {target}."
    plays = "1 play" if len(games) == 1 else f"{len(games)} plays"
    latest = games[-1]
    link = bgstats.create_play_link(bgstats.play_for(latest))
    return (
        f"Exported {plays} to {target} (BG Stats).\n"
        f"To add the latest game (game {latest.number}, "
        f"{_local(latest.finished_at)}) to BG Stats, open this link on a device "
        f"that has the app:\n{link}"
    )


def render(records: Sequence[SeriesRecord], stats: Sequence[PlayerStats]) -> str:
    """The whole report as text: one block per series, then the players table."""
    if not records:
        return "No complete series yet: the history starts once a series has had 3 games.\n"
    blocks = [_series_block(record) for record in records]
    headers = ("Player", "Series", "Series won", "Games", "Games won", "as Sane")
    players = table(
        (*headers, "as Possessed", "Points"),
        [
            (
                s.name,
                str(s.series_played),
                str(s.series_won),
                str(s.games_played),
                str(s.games_won),
                str(s.wins_as_sane),
                str(s.wins_as_possessed),
                str(s.points),
            )
            for s in stats
        ],
        numeric_from=1,
    )
    return "\n".join([*blocks, "Players over all complete series\n" + players])


def _series_block(record: SeriesRecord) -> str:
    winners = ", ".join(record.winners)
    best = record.totals[record.winners[0]] if record.winners else 0
    title = (
        f"Series {record.series_id}: {_local(record.started_at)} to "
        f"{_local(record.finished_at)}. "
        f"{'Winners' if len(record.winners) > 1 else 'Winner'}: {winners} ({best} points)"
    )
    names = list(record.totals)
    rows = []
    for name in names:
        cells = [name]
        for game in record.games:
            if name in game.points:
                team = game.team_of(name)
                won = ", won" if team is game.winner else ""
                cells.append(f"{game.points[name]} ({_TEAM_NAMES[team]}{won})")
            else:
                cells.append("-")
        cells.append(str(record.totals[name]))
        rows.append(tuple(cells))
    rows.sort(key=lambda row: (-int(row[-1]), row[0].casefold()))
    headers = ("Player", *(f"Game {g.number}" for g in record.games), "Total")
    won_by = ", ".join(
        f"game {g.number} {_TEAM_NAMES[g.winner]} ({_local(g.finished_at)})" for g in record.games
    )
    return f"{title}\n{table(headers, rows)}Won by: {won_by}\n"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 99) -> str:
    """Columns aligned by display width (emoji take two cells); numbers right-aligned."""
    every = (headers, *rows)
    # Each cell measured once (a long history has hundreds of thousands of cells).
    measured = [[(cell, width(cell)) for cell in row] for row in every]
    widths = [
        max(column) for column in zip(*([w for _, w in row] for row in measured), strict=True)
    ]
    lines = []
    for number, row in enumerate(measured):
        cells = []
        for index, ((cell, used), size) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (size - used)
            right = index >= numeric_from and number > 0
            cells.append(pad + cell if right else cell + pad)
        lines.append("  " + "  ".join(cells).rstrip() + "\n")
    return "".join(lines)


def width(text: str) -> int:
    """How many terminal cells `text` takes (wide East Asian and emoji count two)."""
    if text.isascii():
        return len(text)  # most cells: no wide or combining character (20,000 games: 1 s)
    total = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def _local(moment: datetime) -> str:
    return clock_text(moment, None, seconds=False)  # "%Y-%m-%d %H:%M", local time


def _series_count(records: Sequence[SeriesRecord]) -> str:
    return f"{len(records)} complete series" if len(records) != 1 else "1 complete series"
