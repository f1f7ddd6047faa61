"""Facts the narrator's background thread reports to the screens.

The narrator calls back from its own thread; `Session.speak` turns each
callback into one of these messages and posts it (`post_message` is
thread-safe), so the screens handle narration on the UI thread like any event.
Each carries the id of the playback it belongs to, so a screen can ignore the
tail end of a playback it has already replaced or cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class NarrationLineStarted(Message):
    """A line of the script started playing: show it as the caption."""

    playback: int
    text: str


@dataclass
class NarrationCountedDown(Message):
    """One second of a timed pause went by."""

    playback: int
    seconds_left: int


@dataclass
class NarrationNoticed(Message):
    """The narrator has something to tell the table (e.g. a missing part)."""

    playback: int
    message: str


@dataclass
class NarrationFinished(Message):
    """The script ended, or was cancelled (muted, Esc, or replaced)."""

    playback: int
    cancelled: bool


def translate(playback: int, event: object) -> Message | None:
    """The message for one narration event (matched by the contract's names).

    Matching by the event type's name and attributes keeps this module free of
    an import of the narration layer, which may be swapped for a stand-in.
    """
    kind = type(event).__name__
    if kind == "LineStarted":
        return NarrationLineStarted(playback, str(getattr(event, "text", "")))
    if kind == "Countdown":
        return NarrationCountedDown(playback, int(getattr(event, "seconds_left", 0)))
    if kind == "Notice":
        return NarrationNoticed(playback, str(getattr(event, "message", "")))
    if kind == "Finished":
        return NarrationFinished(playback, bool(getattr(event, "cancelled", False)))
    return None
