"""The values a script can speak, derived from what the caller knows.

The TUI passes only what it has (a player count, a name, a meeting number);
the numbers a player needs at setup come from the rules' setup checklist (the
one the setup screen shows), never from the voice script, so a script cannot
get the rules wrong.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from moderator.domain.errors import IllegalAction
from moderator.domain.rules import GAMES_PER_SERIES, MEETINGS_PER_GAME
from moderator.domain.setup_checklist import SYMBOLS_FIELD, setup_checklist
from moderator.narration.settings import (
    DEFAULT_GROWL_SECONDS,
    DEFAULT_REVEAL_SECONDS,
    MAX_PAUSE_SECONDS,
)

#: The Meeting's conditions by how many players take part in it: one (or none) passes
#: nothing, two give both cards to each other, three or more pass left and right
#: (the left and right neighbours are different players only from three on).
TAKING_PART_CONDITIONS = ("one_takes_part", "two_take_part", "three_or_more_take_part")
#: The table read aloud (`table_state`): what it may name, and its `when` flags.
#: `situation` is one of `TABLE_SITUATIONS`, each a flag of the same name.
TABLE_SITUATIONS = ("no_game", "turns", "in_meeting", "game_over", "between_games")
TABLE_STATE_FIELDS = (
    "situation",
    "game",
    "games",
    "turn",
    "player",
    "meeting",
    "meetings",
    "meetings_done",
    "knocked_out",
    "sitting_out",
    "score",
    "played",
)
#: Beside the situations: whether anyone is knocked out, sits out, has points.
TABLE_STATE_CONDITIONS = (*TABLE_SITUATIONS, "anyone_knocked_out", "anyone_sitting_out", "scored")
#: Fewest players taking part for whom the left and right neighbours differ.
BOTH_WAYS = 3


def taking_part_flags(taking_part: object) -> dict[str, bool]:
    """The Meeting's `when` flags for `taking_part` players (not given: three or more).

    A caller that does not know the count (`mindflayer narrate meeting`) hears
    the usual Meeting, as before the count was passed.
    """
    count = taking_part if isinstance(taking_part, int) else BOTH_WAYS
    one, two, more = TAKING_PART_CONDITIONS
    return {one: count <= 1, two: count == 2, more: count >= BOTH_WAYS}


def join_words(items: Sequence[str], conjunction: str) -> str:
    """`a`, `a and b`, `a, b and c` in the script's language."""
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def script_values(
    script: str,
    context: Mapping[str, object],
    reveal_seconds: float,
    conjunction: str = "and",
    growl_seconds: float = DEFAULT_GROWL_SECONDS,
) -> dict[str, object]:
    """Placeholder values and `when` flags for one run of `script`."""
    values: dict[str, object] = dict(context)
    if script == "setup":
        _add_setup(values, conjunction)
    elif script == "reveal":
        values.setdefault("seconds", reveal_seconds)
    elif script == "finale":
        values.setdefault("growl_seconds", growl_seconds)
    elif script == "meeting":
        values.setdefault("meetings", MEETINGS_PER_GAME)
        meeting = values.get("meeting")
        values["last_meeting"] = isinstance(meeting, int) and meeting >= MEETINGS_PER_GAME
        values.update(taking_part_flags(values.get("taking_part")))
    elif script == "table_state":
        _add_table_state(values, conjunction)
    elif script == "series_winner":
        players = values.get("players")
        if isinstance(players, Sequence) and not isinstance(players, str):
            values["players"] = join_words([str(p) for p in players], conjunction)
    return values


def _add_table_state(values: dict[str, object], conjunction: str) -> None:
    """The situation's flag, the list flags, and each list joined with the script's "and"."""
    values.setdefault("games", GAMES_PER_SERIES)
    values.setdefault("meetings", MEETINGS_PER_GAME)
    situation = values.get("situation")
    for name in TABLE_SITUATIONS:
        values[name] = situation == name
    for field, flag in (
        ("knocked_out", "anyone_knocked_out"),
        ("sitting_out", "anyone_sitting_out"),
        ("score", "scored"),
    ):
        items = values.get(field)
        listed = (
            [str(item) for item in items]
            if isinstance(items, Sequence) and not isinstance(items, str)
            else []
        )
        values[flag] = bool(listed)
        values[field] = join_words(listed, conjunction)


def _add_setup(values: dict[str, object], conjunction: str) -> None:
    players = values.get("players")
    if isinstance(players, Sequence) and not isinstance(players, str):
        players = len(players)
    if not isinstance(players, int):
        return
    try:
        checklist = setup_checklist(players)
    except IllegalAction:
        return
    values.update(checklist.counts)
    values[SYMBOLS_FIELD] = join_words(list(checklist.back_in_box), conjunction)
    values.update(checklist.flags)


def pause_seconds(value: object) -> float:
    """A pause length from a placeholder value, kept within sane bounds."""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_REVEAL_SECONDS
    if not math.isfinite(seconds):
        return DEFAULT_REVEAL_SECONDS
    return min(MAX_PAUSE_SECONDS, max(0.0, seconds))
