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

from moderator.narration import AmbienceSpan, Countdown, Finished, LineStarted, Notice


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


@dataclass
class NarrationAmbience(Message):
    """An eyes-closed span with the ambience bed began or ended (audible: heard at all)."""

    playback: int
    started: bool
    audible: bool


def translate(playback: int, event: object) -> Message | None:
    """The message for one narration event (None for anything unknown)."""
    if isinstance(event, LineStarted):
        return NarrationLineStarted(playback, event.text)
    if isinstance(event, Countdown):
        return NarrationCountedDown(playback, event.seconds_left)
    if isinstance(event, Notice):
        return NarrationNoticed(playback, event.message)
    if isinstance(event, Finished):
        return NarrationFinished(playback, event.cancelled)
    if isinstance(event, AmbienceSpan):
        return NarrationAmbience(playback, event.started, event.audible)
    return None
