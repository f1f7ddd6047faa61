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

ScriptName = Literal["setup", "reveal", "meeting", "knockout", "finale", "series_winner", "turn"]


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


Cue = SetupCue | RevealCue | MeetingCue | KnockoutCue | FinaleCue | SeriesWinnerCue | TurnCue

#: Every cue type, for the test that holds them to the script specs.
CUE_TYPES: tuple[type[Cue], ...] = (
    SetupCue,
    RevealCue,
    MeetingCue,
    KnockoutCue,
    FinaleCue,
    SeriesWinnerCue,
    TurnCue,
)


def cue_context(cue: Cue) -> dict[str, object]:
    """The script context of `cue` (its fields)."""
    return asdict(cue)
