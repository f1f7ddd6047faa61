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
import contextlib
import sys
from pathlib import Path

from moderator import paths, safe_output
from moderator.history_report.output import Output, Wanted, read_output
from moderator.history_report.summary import NOT_EXPORTS, narrowing, summary_text
from moderator.history_report.text import local_time, width
from moderator.history_report.words import Words
from moderator.i18n import _, ngettext
from moderator.safe_output import STDOUT
from moderator.storage import export
from moderator.storage.database import DATABASE_NAME
from moderator.storage.errors import (
    ForeignDatabaseError,
    NewerDatabaseError,
    StorageError,
    told,
)
from moderator.storage.salvaged_reading import read_missing, read_salvaging, read_what_reads
from moderator.storage.store import Store, folder_is_a_file

__all__ = ["open_for_reading", "run_history", "width"]  # `width`: where the tests find it


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

    wanted = Wanted(csv=bool(csv_file), json=bool(json_file), bgstats=bool(bgstats_file))
    narrowed = narrowing(args)
    if (narrowed.narrows or getattr(args, "summary", False)) and not wanted.report:
        print(_("mindflayer history: {error}").format(error=_(NOT_EXPORTS)), file=sys.stderr)
        return 2
    try:
        store = open_for_reading(folder)
        if getattr(args, "summary", False):
            with store or contextlib.nullcontext():
                safe_output.print_text(summary_text(store, narrowed))
            return 0
        if store is None:
            output = read_output(None, wanted)
        else:
            # Every text from one read of what it shows (see `history_report.output`); a
            # damaged page met on the way: the same read of what still reads.
            output, store = read_salvaging(
                store, folder, lambda found: read_output(found, wanted, narrowing=narrowed)
            )
            with store:
                for notice in store.notices:  # after reading: it may add some
                    print(told(notice), file=sys.stderr)
        if csv_file:
            export.write_atomically(csv_file, output.csv, encoding=export.CSV_ENCODING)
            tell(_exported(output.series, csv_file, "CSV"))
        if json_file:
            export.write_atomically(json_file, output.json)
            tell(_exported(output.series, json_file, "JSON"))
        if bgstats_file:
            export.write_atomically(bgstats_file, output.plays)
            tell(_bgstats_summary(output, bgstats_file))
        if wanted.report:
            safe_output.print_text(output.report)
    except (StorageError, safe_output.OutputError) as error:
        print(_("mindflayer history: {error}").format(error=told(error)), file=sys.stderr)
        return 1
    return 0


def open_for_reading(folder: Path) -> Store | None:
    """The store to read the history from, without the write lock; None if there is none.

    A database that is current is read as is (even in a read-only folder, even
    while the app has it open). One that is damaged or needs a migration is
    read row by row into memory (`salvaged_reading`): a reading command never
    sets a file aside, migrates it or writes anywhere.
    """
    if folder.exists() and not folder.is_dir():
        raise StorageError.saying(folder_is_a_file(folder))
    if not (folder / DATABASE_NAME).exists():
        return read_missing(folder)
    try:
        return Store.open_read_only(folder)
    except (NewerDatabaseError, ForeignDatabaseError):
        raise  # refused as it is: a writer must not touch it either
    except StorageError as first:
        # Damaged, empty or of an older schema: read into memory, nothing written.
        try:
            return read_missing(folder) or read_what_reads(folder, first)
        except StorageError:
            raise first from None


def _bgstats_summary(output: Output, target: str) -> str:
    """What `--bgstats` did, in the table's language (the file name as typed, a field)."""
    count, latest, link = output.play_count, output.latest, output.latest_link
    if latest is None:
        return _("No game has results yet; wrote an empty list of plays to {file}.").format(
            file=target
        )
    words = Words()
    exported = ngettext(
        "Exported {count} play to {file} (BG Stats).",
        "Exported {count} plays to {file} (BG Stats).",
        count,
    ).format(count=words.number(count), file=target)
    latest_game = _(
        "To add the latest game (game {number}, {time}) to BG Stats, open this link on a "
        "device that has the app:"
    ).format(number=latest.number, time=words.date(local_time(latest.finished_at)))
    return f"{exported}\n{latest_game}\n{link}"


def _exported(count: int, target: str, data_format: str) -> str:
    """ "Exported 3 complete series to F (CSV).": the file name as typed, a field."""
    return ngettext(
        "Exported {count} complete series to {file} ({format}).",
        "Exported {count} complete series to {file} ({format}).",
        count,
    ).format(count=Words().number(count), file=target, format=data_format)
