"""Plays in the BG Stats "push play" format, so players can keep scores in their own app.

BG Stats (the Board Game Stats app) documents a link,
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``, that opens
its import dialog with one play filled in. This module writes those plays from
flat game rows (`history_rows.Game`: no database, no I/O), so the
`history --bgstats` file, the link it prints and the series board's play file
and link all come from one writer (`Plays`).

One play per game with results. The fields used (all documented by BG Stats):

- ``sourceName``: ``"Mind Flayer moderator"``; ``sourcePlayId``: stable per game
  (``"mindflayer-<game id>-<results time, UTC>"``), so re-importing can be recognised.
- ``playDate``: when the game was set up, local time, ``YYYY-MM-DD HH:MM:SS``;
  ``durationMin``: from its setup to its results, in whole minutes.
- ``game``: ``name`` (the published title), ``highestWins`` true, ``noPoints`` false.
  No ``bggId`` is sent: the app matches the game by name (and remembers the match).
- ``players`` in seating order: ``name`` as typed, ``score`` (series points from
  this game: 1 + Waffles for the winning team, else 0), ``winner``, ``role``
  (``"Sane"`` or ``"Possessed"``), ``startPlayer`` (who took the first turn).

The file is a JSON list of plays, one per line (`json_text`), names as typed
(not escaped); the link carries one play, compact and URL-encoded.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterable
from datetime import tzinfo

from moderator.domain import Team
from moderator.storage import history, json_text
from moderator.storage.export import TRUE
from moderator.storage.history_clock import LocalClocks
from moderator.storage.history_rows import Game, braced
from moderator.storage.memo import Memo
from moderator.storage.records import GameScore, clock_text, time_from_text
from moderator.storage.score_cache import CachedScore

SOURCE_NAME = "Mind Flayer moderator"
GAME_NAME = "Stranger Things: Attack of the Mind Flayer"
CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html?data="
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class _PlayTemplates(dict[int, str]):
    """A game kind -> the format string of its play: ``{0}`` its id, ``{1}`` its UTC
    stamp, ``{2}`` its play date, ``{3}`` its minutes."""

    def __init__(self) -> None:
        super().__init__()
        self._quoted = Memo(json_text.quoted)  # each name's JSON string, once
        source = json_text.quoted(SOURCE_NAME)
        title = json_text.quoted(GAME_NAME)
        self._head = braced(f'{{"sourceName": {source}, "sourcePlayId": "mindflayer-')
        self._about = braced(f'"game": {{"name": {title}, "highestWins": true, "noPoints": false}}')

    def template(self, game: Game) -> str:
        """The play of `game` with its id and times left as fields."""
        _, _, _, _, names, points, possessed, winner, first, _ = game
        players = ", ".join(
            [
                f'{{"name": {self._quoted[name]}, "score": {score}, '
                f'"winner": {TRUE[(seat in possessed) is (winner == "possessed")]}, '
                f'"role": "{"Possessed" if seat in possessed else "Sane"}", '
                f'"startPlayer": {TRUE[seat == first]}}}'
                for seat, (name, score) in enumerate(zip(names, points, strict=True))
            ]
        )
        return (
            f'{self._head}{{0}}-{{1}}", "playDate": "{{2}}", {self._about}, '
            f'"players": [{braced(players)}], "durationMin": {{3}}}}}}'
        )


class Plays:
    """The `--bgstats` file from flat game rows; `zone`: the plays' dates' (None: local).

    Also keeps how many plays it wrote, the last one's JSON (`last`: its link,
    `create_play_link`) and the last game (`latest`, for the sentence around it).
    """

    def __init__(self, zone: tzinfo | None = None) -> None:
        self.zone = zone
        self.count = 0
        #: The last play written, as its line of the file ("" before any).
        self.last = ""
        self._last: Game | None = None

    def text(self, games: Iterable[Game]) -> str:
        """The JSON list of plays, one per line, and a newline.

        A play but its ids and times depends on its game's kind (`history_rows`):
        one format string per kind (`_PlayTemplates`).
        """
        lines = json_text.Encoded()
        templates = _PlayTemplates()
        clocks = LocalClocks()
        for game in games:
            game_id, _, started, finished, _, _, _, _, _, kind = game
            template = templates.get(kind)
            if template is None:
                template = templates[kind] = templates.template(game)
            stamp = finished[:19].replace("-", "").replace(":", "")  # 20260314T193000
            start, end = time_from_text(started), time_from_text(finished)
            minutes = max(0, round((end - start).total_seconds() / 60))
            played = clocks[started] if self.zone is None else clock_text(start, self.zone)
            lines.append(template.format(game_id, stamp, played, minutes))
            self._last = game
        self.count = len(lines)
        self.last = lines[-1] if lines else ""
        return json_text.encoded_list_text(lines) + "\n"

    @property
    def latest(self) -> GameScore | None:
        """The last game written, as the store's `finished_games` has it (None before any)."""
        if self._last is None:
            return None
        game_id, number, started, finished, names, points, possessed, winner, first, _ = self._last
        cached = CachedScore(
            names, first, Team(winner), frozenset(possessed), tuple(points), entries=0
        )
        return history.cached_game_score(
            game_id, number, cached, time_from_text(finished), time_from_text(started)
        )


def create_play_link(play: str) -> str:
    """The BG Stats link that opens its import dialog with `play` (one play's JSON,
    as `Plays.last` holds it) filled in: compact JSON, URL-encoded."""
    data = json.dumps(json.loads(play), ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY_URL + urllib.parse.quote(data, safe="")
