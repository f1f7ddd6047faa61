"""Which narration the table will ask for next, so the narrator prepares it before the key.

Why (issue 17): the first reveal of a night started ~0.6 s after Enter (1.7 s
under load) because its clips and mix were built then; a replay took ~0.09 s.
The state says well before the key what is coming: a 6+ game whose seating
is final owes the reveal, and the game that has started its last Meeting, or
has only one knock-out left before its end, owes the finale. The reveal's
audio does not depend on the roster, so it is asked for already while the
seating is typed: on a fresh cache its mix takes 1.7 s of CPU here (more
under load), which the typing hides better than the moment between "Start"
and Enter. Pure: the controller hands the answer to its voice, which
prepares each cue once.
"""

from __future__ import annotations

from moderator.domain import GameState, rules
from moderator.table.cues import Cue, FinaleCue, RevealCue


def cues_ahead(
    state: GameState | None, reveal_seconds: float, seating: bool = False
) -> tuple[Cue, ...]:
    """The cues to prepare now for `state` (`seating`: the setup screen is being filled in)."""
    if state is None:
        return (RevealCue(reveal_seconds),) if seating else ()
    if state.is_over:
        return ()
    if state.reveal_pending:
        return (RevealCue(reveal_seconds),)
    last_meeting = state.meeting is not None and state.meeting.number == rules.MEETINGS_PER_GAME
    if last_meeting or len(state.in_play) <= rules.ENDS_AT_IN_PLAY + 1:
        return (FinaleCue(),)
    return ()
