"""The values the table controller hands back: small frozen dataclasses.

Every action returns an `Outcome` (the app shows it); the setup screen reads a
`SeatingPlan`, the app asks the table the `RenameQuestions` before a later game,
and the series board shows a `PlayExport`. They live apart from `TableController`
so its module holds only the acting, and a caller names them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from moderator.domain import GameState
from moderator.table.phases import Phase

if TYPE_CHECKING:  # the cues load with the first one made (docs/startup.md)
    from moderator.table.cues import Cue


@dataclass(frozen=True)
class SeatingPlan:
    """The roster a new game starts from: names clockwise and the first player."""

    players: tuple[str, ...]
    first_player: int
    #: How each name is said, by seat ("" as written; empty: none typed).
    said_as: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayExport:
    """The game just played, offered to BG Stats.

    Attributes:
        game_id: the game exported (the board shows the link only for its last game).
        link: the `createPlay` link that opens BG Stats with the play filled in.
        file_name: the play file written in the data folder ("" if none was written).
    """

    game_id: int
    link: str
    file_name: str = ""


@dataclass(frozen=True)
class RenameQuestions:
    """What the setup asks before a later game: is a new name an earlier player?"""

    #: Names of the roster that no earlier game of the series had.
    new: tuple[str, ...]
    #: Earlier players of the series not in the roster.
    missing: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.new and self.missing)


@dataclass(frozen=True)
class Outcome:
    """What an action did, for the app to show.

    Attributes:
        state: the open game's state afterwards (None: no game open).
        phase: the phase the table is in now; the app shows its screen.
        notice: a sentence for the table, if any.
        cues: the narration started by the action, in order.
        refused: the action was refused; `notice` says why and nothing changed.
    """

    state: GameState | None
    phase: Phase
    notice: str | None = None
    cues: tuple[Cue, ...] = ()
    refused: bool = False
