"""The setup checklist for a player count, produced once from the rules.

The setup screen shows it and the setup voice script speaks it. Both used to
write it on their own (the screen in code, the script in a file players edit),
so the two could state different counts. Now both render this one value: the
screen words each `Check` in turn, and the script's lines take every number
from `counts` (its placeholders); a script that writes a count as a literal
digit is refused at load (`narration.scripts.rule_counts`).

Only what the rulebook's "Setup" gives is here: a Character tile per player,
In Play side up; the Adventure cards whose player symbols go back in the box;
the Mind Flayer and Waffle cards dealt as secret roles, one face down each;
the eyes-closed reveal from 6 players; and the youngest player starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from moderator.domain.rules import Setup, setup_for

#: The script placeholders that hold a count, in the order the checklist states them.
COUNT_FIELDS = ("players", "character_tiles", "mind_flayer", "waffle")
#: The placeholder naming the player symbols whose Adventure cards go back in the box.
SYMBOLS_FIELD = "back_in_box"


class Check(StrEnum):
    """One line of the checklist, in the rulebook's order."""

    #: How many players the table is set up for.
    PLAYERS = "players"
    #: "Each player takes a Character tile and places it in front of them, In Play side up."
    CHARACTER_TILES = "character_tiles"
    #: Adventure cards with these player symbols go back in the box (or: play with all).
    ADVENTURE_CARDS = "adventure_cards"
    #: Mind Flayer and Waffle cards, shuffled, one face down to each player.
    ROLE_CARDS = "role_cards"
    #: With 6 to 10 players the Possessed find each other, eyes closed (or: no reveal).
    REVEAL = "reveal"
    #: "Starting with the youngest player".
    FIRST_PLAYER = "first_player"


@dataclass(frozen=True)
class SetupChecklist(Setup):
    """Everything the table prepares for `players`, as the rulebook's Setup says it.

    The rules' `Setup` row itself (its counts, the symbols back in the box, the
    reveal), with the checklist's lines and the script's placeholders read off it.
    """

    @property
    def character_tiles(self) -> int:
        """One Character tile per player, In Play side up."""
        return self.players

    @property
    def checks(self) -> tuple[Check, ...]:
        """The lines to state, in order (`reveal` and `back_in_box` say how to word two)."""
        return tuple(Check)

    @property
    def counts(self) -> dict[str, int]:
        """Each count by its script placeholder (`COUNT_FIELDS`)."""
        return {field: getattr(self, field) for field in COUNT_FIELDS}

    @property
    def flags(self) -> dict[str, bool]:
        """The script's `when` conditions: a reveal, cards back in the box."""
        return {"reveal": self.reveal, "cards_back_in_box": bool(self.back_in_box)}


def setup_checklist(players: int) -> SetupChecklist:
    """The checklist for `players` (raises `IllegalAction` outside 4..10)."""
    return SetupChecklist(**vars(setup_for(players)))
