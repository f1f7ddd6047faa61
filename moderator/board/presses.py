"""The phone remote's presses: what a phone may ask, read strictly, and why one is refused.

A press is three JSON fields and nothing else: the action (one of `ACTIONS`),
the seat it names (knock-out and sit-out only) and the `seq` of the board the
phone drew when its player pressed. Nothing a phone sends is ever shown: the
seat is a number the table's own names are looked up by, and every sentence
a phone gets back is ours, in the table's language.

A press made on an older board than the laptop's is refused with what changed
between the two boards (`what_changed`), so two phones pressing Next turn at
once pass one turn and the slower one reads "Ben already passed the turn."
`PressLimit` bounds presses per phone per second, and the phones it remembers.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from moderator.board.snapshot import BoardSnapshot
from moderator.i18n import N_, _

__all__ = [
    "ACTIONS",
    "MAX_BODY",
    "Press",
    "PressLimit",
    "PressRefused",
    "actions_in",
    "read_press",
    "what_changed",
]

#: Bytes a press's body may have (a press is about 50).
MAX_BODY = 256

#: Every action a phone may ask, by phase; the reveal, the finale's count and the
#: results stay on the laptop (eyes closed, and the teams are told to the laptop).
ACTIONS: dict[str, frozenset[str]] = {
    "table": frozenset({"next_turn", "meeting", "knock_out", "undo"}),
    "meeting": frozenset({"resolve", "sit_out", "knock_out", "undo"}),
}
#: The actions that name a seat.
SEATED = frozenset({"knock_out", "sit_out"})

#: The laptop's toast for each action ("from a phone"), and the log's words.
DONE_FROM_A_PHONE = {
    "next_turn": N_("From a phone: next turn."),
    "meeting": N_("From a phone: Meeting card."),
    "knock_out": N_("From a phone: knock-out."),
    "resolve": N_("From a phone: Meeting resolved."),
    "sit_out": N_("From a phone: sits out or comes back."),
    "undo": N_("From a phone: undo."),
}


class PressRefused(Exception):
    """A press the table does not act on: an HTTP status and a sentence for the phone."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence


@dataclass(frozen=True)
class Press:
    """What one phone asked, on the board `seq` it saw."""

    action: str
    seq: int
    seat: int | None = None


def actions_in(phase: str) -> frozenset[str]:
    """The actions a phone may ask in `phase` (none outside the table and the Meeting)."""
    return ACTIONS.get(phase, frozenset())


def read_press(body: bytes) -> Press:
    """The press in `body`, or PressRefused(400) with a sentence (never echoing the body)."""
    bad = PressRefused(400, _("The phone's press could not be read: reload the page."))
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise bad from None
    if not isinstance(data, dict) or not set(data) <= {"action", "seq", "seat"}:
        raise bad
    action, seq, seat = data.get("action"), data.get("seq"), data.get("seat")
    known = {name for names in ACTIONS.values() for name in names}
    if not isinstance(action, str) or action not in known:
        raise bad
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise bad
    if action not in SEATED:
        if seat is not None:
            raise bad
        return Press(action, seq)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 64:
        raise bad
    return Press(action, seq, seat)


def what_changed(seen: BoardSnapshot | None, now: BoardSnapshot) -> str:
    """Why a press made on board `seen` is refused on board `now`, in one sentence.

    The first difference a player would notice, in the order things happen at the
    table; `seen` None (too old to be remembered) says only that the board moved on.
    """
    if seen is None:
        return _("The table has moved on since this phone's board: look again and press again.")
    if seen.game_number != now.game_number or (seen.seats and not now.seats):
        return _("That game is over on the laptop: look again.")
    seen_out = {s.name for s in seen.seats if not s.in_play}
    now_out = [s.name for s in now.seats if not s.in_play and s.name not in seen_out]
    back = [
        s.name
        for s in seen.seats
        if not s.in_play and s.name not in {n.name for n in now.seats if not n.in_play}
    ]
    if seen.meeting is None and now.meeting is not None:
        return _("A Meeting has already started.")
    if seen.meeting is not None and now.meeting is None and now.meetings_done > seen.meetings_done:
        return _("The Meeting was already resolved.")
    if now_out:
        return _("{name} was already knocked out.").format(name=now_out[0])
    if back:
        return _("{name} is back in play (undone on the laptop).").format(name=back[0])
    if seen.current is not None and (seen.turn, seen.current) != (now.turn, now.current):
        if now.turn is not None and seen.turn is not None and now.turn > seen.turn:
            return _("{name} already passed the turn.").format(name=seen.current)
        return _("The turn was taken back: it is {name}'s turn.").format(name=now.current or "")
    if seen.meeting and now.meeting and seen.meeting.sitting_out != now.meeting.sitting_out:
        return _("Who sits out this Meeting has just changed.")
    if seen.phase != now.phase:
        return _("The laptop has moved on: look again.")
    return _("The board changed since this phone drew it: look again and press again.")


class PressLimit:
    """At most `per_second` presses per phone in any second; remembers `phones` phones.

    A phone is its address and the random id its page keeps (several phones can
    share an address behind one Wi-Fi access point, or on loopback in the tests).
    The oldest phone is forgotten first, so the memory is bounded whatever is sent.
    """

    def __init__(self, per_second: int = 4, phones: int = 256) -> None:
        self.per_second = per_second
        self.phones = phones
        self._presses: OrderedDict[str, list[float]] = OrderedDict()

    def allow(self, phone: str, now: float) -> bool:
        """Whether `phone` may press at `now` (seconds); a press allowed is counted."""
        recent = [t for t in self._presses.pop(phone, []) if now - t < 1.0]
        allowed = len(recent) < self.per_second
        if allowed:
            recent.append(now)
        self._presses[phone] = recent
        while len(self._presses) > self.phones:
            self._presses.popitem(last=False)
        return allowed
