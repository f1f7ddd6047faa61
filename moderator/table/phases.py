"""Which phase of the night the table is in: a pure function of the game's state.

The app shows one screen per phase. Which one is never decided by a screen:
after every action (undo and redo included) and on resume, the controller asks
`phase_for`, so an undo across a Meeting or across the game's end lands on the
right screen by itself. Nothing here imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from moderator.domain import GameState


class Phase(StrEnum):
    """The phases of a game night; each has one long-lived screen (a Textual mode)."""

    START = "start"
    SETUP = "setup"
    REVEAL = "reveal"
    TABLE = "table"
    MEETING = "meeting"
    FINALE = "finale"
    RESULT = "result"
    SERIES = "series"


@dataclass(frozen=True)
class Flags:
    """What the game's state alone cannot say about where the table is."""

    #: The table is on the start screen (the game, if any, stays saved).
    at_start: bool = True
    #: A roster is being seated for the next game of the series.
    seating: bool = False
    #: The finale is done: the table enters who growled.
    entering_results: bool = False


def phase_for(state: GameState | None, games_played: int, flags: Flags) -> Phase:
    """The phase for the open game's `state` (None: no game open) and the UI flags.

    Args:
        state: the open game's public state, or None between games.
        games_played: finished games of the current series.
        flags: where the table chose to be, beyond the state.
    """
    if flags.at_start:
        return Phase.START
    if state is None:
        return Phase.SERIES if games_played and not flags.seating else Phase.SETUP
    if state.result is not None:
        return Phase.SERIES
    if state.is_over:
        return Phase.RESULT if flags.entering_results else Phase.FINALE
    if state.meeting is not None:
        return Phase.MEETING
    # A game of 6+ players owes the table its eyes-closed reveal until `RevealFinished`
    # is saved: a new game, and one resumed after the app was closed in the middle of it.
    return Phase.REVEAL if state.reveal_pending else Phase.TABLE
