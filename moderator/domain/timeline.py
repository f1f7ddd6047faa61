"""Undo and redo over a game's events, as a log that can be persisted.

The storage layer appends every entry of `Timeline.log` (events and the
`Undo`/`Redo` markers) to an append-only table; `Timeline.from_log` rebuilds
both the state and the redo stack, so a restarted app undoes exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from moderator.domain.errors import IllegalAction
from moderator.domain.events import (
    Event,
    GameStarted,
    RevealFinished,
    event_from_json,
    event_to_json,
)
from moderator.domain.game import GameState, apply, replay


@dataclass(frozen=True)
class Undo:
    """Log marker: the last applied event was taken back."""


@dataclass(frozen=True)
class Redo:
    """Log marker: the last undone event was applied again."""


LogEntry = Event | Undo | Redo


def entry_to_json(entry: LogEntry) -> dict[str, Any]:
    """JSON-ready form of a log entry (events, or the two markers)."""
    if isinstance(entry, Undo | Redo):
        return {"type": type(entry).__name__}
    return event_to_json(entry)


def entry_from_json(data: dict[str, Any]) -> LogEntry:
    """Inverse of `entry_to_json`."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "Undo":
        return Undo()
    if kind == "Redo":
        return Redo()
    return event_from_json(data)


@dataclass
class Timeline:
    """A game's applied events, the undone ones that can be redone, and the log.

    Undo drops the last event and replays (events are cheap; a game has at most
    a few hundred), so there is no inverse logic to get wrong.
    """

    events: list[Event] = field(default_factory=list)
    redo_stack: list[Event] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    _state: GameState | None = None

    @property
    def state(self) -> GameState:
        """The current state; the game must have started."""
        if self._state is None:
            raise IllegalAction("No game has started yet.")
        return self._state

    @property
    def started(self) -> bool:
        """Whether `GameStarted` has been applied."""
        return self._state is not None

    @property
    def can_undo(self) -> bool:
        """Undo never removes the `GameStarted` event: the roster stays."""
        return len(self.events) > 1

    @property
    def just_started(self) -> bool:
        """Nothing done since the players sat down, and nothing undone but the reveal's end.

        Then an undo can only mean "that start was an accident" (the table takes
        the whole game back); the reveal's end alone does not count as play.
        """
        return (
            self.started
            and not self.can_undo
            and all(isinstance(event, RevealFinished) for event in self.redo_stack)
        )

    @property
    def can_redo(self) -> bool:
        """Whether an undone event is waiting to be redone."""
        return bool(self.redo_stack)

    def preview(self, event: Event) -> GameState:
        """The state `event` would lead to, without recording it."""
        return apply(self._state, event)

    def act(self, event: Event) -> GameState:
        """Apply a new event; a new action clears the redo stack."""
        self._state = apply(self._state, event)
        self.events.append(event)
        self.redo_stack.clear()
        self.log.append(event)
        return self._state

    def undo(self) -> Event:
        """Take back the last event and return it (for a "undone: …" notice)."""
        if not self.can_undo:
            raise IllegalAction("There is nothing to undo.")
        event = self.events.pop()
        self.redo_stack.append(event)
        self._state = replay(self.events)
        self.log.append(Undo())
        return event

    def redo(self) -> Event:
        """Apply the last undone event again and return it."""
        if not self.can_redo:
            raise IllegalAction("There is nothing to redo.")
        event = self.redo_stack[-1]
        self._state = apply(self._state, event)
        self.redo_stack.pop()
        self.events.append(event)
        self.log.append(Redo())
        return event

    def check(self, entry: LogEntry) -> None:
        """Raise `IllegalAction` if `entry` cannot be applied now (nothing changes)."""
        if isinstance(entry, Undo):
            if not self.can_undo:
                raise IllegalAction("There is nothing to undo.")
        elif isinstance(entry, Redo):
            if not self.can_redo:
                raise IllegalAction("There is nothing to redo.")
        else:
            apply(self._state, entry)

    def after(self, entry: LogEntry) -> Timeline:
        """A new timeline with `entry` applied; this one is left as it was.

        Raises `IllegalAction` if the entry cannot be applied. The storage layer
        uses it to apply an entry once: compute the next timeline, commit the
        entry, then keep the new timeline (a failed commit just drops it).
        """
        following = Timeline(
            events=list(self.events),
            redo_stack=list(self.redo_stack),
            log=list(self.log),
            _state=self._state,
        )
        following.record(entry)
        return following

    def record(self, entry: LogEntry) -> None:
        """Apply any log entry: an event, an `Undo` or a `Redo`."""
        if isinstance(entry, Undo):
            self.undo()
        elif isinstance(entry, Redo):
            self.redo()
        else:
            self.act(entry)

    @classmethod
    def from_log(cls, entries: Iterable[LogEntry]) -> Timeline:
        """Rebuild a timeline, undo history included, from its persisted log."""
        timeline = cls()
        for entry in entries:
            timeline.record(entry)
        return timeline

    @classmethod
    def start(
        cls, players: Iterable[str], first_player: int = 0, said_as: Iterable[str] = ()
    ) -> Timeline:
        """A new timeline whose first event seats the players (and how names are said)."""
        said = tuple(said_as)
        timeline = cls()
        timeline.act(GameStarted(tuple(players), first_player, said if any(said) else ()))
        return timeline
