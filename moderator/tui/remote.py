"""The phone remote's presses entering the table: each one the same intent its key posts.

The board server checks a press's token, origin, size and rate and reads it
(`moderator.board`); here it meets the table. One press at a time (a lock):
a press made on an older board than the one the phones were last sent is refused
with what changed, so two phones pressing Next turn at once pass one turn. A
fresh press becomes the intent the laptop's key posts (`PassTurn`, `KnockOut`...),
posted to the app with the phase the phone saw as its origin; the app acts on it
exactly as on a key (saved in the game's log, undoable), then answers through
the intent's `reply`. The laptop says "from a phone" for a moment, in its own
words: nothing the phone sends is shown.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING

from moderator.board.presses import (
    DONE_FROM_A_PHONE,
    Press,
    PressRefused,
    actions_in,
    what_changed,
)
from moderator.i18n import N_, _
from moderator.table.outcomes import Outcome
from moderator.table.phases import Phase
from moderator.tui.messages import (
    DrawMeeting,
    Intent,
    KnockOut,
    PassTurn,
    ResolveMeeting,
    ToggleSitOut,
    UndoLast,
)

if TYPE_CHECKING:
    from moderator.tui.app import MindFlayerApp

#: One remote per app, kept beside it (the app module stays as it was).
_REMOTES: weakref.WeakKeyDictionary[MindFlayerApp, PhoneRemote] = weakref.WeakKeyDictionary()

#: Seconds a press waits for the app to act (an upper bound for a closing app, not a pace).
ANSWER_WITHIN = 10.0
#: How long the laptop's "from a phone" toast stays.
TOAST_SECONDS = 3

LAPTOP_ONLY = N_("The laptop runs this part of the game: look at the laptop.")


def intent_for(press: Press) -> Intent:
    """The intent the laptop's key for `press.action` posts (the seat the phone picked)."""
    seat = press.seat if press.seat is not None else -1
    match press.action:
        case "next_turn":
            return PassTurn()
        case "meeting":
            return DrawMeeting()
        case "knock_out":
            return KnockOut(seat)
        case "resolve":
            return ResolveMeeting()
        case "sit_out":
            return ToggleSitOut(seat)
        case "undo":
            return UndoLast()
    raise PressRefused(400, _("The phone's press could not be read: reload the page."))


def phone_remote(app: MindFlayerApp) -> PhoneRemote:
    """The app's phone remote (made on first use)."""
    remote = _REMOTES.get(app)
    if remote is None:
        remote = _REMOTES[app] = PhoneRemote(app)
    return remote


class PhoneRemote:
    """Turns the phones' presses into the table's intents, one at a time."""

    def __init__(self, app: MindFlayerApp) -> None:
        self._app = app
        self._lock = asyncio.Lock()
        #: Presses acted on since the app started (the laptop's log says each).
        self.acted = 0

    async def press(self, press: Press) -> str:
        """Act on `press` if it was made on the board the phones show now; the phone's sentence.

        Raises:
            PressRefused: a stale press (409, with what changed), an action the phase
                does not take or a seat not at the table (409/400), the table's own
                refusal (409), or an app that did not answer (503).
        """
        async with self._lock:
            board = self._app.board
            now = board.last
            if now is None:  # no board published yet: nothing to have pressed on
                raise PressRefused(409, _(LAPTOP_ONLY))
            if press.seq != now.seq:
                raise PressRefused(409, what_changed(board.seen(press.seq), now))
            if press.action not in actions_in(now.phase):
                raise PressRefused(409, _(LAPTOP_ONLY))
            if press.seat is not None and press.seat >= len(now.seats):
                raise PressRefused(400, _("There is no such seat at this table."))
            outcome = await self._act(intent_for(press), Phase(now.phase), now.seq)
        if outcome is None:  # the laptop acted first: say what it did
            last = self._app.board.last
            raise PressRefused(409, what_changed(now, last) if last else _(LAPTOP_ONLY))
        if outcome.refused:
            raise PressRefused(409, outcome.notice or _("The table refused that."))
        self.acted += 1
        done = _(DONE_FROM_A_PHONE[press.action])
        self._app.log.info(f"Phone remote: {press.action} (board {press.seq}).")
        self._app.notify(done, title=_("Phone remote"), markup=False, timeout=TOAST_SECONDS)
        return done

    async def _act(self, intent: Intent, phase: Phase, seq: int) -> Outcome | None:
        """Post `intent` as the phase's screen would, and wait for the app's outcome.

        A key pressed on the laptop meanwhile is handled first (the app's queue): the
        intent is dropped then if the phones' board is no longer board `seq`.
        """
        board = self._app.board
        answered: asyncio.Future[Outcome | None] = asyncio.get_running_loop().create_future()

        def reply(outcome: Outcome | None) -> None:
            if not answered.done():
                answered.set_result(outcome)

        intent.origin = phase
        intent.reply = reply
        intent.meant = lambda: board.last is not None and board.last.seq == seq
        self._app.post_message(intent)
        try:
            return await asyncio.wait_for(answered, ANSWER_WITHIN)
        except TimeoutError:
            raise PressRefused(503, _("The laptop did not answer: try again.")) from None
