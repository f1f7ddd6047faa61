"""The leaderboard and the trends drawn as text: bars of block characters, no plotting.

One drawing for every place that shows them: the History dialog and the series
board (in a Static), the phone board (in a <pre>) and `mindflayer history
--summary` (printed). Lines of plain text in the table's language, fitted to a
width in terminal cells, so the command line needs neither Textual nor Rich.
The numbers are `history_figures`'; this module only lays them out.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

from moderator.history_report.text import width
from moderator.i18n import _, ngettext
from moderator.i18n.numbers import number
from moderator.storage.history_figures import Figures, Standing, TeamWins, sorted_by

#: A full cell and the eighths of one, for bars finer than a cell.
FULL = "█"
_EIGHTHS = ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")
#: The unfilled rest of a rate's bar (its 100% is the whole bar).
EMPTY = "░"
#: The Possessed's share of a stacked bar (the Sane's is `FULL`).
POSSESSED = "▒"
#: Where a bar stops growing however wide the window.
_BAR_MAX = 30
_BAR_MIN = 3
#: The months the trend shows, newest last.
MONTHS_SHOWN = 12
_GAP = "  "


def bar(value: float, most: float, cells: int) -> str:
    """`value` of `most` as a bar `cells` wide at most, in eighths of a cell."""
    if most <= 0 or value <= 0:
        return ""
    eighths = max(1, round(min(value / most, 1.0) * cells * 8))
    return FULL * (eighths // 8) + _EIGHTHS[eighths % 8]


def rate_bar(rate: float | None, cells: int) -> str:
    """A share as a bar of `cells`: filled for the share, `EMPTY` for the rest."""
    if rate is None:
        return " " * cells
    filled = round(rate * cells)
    return FULL * filled + EMPTY * (cells - filled)


def percent(rate: float | None) -> str:
    """ "60%" in the table's language ("60 %" in French); "–" for no game at all."""
    if rate is None:
        return "–"
    return _("{percent}%").format(percent=number(round(rate * 100)))


def fit(text: str, cells: int) -> str:
    """`text` padded or cut (with "…") to exactly `cells` terminal cells."""
    if width(text) <= cells:
        return text + " " * (cells - width(text))
    kept = ""
    for char in text:
        if width(kept + char) > cells - 1:
            break
        kept += char
    return fit(kept + "…", cells) if cells > 0 else ""


def right(text: str, cells: int) -> str:
    """`text` right-aligned in `cells` cells."""
    return " " * max(0, cells - width(text)) + text


def wrapped(text: str, cells: int) -> list[str]:
    """A sentence as lines of `cells` at most (a word longer than that is cut)."""
    return textwrap.wrap(text, max(cells, 10)) or [""]


def order_names() -> dict[str, str]:
    """Each of `history_figures.SORTS` as the key's hint says it."""
    return {
        "points": _("points"),
        "series": _("series won"),
        "sane": _("win rate as Sane"),
        "possessed": _("win rate as Possessed"),
    }


