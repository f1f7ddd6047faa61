"""The `mindflayer history` report's words, numbers and times in the table's language.

The report is made of format strings built once per kind of series (`history_report.text`),
so its words are translated once per run here, not once per game: a `Words` is made
when a report starts, reads the catalog (`moderator.i18n`) for every template the
report uses, and keeps the per-language memos (column headers by game numbers, the
text after a seat's points by team) that were module-wide when the report was
English only. In English every text is the msgid itself and numbers are plain
digits, as the report always wrote them, so its bytes do not change.

Quantities (points, counts) follow the language's digit groups
(`moderator.i18n.numbers`); ids and game numbers are names, not amounts, and stay
plain digits. Times follow the catalog's "date and time" pattern, applied to the
``YYYY-MM-DD HH:MM`` text the clocks already make (no datetime per time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from moderator import i18n
from moderator.i18n import numbers
from moderator.storage.history_clock import LocalClocks
from moderator.storage.memo import Memo

#: The date-and-time pattern's directives the fast path knows, and where each is in
#: ``YYYY-MM-DD HH:MM``.
_FIELDS = {"%Y": "{0}", "%m": "{1}", "%d": "{2}", "%H": "{3}", "%M": "{4}", "%%": "%"}
#: The English pattern: the clocks' text as it is.
_ISO = "%Y-%m-%d %H:%M"


class Words:
    """Every word of one report, translated when it is made (once per run)."""

    def __init__(self) -> None:
        _ = i18n._
        english = i18n.active_language() == i18n.SOURCE_LANGUAGE
        #: A quantity as the language writes it (English: digits, as ever).
        self.number: Callable[[int], str] = str if english else Memo(numbers.number).__getitem__
        self.no_history = (
            _("No complete series yet: the history starts once a series has had 3 games.") + "\n"
        )
        self.players_heading = _("Players over all complete series")
        self.players_headers = (
            _("Player"),
            i18n.pgettext("history column: series played", "Series"),
            _("Series won"),
            _("Games"),
            _("Games won"),
            _("Won as Sane"),
            _("Won as Possessed"),
            _("Points"),
        )
        self._player = _("Player")
        self._game = _("Game {number}")
        self._total = _("Total")
        self.team = {"sane": _("Sane"), "possessed": _("Possessed")}
        self._won_cell = _("{points} ({team}, won)")
        self._lost_cell = _("{points} ({team})")
        #: "Series {0}: {1} to {2}." with the id and the times as positional fields.
        self.series_title = _("Series {id}: {started} to {finished}.").format(
            id="{0}", started="{1}", finished="{2}"
        )
        self.won_by = _("Won by: {games}")
        self.game_won = _("game {number} {team} ({time})")
        self._headers: dict[tuple[int, ...], tuple[str, ...]] = {}
        self._kinds: dict[tuple[tuple[int, ...], str, int], tuple[str, ...]] = {}
        pattern = i18n.pgettext("date and time", _ISO)
        self._pattern = pattern
        self._dates: dict[str, str] = {}

    def winners(self, totals: Mapping[str, int], winners: Sequence[str]) -> str:
        """The title's end: "Winner: Ann (9 points)", "Winners: Ann, Bo (9 points)".

        The names are a field filled in once: a name like ``{0}`` stays as typed.
        """
        best = totals[winners[0]] if winners else 0
        template = i18n.ngettext(
            "Winner: {names} ({points} points)",
            "Winners: {names} ({points} points)",
            max(len(winners), 1),
        )
        return template.format(names=", ".join(winners), points=self.number(best))

    def headers(self, game_numbers: tuple[int, ...]) -> tuple[str, ...]:
        """A block's column headers ("Player", "Game 1", ..., "Total"), made once per shape."""
        found = self._headers.get(game_numbers)
        if found is None:
            games = [self._game.format(number=number) for number in game_numbers]
            found = self._headers[game_numbers] = (self._player, *games, self._total)
        return found

    def cell(self, points: int, team: str, won: bool) -> str:
        """A seat's cell in a game: "2 (Sane, won)", "1 (Possessed)"."""
        template = self._won_cell if won else self._lost_cell
        return template.format(points=self.number(points), team=self.team[team])

    def kinds(self, possessed: tuple[int, ...], winner: str, seats: int) -> tuple[str, ...]:
        """Each seat's cell as a template of its points (``{points}``): once per kind of game."""
        key = (possessed, winner, seats)
        found = self._kinds.get(key)
        if found is None:
            kinds = []
            for seat in range(seats):
                team = "possessed" if seat in possessed else "sane"
                template = self._won_cell if team == winner else self._lost_cell
                kinds.append(template.replace("{team}", self.team[team]))
            found = self._kinds[key] = tuple(kinds)
        return found

    def clocks(self) -> Mapping[str, str]:
        """A row's UTC text -> its local date and time as the language writes it."""
        if self._pattern == _ISO:
            return LocalClocks(seconds=False)
        # `LocalClocks` whose times are written in the language's pattern, each text once.
        local = LocalClocks(seconds=False)
        return Memo(lambda text: self.date(local[text]))

    def date(self, clock: str) -> str:
        """``YYYY-MM-DD HH:MM`` (a local time as the clocks write it) in the language's form."""
        if self._pattern == _ISO:
            return clock
        found = self._dates.get(clock)
        if found is None:
            found = self._dates[clock] = _reordered(self._pattern, clock)
        return found


def _reordered(pattern: str, clock: str) -> str:
    """`clock` (``YYYY-MM-DD HH:MM``) written by `pattern` (strftime's directives).

    A pattern of only year, month, day, hour and minute is filled from the text's
    parts; anything else (a translator's other directive) goes through strftime.
    """
    parts = (clock[:4], clock[5:7], clock[8:10], clock[11:13], clock[14:16])
    template = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "%":
            field = _FIELDS.get(pattern[index : index + 2])
            if field is None:
                return datetime.strptime(clock, _ISO).strftime(pattern)
            template.append(field)
            index += 2
            continue
        template.append("{{" if char == "{" else "}}" if char == "}" else char)
        index += 1
    return "".join(template).format(*parts)
