"""What happened at the table, as immutable, JSON-serializable facts.

Events name seats by index into the clockwise seating order fixed by
`GameStarted`; the storage layer persists them as JSON and `replay` rebuilds the
state from them, so they must stay small, plain and versionable.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any

from moderator.domain.errors import IllegalAction

#: Field metadata of a field added after logs were first written: left out of the
#: JSON while it holds its default, and its default when a log lacks it, so old
#: logs load unchanged and an older app still reads a new log of a game without it.
OPTIONAL = {"optional": True}


@dataclass(frozen=True)
class GameStarted:
    """The table sat down: names clockwise, and who (the youngest) starts."""

    players: tuple[str, ...]
    first_player: int
    #: How each name is said, by seat ("" for a name said as written): what the
    #: table typed in setup's "say it as". Empty for a game without any.
    said_as: tuple[str, ...] = field(default=(), metadata=OPTIONAL)


@dataclass(frozen=True)
class RevealFinished:
    """The eyes-closed reveal (6+ players) ran to its last line, or the table skipped it.

    Recorded so that a reveal cut short (the app closed or killed while eyes
    were closed) is offered again on resume: a game of 6+ players whose log has
    no `RevealFinished` and no action yet still owes the table its reveal. Logs
    written before this event existed stay readable: any action also ends it.
    """


@dataclass(frozen=True)
class TurnPassed:
    """The current player finished their turn; the next in play clockwise goes."""


@dataclass(frozen=True)
class PlayerKnockedOut:
    """A player announced they are knocked out and flipped their tile."""

    player: int


@dataclass(frozen=True)
class MeetingStarted:
    """The current player drew a Meeting card; some in-play players may sit out."""

    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class SitOutToggled:
    """During a Meeting, the table changed whether an in-play player sits out."""

    player: int


@dataclass(frozen=True)
class MeetingResolved:
    """Every participant received their two cards: the Meeting is over."""


@dataclass(frozen=True)
class ResultsDeclared:
    """After the count to 3 the teams are public: who growled, Waffles in hand."""

    possessed: tuple[int, ...]
    waffles: tuple[int, ...]


Event = (
    GameStarted
    | RevealFinished
    | TurnPassed
    | PlayerKnockedOut
    | MeetingStarted
    | SitOutToggled
    | MeetingResolved
    | ResultsDeclared
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        RevealFinished,
        TurnPassed,
        PlayerKnockedOut,
        MeetingStarted,
        SitOutToggled,
        MeetingResolved,
        ResultsDeclared,
    )
}


def event_to_json(event: Event) -> dict[str, Any]:
    """A plain dict (JSON-ready) with the event's type under "type"."""
    data: dict[str, Any] = {"type": type(event).__name__}
    values = asdict(event)
    for item in fields(event):
        value = values[item.name]
        if item.metadata.get("optional") and value == item.default:
            continue
        data[item.name] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_json` output; refuse anything else."""
    try:
        cls = EVENT_TYPES[data["type"]]
    except (KeyError, TypeError):
        raise IllegalAction("Unknown event in the game log: {data!r:.80}", data=data) from None
    kwargs: dict[str, Any] = {}
    for item in fields(cls):
        if item.name not in data:
            if item.metadata.get("optional") and item.default is not MISSING:
                continue
            raise IllegalAction(
                "The game log's {event} lacks “{field}”.", event=cls.__name__, field=item.name
            )
        value = data[item.name]
        kwargs[item.name] = tuple(value) if isinstance(value, list) else value
    return cls(**kwargs)
