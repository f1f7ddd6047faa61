"""The `mindflayer history` report as text, from flat rows.

One block per complete series (points per player per game, the winning team
of each game, the series winner), then a per-player table. `render_rows` writes
it from the flat rows of `history_rows` (read in one query, or made from the
store's records when a game needs a replay), without a `GameScore` per game:
one format string per kind of series (`_Blocks`), filled in with each series'
id and times.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache

from moderator.history_report.words import Words
from moderator.storage.history_rows import Game, Series, braced
from moderator.storage.history_tally import Tally
from moderator.storage.records import PlayerStats, clock_text

#: A block's table rows: the name, a cell per game, the total.
Rows = list[tuple[str, ...]]


def render_rows(series: Iterable[Series]) -> str:
    """The whole report: one block per series, then the players table (counted on the way)."""
    tally = Tally()
    words = Words()
    blocks = _Blocks(words)
    texts = []
    for one in series:
        tally.add(one)
        texts.append(blocks.text(one))
    return _report(texts, tally.stats(), words) if texts else words.no_history


def _report(blocks: list[str], stats: Sequence[PlayerStats], words: Words) -> str:
    number = words.number
    players = table(
        words.players_headers,
        [
            (
                s.name,
                number(s.series_played),
                number(s.series_won),
                number(s.games_played),
                number(s.games_won),
                number(s.wins_as_sane),
                number(s.wins_as_possessed),
                number(s.points),
            )
            for s in stats
        ],
        numeric_from=1,
    )
    return "\n".join([*blocks, words.players_heading + "\n" + players])


class _Blocks(dict[tuple[int, ...], str]):
    """A flat series' block, from a format string made once per kind of series.

    A block's text but its id and times depends on the series' kind only
    (`history_rows`): its title's winners, its table, its games' winning teams.
    The format string keeps `{0}` for the id, `{1}` / `{2}` for when it started
    and ended and `{3}`... for when each game ended; the rest (names as typed)
    has its braces doubled.
    """

    def __init__(self, words: Words) -> None:
        super().__init__()
        self._words = words
        self._tables = _Formats()
        self._clocks = words.clocks()
        self._cells: dict[int, dict[str, str]] = {}

    def text(self, series: Series) -> str:
        """The block of `series`."""
        series_id, started, finished, games, _, _, kind = series
        template = self.get(kind)
        if template is None:
            template = self[kind] = self._template(series)
        clocks = self._clocks
        return template.format(
            series_id, clocks[started], clocks[finished], *[clocks[game[3]] for game in games]
        )

    def _template(self, series: Series) -> str:
        _, _, _, games, totals, winners, _ = series
        per_game = [self._cells.get(game[9]) or self._game_cells(game) for game in games]
        # Best first, then by case-folded name (ties keep their order, as the sort above).
        words = self._words
        rows: Rows = [
            (name, *[cells.get(name, "-") for cells in per_game], words.number(total))
            for name, total in sorted(totals.items(), key=_best_first)
        ]
        title = words.winners(totals, winners)
        headers = words.headers(tuple([game[1] for game in games]))
        body = table(headers, rows, formats=self._tables)
        line = ", ".join(
            [
                braced(
                    words.game_won.format(number=game[1], team=words.team[game[7]], time="\0")
                ).replace("\0", f"{{{3 + i}}}")
                for i, game in enumerate(games)
            ]
        )
        won_by = braced(words.won_by).replace("{{games}}", line)
        return f"{words.series_title} {braced(title)}\n{braced(body)}{won_by}\n"

    def _game_cells(self, game: Game) -> dict[str, str]:
        """Name -> its cell ("2 (Sane, won)") in a game: made once per kind of game."""
        _, _, _, _, names, points, possessed, winner, _, kind = game
        kinds = self._words.kinds(possessed, winner, len(names))
        number = self._words.number
        texts = [
            kind.format(points=number(value)) for kind, value in zip(kinds, points, strict=True)
        ]
        cells = self._cells[kind] = dict(zip(names, texts, strict=True))
        return cells


def _best_first(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0].casefold()


def _block(
    series_id: int,
    started: str,
    finished: str,
    totals: Mapping[str, int],
    winners: Sequence[str],
    rows: Rows,
    won_by: Sequence[tuple[int, str, str]],
    words: Words,
) -> str:
    """A series' block: its title, its players' rows (sorted: best first), who won each game."""
    # Each field filled in once: a name or a time is never read as a template.
    title = words.series_title.format(series_id, started, finished)
    headers = words.headers(tuple([number for number, _, _ in won_by]))
    line = ", ".join(
        [words.game_won.format(number=number, team=team, time=at) for number, team, at in won_by]
    )
    winners_title = words.winners(totals, winners)
    return f"{title} {winners_title}\n{table(headers, rows)}{words.won_by.format(games=line)}\n"


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    numeric_from: int = 99,
    formats: _Formats | None = None,
) -> str:
    """Columns aligned by display width (emoji take two cells); numbers right-aligned.

    `formats` keeps the ASCII tables' format strings by column widths, for a report
    of thousands of tables of a few shapes.
    """
    every = (headers, *rows)
    # Most tables: a cell's width is its length (ASCII, or precomposed accented
    # letters: "gagné", "Zoë"), and one format string per shape pads them all.
    if "".join(map("".join, every)).isascii() or all(
        [all(map(_one_cell_per_character, row)) for row in every]
    ):
        return _ascii_table(every, numeric_from, formats)
    # Ljust / rjust pad an ASCII cell (most of them) as the width says, in C.
    widths = [max(map(_cell_width, column)) for column in zip(*every, strict=True)]
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


class _Formats(dict[tuple[int, ...], tuple[str, str]]):
    """(numeric_from, *widths) -> the header's and the rows' format strings, made once."""

    def __missing__(self, key: tuple[int, ...]) -> tuple[str, str]:
        numeric_from, *widths = key
        head = "  ".join(f"{{:<{size}}}" for size in widths)
        body = "  ".join(
            f"{{:{'>' if index >= numeric_from else '<'}{size}}}"
            for index, size in enumerate(widths)
        )
        self[key] = head, body
        return head, body


def _ascii_table(
    every: Sequence[Sequence[str]], numeric_from: int, formats: _Formats | None
) -> str:
    """`table` of cells one terminal cell per character: one format string per shape."""
    key = (numeric_from, *[max(map(len, column)) for column in zip(*every, strict=True)])
    head, body = (formats if formats is not None else _Formats())[key]
    lines = [head.format(*every[0]).rstrip()]
    lines += [body.format(*row).rstrip() for row in every[1:]]
    return "  " + "\n  ".join(lines) + "\n"


def _padded(cell: str, size: int, right: bool) -> str:
    pad = " " * (size - _cell_width(cell))
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


#: `width` of a cell met before: a report in French ("gagné", "Possédé") or with accented
#: names has thousands of non-ASCII tables of the same few cells (20,000 games: 1.5 s).
_cell_width = lru_cache(maxsize=4096)(width)


@lru_cache(maxsize=4096)
def _one_cell_per_character(cell: str) -> bool:
    """No wide and no combining character in `cell`: its width is its length."""
    return cell.isascii() or all(
        not unicodedata.combining(char) and unicodedata.east_asian_width(char) not in ("W", "F")
        for char in cell
    )


def local_time(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM`` in local time, as the report shows times."""
    return clock_text(moment, None, seconds=False)  # "%Y-%m-%d %H:%M", local time
