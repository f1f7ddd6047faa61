"""The `mindflayer history` report as text, from records or from flat rows.

One block per complete series (points per player per game, the winning team
of each game, the series winner), then a per-player table. `render` formats the
store's records (`SeriesRecord`); `render_rows` the flat rows of
`history_rows`, without a `GameScore` per game: the command's fast path. Both
go through the same title, row order and table code, so they give the same
bytes (the tests compare them on a varied history).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from moderator.domain import Team
from moderator.storage import history
from moderator.storage.history_rows import Series, count
from moderator.storage.records import PlayerStats, SeriesRecord, clock_text

#: Keyed by the member: `Team.value` is a slow enum property (20,000 games: 80,000 reads).
_TEAM_NAMES = {Team.SANE: "Sane", Team.POSSESSED: "Possessed"}
_LABEL = {"sane": "Sane", "possessed": "Possessed"}
NO_HISTORY = "No complete series yet: the history starts once a series has had 3 games.\n"

#: A block's table rows: the name, a cell per game, the total.
Rows = list[tuple[str, ...]]


def render(records: Sequence[SeriesRecord], stats: Sequence[PlayerStats]) -> str:
    """The whole report as text: one block per series, then the players table."""
    if not records:
        return NO_HISTORY
    return _report([_series_block(record) for record in records], stats)


def render_rows(series: Iterable[Series]) -> str:
    """`render` of flat rows: the stats are counted on the way."""
    table_: history.StatsTable = {}
    blocks = []
    for one in series:
        count(table_, one)
        blocks.append(_rows_block(one))
    return _report(blocks, history.stats_of(table_)) if blocks else NO_HISTORY


def _report(blocks: list[str], stats: Sequence[PlayerStats]) -> str:
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
    rows: Rows = []
    for name in record.totals:
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
    won_by = [(g.number, _TEAM_NAMES[g.winner], local_time(g.finished_at)) for g in record.games]
    return _block(
        record.series_id,
        local_time(record.started_at),
        local_time(record.finished_at),
        record.totals,
        record.winners,
        rows,
        won_by,
    )


def _rows_block(series: Series) -> str:
    series_id, started, finished, games, totals, winners = series
    per_game = []
    for _, _, _, _, names, points, possessed, winner, _ in games:
        cells = {}
        for seat, name in enumerate(names):
            team = "possessed" if seat in possessed else "sane"
            won = ", won" if team == winner else ""
            cells[name] = f"{points[seat]} ({_LABEL[team]}{won})"
        per_game.append(cells)
    rows: Rows = [
        (name, *(cells.get(name, "-") for cells in per_game), str(total))
        for name, total in totals.items()
    ]
    ended = {game[3]: _local_text(game[3]) for game in games}  # the series ends with one
    won_by = [(game[1], _LABEL[game[7]], ended[game[3]]) for game in games]
    return _block(series_id, _local_text(started), ended[finished], totals, winners, rows, won_by)


def _block(
    series_id: int,
    started: str,
    finished: str,
    totals: Mapping[str, int],
    winners: Sequence[str],
    rows: Rows,
    won_by: Sequence[tuple[int, str, str]],
) -> str:
    """A series' block: its title, its players' rows (best first), who won each game."""
    best = totals[winners[0]] if winners else 0
    title = (
        f"Series {series_id}: {started} to {finished}. "
        f"{'Winners' if len(winners) > 1 else 'Winner'}: {', '.join(winners)} ({best} points)"
    )
    rows.sort(key=lambda row: (-int(row[-1]), row[0].casefold()))
    headers = ("Player", *(f"Game {number}" for number, _, _ in won_by), "Total")
    line = ", ".join(f"game {number} {team} ({at})" for number, team, at in won_by)
    return f"{title}\n{table(headers, rows)}Won by: {line}\n"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 99) -> str:
    """Columns aligned by display width (emoji take two cells); numbers right-aligned."""
    every = (headers, *rows)
    if "".join(map("".join, every)).isascii():  # most tables: a cell's width is its length
        return _ascii_table(every, numeric_from)
    # Ljust / rjust pad an ASCII cell (most of them) as the width says, in C.
    widths = [max(map(width, column)) for column in zip(*every, strict=True)]
    lines = []
    for number, row in enumerate(every):
        right = numeric_from if number else len(widths)
        cells = [
            (cell.rjust(size) if index >= right else cell.ljust(size))
            if cell.isascii()
            else _padded(cell, size, index >= right)
            for index, (cell, size) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  " + "  ".join(cells).rstrip() + "\n")
    return "".join(lines)


def _ascii_table(every: Sequence[Sequence[str]], numeric_from: int) -> str:
    """`table` of ASCII cells: one format string per table, one `format` call per row."""
    widths = [max(map(len, column)) for column in zip(*every, strict=True)]
    head = "  ".join(f"{{:<{size}}}" for size in widths)
    body = "  ".join(
        f"{{:{'>' if index >= numeric_from else '<'}{size}}}" for index, size in enumerate(widths)
    )
    lines = [(body if number else head).format(*row).rstrip() for number, row in enumerate(every)]
    return "  " + "\n  ".join(lines) + "\n"


def _padded(cell: str, size: int, right: bool) -> str:
    pad = " " * (size - width(cell))
    return pad + cell if right else cell + pad


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


def local_time(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM`` in local time, as the report shows times."""
    return clock_text(moment, None, seconds=False)  # "%Y-%m-%d %H:%M", local time


def _local_text(text: str) -> str:
    """`local_time` of a row's UTC text (checked by its query: aware, so no default zone)."""
    return datetime.fromisoformat(text).astimezone(None).isoformat(" ", "seconds")[:16]
