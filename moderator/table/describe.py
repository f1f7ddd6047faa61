"""Short sentences about table actions, for the "undone: …" notices (in the table's language)."""

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
from moderator.i18n import _


def describe(event: Event, state: GameState) -> str:
    """What `event` did, in a few words; `state` is where it applies (for names)."""
    players = state.players

    def name(seat: int) -> str:
        return (
            players[seat]
            if 0 <= seat < len(players)
            else _("seat {number}").format(number=seat + 1)
        )

    if isinstance(event, TurnPassed):
        return _("the turn passing")
    if isinstance(event, RevealFinished):
        return _("the end of the reveal")
    if isinstance(event, PlayerKnockedOut):
        return _("{name} knocked out").format(name=name(event.player))
    if isinstance(event, MeetingStarted):
        return _("the Meeting card")
    if isinstance(event, SitOutToggled):
        return _("{name} sitting out or back in").format(name=name(event.player))
    if isinstance(event, MeetingResolved):
        return _("the Meeting's end")
    if isinstance(event, ResultsDeclared):
        return _("the results")
    if isinstance(event, GameStarted):  # pragma: no cover - never undone
        return _("the start of the game")
    return _("the last action")  # pragma: no cover
