"""Which screen a game's state calls for.

The screen follows the saved state, not the other way round: after any action
(undo and redo included) and on resume, the app asks here, so an undo across
a Meeting or across the game's end lands on the right screen by itself.
"""

from __future__ import annotations

from textual.screen import Screen

from moderator.tui.session import Session


def screen_for(session: Session, current: Screen[object]) -> Screen[None] | None:
    """A new screen to show, or None when `current` already fits the state."""
    from moderator.tui.screens.finale import FinaleScreen
    from moderator.tui.screens.meeting import MeetingScreen
    from moderator.tui.screens.result import ResultScreen
    from moderator.tui.screens.reveal import RevealScreen
    from moderator.tui.screens.series import SeriesScreen
    from moderator.tui.screens.setup import SetupScreen
    from moderator.tui.screens.table import TableScreen

    game = session.game
    if game is None:
        if isinstance(current, SeriesScreen | SetupScreen):
            return None
        return SeriesScreen() if session.series_games() else SetupScreen(session.next_plan())
    state = game.state
    target: type[Screen[None]]
    if state.result is not None:
        target = SeriesScreen
    elif state.is_over:
        if isinstance(current, FinaleScreen | ResultScreen):
            return None
        target = ResultScreen if isinstance(current, SeriesScreen) else FinaleScreen
    elif state.meeting is not None:
        target = MeetingScreen
    else:
        if isinstance(current, RevealScreen):
            return None
        target = TableScreen
    if isinstance(current, target):
        return None
    return target()
