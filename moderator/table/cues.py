"""Narration cues: which voice script to play, with a context typed for it.

One dataclass per script of `moderator.narration.scripts.validation.SPECS`. Each cue
names its script with a `Literal`, so a cue for a script that does not exist
fails type checking, and tests/tui/test_cues.py checks that every cue's fields
are placeholders its script spec knows. Lists stay lists here: the narration
layer joins them with the script language's own word for "and".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import ClassVar, Literal

ScriptName = Literal[
    "setup",
    "reveal",
    "meeting",
    "knockout",
    "finale",
    "series_winner",
    "turn",
    "how_to_play",
    "table_state",
]


@dataclass(frozen=True)
class SetupCue:
    """Read the setup checklist for this many players."""

    script: ClassVar[ScriptName] = "setup"
    players: int


@dataclass(frozen=True)
class RevealCue:
    """The eyes-closed reveal with an eyes-open window of `seconds`."""

    script: ClassVar[ScriptName] = "reveal"
    seconds: float


@dataclass(frozen=True)
class MeetingCue:
    """Instructions for Meeting number `meeting`, worded for `taking_part` players."""

    script: ClassVar[ScriptName] = "meeting"
    meeting: int
    #: How many take part (1: nothing passes; 2: both cards to the other; 3+: left, right).
    taking_part: int = 3


@dataclass(frozen=True)
class KnockoutCue:
    """Announce that `player` is knocked out."""

    script: ClassVar[ScriptName] = "knockout"
    player: str


@dataclass(frozen=True)
class FinaleCue:
    """The count to 3, the growl and the applause."""

    script: ClassVar[ScriptName] = "finale"


@dataclass(frozen=True)
class SeriesWinnerCue:
    """Congratulate the series winners (one or more: co-winners are all named)."""

    script: ClassVar[ScriptName] = "series_winner"
    players: tuple[str, ...]


@dataclass(frozen=True)
class TurnCue:
    """Tell `player` it is their turn."""

    script: ClassVar[ScriptName] = "turn"
    player: str


@dataclass(frozen=True)
class HowToPlayCue:
    """The rules in short, spoken from line `from_line` on (0: from the start).

    `from_line` is not a placeholder: the narration layer starts the script at
    that line (`FROM_LINE`), so a skipped line is never spoken again.
    """

    script: ClassVar[ScriptName] = "how_to_play"
    from_line: int = 0


@dataclass(frozen=True)
class TableStateCue:
    """Where the game stands, read aloud on demand (the table's public state only).

    `situation` says which sentence the script speaks (`TABLE_SITUATIONS`); the
    names and the series score are lists, joined with the script's own "and".
    Nothing secret is ever here: the app knows no role, only what the table did.
    """

    script: ClassVar[ScriptName] = "table_state"
    situation: str
    game: int = 0
    turn: int = 0
    player: str = ""
    meeting: int = 0
    meetings_done: int = 0
    knocked_out: tuple[str, ...] = ()
    sitting_out: tuple[str, ...] = ()
    #: "name points" for each player of the series, highest first.
    score: tuple[str, ...] = ()
    #: Games of the series with results.
    played: int = 0


Cue = (
    SetupCue
    | RevealCue
    | MeetingCue
    | KnockoutCue
    | FinaleCue
    | SeriesWinnerCue
    | TurnCue
    | HowToPlayCue
    | TableStateCue
)

#: Every cue type, for the test that holds them to the script specs.
CUE_TYPES: tuple[type[Cue], ...] = (
    SetupCue,
    RevealCue,
    MeetingCue,
    KnockoutCue,
    FinaleCue,
    SeriesWinnerCue,
    TurnCue,
    HowToPlayCue,
    TableStateCue,
)


def cue_context(cue: Cue) -> dict[str, object]:
    """The script context of `cue` (its fields)."""
    return asdict(cue)