def leaderboard(
    board: Sequence[Standing], cells: int, order: str = "points", cut: bool = True
) -> list[str]:
    """The leaderboard, one line per player under a header line, `cells` wide at most.

    Bars shrink to fit `cells`; a line still wider (long words, long names) is cut
    with "…", unless `cut` is False (the phone's page scrolls it sideways instead).

    Points as a bar scaled to the best; series won as "won/played"; the win
    rates as Sane and as Possessed (games won in that team over games played in
    it) as bars whose whole is 100%. The column the board is sorted by is marked ▼.
    """
    if not board:
        return []
    rows = sorted_by(board, order)
    headers = {
        "name": _("Player"),
        "points": _("Points"),
        "series": _("Series won"),
        "sane": _("Sane"),
        "possessed": _("Possessed"),
    }
    headers[order] = "▼" + headers[order]
    won = [f"{number(s.series_won)}/{number(s.series_played)}" for s in rows]
    points = [number(s.points) for s in rows]
    sane = [percent(s.sane_rate) for s in rows]
    possessed = [percent(s.possessed_rate) for s in rows]
    name_w = min(16, max(width(headers["name"]), *(width(s.name) for s in rows)))
    points_w = max(map(width, points))
    series_w = max(width(headers["series"]), *map(width, won))
    rate_w = max(*map(width, sane), *map(width, possessed))
    # Each bar at least as wide as its header needs, then the spare cells shared out:
    # two fifths to the points, the rest to the rates (both rate bars alike).
    points_min = max(_BAR_MIN, width(headers["points"]) - points_w - 1)
    rates_min = max(
        _BAR_MIN,
        width(headers["sane"]) - rate_w - 1,
        width(headers["possessed"]) - rate_w - 1,
    )
    fixed = name_w + series_w + points_w + 2 * rate_w + 3 + 4 * len(_GAP)
    spare = max(0, cells - fixed - points_min - 2 * rates_min)
    points_bar = min(max(points_min, _BAR_MAX), points_min + spare * 2 // 5)
    rates_bar = min(
        max(rates_min, _BAR_MAX // 2), rates_min + (spare - points_bar + points_min) // 2
    )
    sane_bar = possessed_bar = rates_bar
    most = max(s.points for s in rows)
    lines = [
        _GAP.join(
            [
                fit(headers["name"], name_w),
                fit(headers["points"], points_bar + 1 + points_w),
                fit(headers["series"], series_w),
                fit(headers["sane"], sane_bar + 1 + rate_w),
                fit(headers["possessed"], possessed_bar + 1 + rate_w),
            ]
        ).rstrip()
    ]
    for index, s in enumerate(rows):
        lines.append(
            _GAP.join(
                [
                    fit(s.name, name_w),
                    fit(bar(s.points, most, points_bar), points_bar)
                    + " "
                    + right(points[index], points_w),
                    right(won[index], series_w),
                    rate_bar(s.sane_rate, sane_bar) + " " + right(sane[index], rate_w),
                    rate_bar(s.possessed_rate, possessed_bar)
                    + " "
                    + right(possessed[index], rate_w),
                ]
            ).rstrip()
        )
    return [line if width(line) <= cells or not cut else fit(line, cells) for line in lines]


def leaderboard_legend() -> str:
    """What the leaderboard's columns count, in one sentence."""
    return _(
        "Series won: won of played. Sane, Possessed: the share of games won when on that team."
    )


def team_bars(slices: Sequence[TeamWins], labels: Sequence[str], cells: int) -> list[str]:
    """One stacked bar per slice: the Sane's wins `FULL`, the Possessed's `POSSESSED`."""
    if not slices:
        return []
    label_w = max(map(width, labels))
    counts = [f"{number(s.sane)} : {number(s.possessed)}" for s in slices]
    count_w = max(map(width, counts))
    most = max(s.sane + s.possessed for s in slices)
    bar_w = max(_BAR_MIN, min(_BAR_MAX + 10, cells - label_w - count_w - 2 * len(_GAP)))
    lines = []
    for one, label, count in zip(slices, labels, counts, strict=True):
        total = one.sane + one.possessed
        cells_total = math.ceil(total / most * bar_w) if most else 0
        sane_cells = round(one.sane / total * cells_total) if total else 0
        drawn = FULL * sane_cells + POSSESSED * (cells_total - sane_cells)
        lines.append(_GAP.join([fit(label, label_w), fit(drawn, bar_w), right(count, count_w)]))
    return lines


def trends(figures: Figures, cells: int) -> list[str]:
    """Wins by team per month and per player count, the longest streak, the quickest game."""
    if not figures.games:
        return []
    lines = [
        *wrapped(
            _("Games won: {sane} the Sane, {possessed} the Possessed.").format(
                sane=FULL, possessed=POSSESSED
            ),
            cells,
        ),
        "",
        _("By month:"),
    ]
    months = figures.by_month[-MONTHS_SHOWN:]
    lines += team_bars(months, [m.label for m in months], cells)
    lines += ["", _("By number of players:")]
    sizes = [
        ngettext("{count} player", "{count} players", int(s.label)).format(count=s.label)
        for s in figures.by_players
    ]
    lines += team_bars(figures.by_players, sizes, cells)
    lines.append("")
    for sentence in sentences(figures):
        lines += wrapped(sentence, cells)
    return lines


def sentences(figures: Figures) -> list[str]:
    """The longest winning streak and the quickest game, each as a sentence."""
    found = []
    streak = figures.streak
    if streak is not None:
        found.append(
            ngettext(
                "Longest winning streak: {name}, {count} series in a row (series {first} "
                "to {last}).",
                "Longest winning streak: {name}, {count} series in a row (series {first} "
                "to {last}).",
                streak.length,
            ).format(
                name=streak.name,
                count=number(streak.length),
                first=streak.first_series,
                last=streak.last_series,
            )
        )
    quickest = figures.quickest
    if quickest is not None:
        took = (
            _("{minutes} min").format(minutes=number(quickest.seconds // 60))
            if quickest.seconds >= 60
            else _("{seconds} s").format(seconds=number(quickest.seconds))
        )
        found.append(
            (
                _(
                    "Quickest game: {took} (series {series}, game {number}, "
                    "{players} players), won by the Sane."
                )
                if quickest.winner == "sane"
                else _(
                    "Quickest game: {took} (series {series}, game {number}, "
                    "{players} players), won by the Possessed."
                )
            ).format(
                took=took,
                series=quickest.series_id,
                number=quickest.number,
                players=number(quickest.players),
            )
        )
    return found


def group_title(group: frozenset[str] | None, series: int, games: int) -> str:
    """Whose history this is and how long: "Ann, Bob, Cyd, Dee: 12 series, 36 games"."""
    counted = ngettext("{count} series", "{count} series", series).format(count=number(series))
    played = ngettext("{count} game", "{count} games", games).format(count=number(games))
    if group is None:
        return _("Everyone: {series}, {games}").format(series=counted, games=played)
    names = _(", ").join(sorted(group, key=lambda name: (name.casefold(), name)))
    return _("This table ({names}): {series}, {games}").format(
        names=names, series=counted, games=played
    )


def summary(figures: Figures, group: frozenset[str] | None, cells: int, order: str) -> str:
    """`mindflayer history --summary`: the title, the leaderboard, its legend, the trends."""
    if not figures.series:
        return _("No complete series yet: the history starts once a series has had 3 games.")
    lines = [*wrapped(group_title(group, figures.series, figures.games), cells), ""]
    lines += leaderboard(figures.leaderboard, cells, order)
    lines += [*wrapped(leaderboard_legend(), cells), ""]
    lines += trends(figures, cells)
    return "\n".join(lines)
