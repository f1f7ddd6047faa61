"""The game's public state and rules, free of UI and I/O.

Nothing here imports Textual, pyttsx3 or sqlite3 (a test proves it), so the
rules can be checked exhaustively and reused by every front end.
"""

from moderator.domain.errors import IllegalAction
from moderator.domain.events import (
    Event,
    GameStarted,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    RevealFinished,
    SitOutToggled,
    TurnPassed,
    event_from_json,
    event_to_json,
)
from moderator.domain.game import (
    GameOver,
    GameState,
    Meeting,
    Pass,
    Result,
    apply,
    new_game,
    passing_chart,
    replay,
)
from moderator.domain.rules import Setup, Team, setup_for
from moderator.domain.timeline import Redo, Timeline, Undo

__all__ = [
    "Event",
    "GameOver",
    "GameStarted",
    "GameState",
    "IllegalAction",
    "Meeting",
    "MeetingResolved",
    "MeetingStarted",
    "Pass",
    "PlayerKnockedOut",
    "Redo",
    "Result",
    "ResultsDeclared",
    "RevealFinished",
    "Setup",
    "SitOutToggled",
    "Team",
    "Timeline",
    "TurnPassed",
    "Undo",
    "apply",
    "event_from_json",
    "event_to_json",
    "new_game",
    "passing_chart",
    "replay",
    "setup_for",
]
