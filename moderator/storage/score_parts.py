"""A score cache's text cut into its parts, once per distinct text per read.

The flat history (`history_rows`) takes a game's outcome from its cache
(`score_cache`) only when the text is exactly what `score_text` writes. A long
history repeats the same texts (the same table plays the same roster, and a
game's points, teams and first player take few values), so each distinct text
is cut and checked once per read (`Scores`).

The text is cut where `score_text` puts its keys (`_CACHE`) instead of being
decoded; an unescaped ``"`` cannot occur inside a JSON string, so
``],"first_player":`` ends the names. Anything else is None: the caller then
takes the object path (a replay, or `json.loads` of another spelling).
"""

from __future__ import annotations

import functools
import json
import json.scanner
import re

#: (names as seated, whether no two are the same, points per seat, possessed seats,
#: winning team's value, first player's seat, the log length it was written at).
Parts = tuple[tuple[str, ...], bool, tuple[int, ...], tuple[int, ...], str, int, int]

_STR = {str}
#: The decoder's own scanner (C): `json.loads` adds a regex and two calls per game.
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed

#: The cache as `score_text` writes it (compact, keys in its order), from the end of the
#: names array on: first player, winner, possessed seats, points per seat, log length.
#: The numbers are JSON's integers (no "01", no "1.0", no "true"); seats are not negative.
_NATURAL = "(?:0|[1-9][0-9]*)"
_INTEGER = f"-?{_NATURAL}"
_CACHE = (
    rf'\],"first_player":({_NATURAL}),"winner":"(sane|possessed)",'
    rf'"possessed":\[((?:{_NATURAL}(?:,{_NATURAL})*)?)\],'
    rf'"points":\[((?:{_INTEGER}(?:,{_INTEGER})*)?)\],"entries":({_NATURAL})\}}'
)
_PLAYERS = '{"players":'
_AFTER_PLAYERS = '],"first_player":'


class Scores(dict[str, "Parts | None"]):
    """A cache text -> its parts, or None if it is not exactly as `score_text` writes it."""

    def __init__(self) -> None:
        super().__init__()
        self._rosters = _Rosters()
        self._ints = _Ints()
        self._cache = _cache_pattern()

    def __missing__(self, score: str) -> Parts | None:
        found = self[score] = self._cut(score)
        return found

    def _cut(self, score: str) -> Parts | None:
        if not score.startswith(_PLAYERS):
            return None
        cut = score.find(_AFTER_PLAYERS)
        rest = self._cache.fullmatch(score, cut) if cut > 0 else None
        roster = self._rosters[score[len(_PLAYERS) : cut + 1]] if rest is not None else None
        if rest is None or roster is None:
            return None
        first_text, winner, possessed_text, points_text, entries_text = rest.groups()
        seated, distinct = roster
        seats = len(seated)
        try:  # a number too long for `int` (a hand-edited file)
            first, logged = int(first_text), int(entries_text)
            points, possessed = self._ints[points_text], self._ints[possessed_text]
        except ValueError:
            return None
        if len(points) != seats or first >= seats or (possessed and max(possessed) >= seats):
            return None
        return seated, distinct, points, possessed, winner, first, logged


class _Rosters(dict[str, "tuple[tuple[str, ...], bool] | None"]):
    """A names array's text -> (its names, whether no two are the same); None: not names."""

    def __missing__(self, text: str) -> tuple[tuple[str, ...], bool] | None:
        try:
            players, end = _scan(text, 0)
        except (ValueError, StopIteration):
            players, end = None, -1
        found = None
        if end == len(text) and type(players) is list and set(map(type, players)) == _STR:
            found = tuple(players), len(set(players)) == len(players)
        self[text] = found
        return found


class _Ints(dict[str, tuple[int, ...]]):
    """A list of integers' text (``0,2``, checked by `_CACHE`) -> its numbers, made once."""

    def __missing__(self, text: str) -> tuple[int, ...]:
        numbers = self[text] = tuple(map(int, text.split(","))) if text else ()
        return numbers


@functools.cache
def _cache_pattern() -> re.Pattern[str]:
    """`_CACHE` compiled when a history is first read (not on the app's way to its frame)."""
    return re.compile(_CACHE)
