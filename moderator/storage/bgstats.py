"""Plays in the BG Stats "push play" format, so players can keep scores in their own app.

BG Stats (the Board Game Stats app) documents a link,
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``, that opens
its import dialog with one play filled in. This module builds that JSON from a
`GameScore` (pure functions: no database, no I/O), so the `history --bgstats`
command and the series board can both offer it.

One play per game with results. The fields used (all documented by BG Stats):

- ``sourceName``: ``"Mind Flayer moderator"``; ``sourcePlayId``: stable per game
  (``"mindflayer-<game id>-<results time, UTC>"``), so re-importing can be recognised.
- ``playDate``: when the game was set up, local time, ``YYYY-MM-DD HH:MM:SS``
  (the finish time if the start is unknown); ``durationMin`` when both are known.
- ``game``: ``name`` (the published title), ``highestWins`` true, ``noPoints`` false.
  No ``bggId`` is sent: the app matches the game by name (and remembers the match).
- ``players`` in seating order: ``name`` as typed, ``score`` (series points from
  this game: 1 + Waffles for the winning team, else 0), ``winner``, ``role``
  (``"Sane"`` or ``"Possessed"``), ``startPlayer`` (who took the first turn).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any

from moderator.domain import Team
from moderator.storage.json_text import list_text
from moderator.storage.records import GameScore, clock_text

SOURCE_NAME = "Mind Flayer moderator"
GAME_NAME = "Stranger Things: Attack of the Mind Flayer"
CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html?data="
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_ROLE = {Team.SANE: "Sane", Team.POSSESSED: "Possessed"}


def play_for(game: GameScore, zone: tzinfo | None = None) -> dict[str, Any]:
    """The push-play JSON object for one game with results.

    `zone` is the time zone of `playDate` (the machine's local zone by default:
    BG Stats shows the date as given).
    """
    started = game.started_at or game.finished_at
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"mindflayer-{game.game_id}-{_utc_stamp(game.finished_at)}",
        "playDate": _local(started, zone),
        "game": {"name": GAME_NAME, "highestWins": True, "noPoints": False},
        "players": [
            {
                "name": name,
                "score": game.points[name],
                "winner": game.team_of(name) is game.winner,
                "role": _ROLE[game.team_of(name)],
                "startPlayer": name == game.first_player,
            }
            for name in game.players
        ],
    }
    if game.started_at is not None:
        minutes = round((game.finished_at - game.started_at).total_seconds() / 60)
        play["durationMin"] = max(0, minutes)
    return play


def plays_for(games: Sequence[GameScore], zone: tzinfo | None = None) -> list[dict[str, Any]]:
    """One play per game, in the order given."""
    return [play_for(game, zone) for game in games]


def plays_text(games: Sequence[GameScore], zone: tzinfo | None = None) -> str:
    """The `--bgstats` file: a JSON list of plays, names as typed (not escaped)."""
    return list_text(plays_for(games, zone)) + "\n"  # one play per line, fast (`json_text`)


def create_play_link(play: dict[str, Any]) -> str:
    """The BG Stats link that opens its import dialog with `play` filled in."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY_URL + urllib.parse.quote(data, safe="")


def _utc_stamp(moment: datetime) -> str:
    """``%Y%m%dT%H%M%S`` in UTC, cut from `clock_text` (strftime is the slow part)."""
    text = clock_text(moment)
    return f"{text[0:4]}{text[5:7]}{text[8:10]}T{text[11:13]}{text[14:16]}{text[17:19]}"


def _local(moment: datetime, zone: tzinfo | None) -> str:
    return clock_text(moment, zone)  # PLAY_DATE_FORMAT
