"""Short sentences about table actions, for the "undone: …" notices."""

from __future__ import annotations

from moderator.domain import (
    Event,
    GameStarted,
    GameState,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    RevealFinished,
    SitOutToggled,
    TurnPassed,
)


def describe(event: Event, state: GameState) -> str:
    """What `event` did, in a few words; `state` is where it applies (for names)."""
    players = state.players

    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"

    if isinstance(event, TurnPassed):
        return "the turn passing"
    if isinstance(event, RevealFinished):
        return "the end of the reveal"
    if isinstance(event, PlayerKnockedOut):
        return f"{name(event.player)} knocked out"
    if isinstance(event, MeetingStarted):
        return "the Meeting card"
    if isinstance(event, SitOutToggled):
        return f"{name(event.player)} sitting out or back in"
    if isinstance(event, MeetingResolved):
        return "the Meeting's end"
    if isinstance(event, ResultsDeclared):
        return "the results"
    if isinstance(event, GameStarted):  # pragma: no cover - never undone
        return "the start of the game"
    return "the last action"  # pragma: no cover
