"""What the narrator tells its listener, as facts in the past tense.

The TUI receives these from a background thread (and posts them to its own
event loop), so they are small frozen values with no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from moderator.i18n import N_, _


@dataclass(frozen=True)
class LineStarted:
    """A line's audio has just started (or its caption is due, when muted)."""

    text: str


@dataclass(frozen=True)
class Countdown:
    """Whole seconds left in a pause; 0 when the pause is over."""

    seconds_left: int


@dataclass(frozen=True)
class Notice:
    """Something is missing (sent once per missing part), with how to fix it."""

    message: str


@dataclass(frozen=True)
class Finished:
    """The script ended, or was cancelled (by `cancel()` or a newer `play()`)."""

    cancelled: bool


@dataclass(frozen=True)
class AmbienceSpan:
    """An eyes-closed span with the ambience bed began (`started`) or ended.

    `audible` is False when the bed cannot be heard (captions only, muted, no
    sound device, or a line fell back to captions): the screen can still show
    that ambience would play.
    """

    started: bool
    audible: bool


@dataclass(frozen=True)
class SpeechFaulted:
    """A speech part failed (told once per part, until it works again).

    Sent to the app-wide watchers of `Narrator.watch_faults`, whatever script
    (or none) was playing, so the table sees the voice's state on every screen.

    Attributes:
        part: Stable name of what failed ("device", "player", "library"...).
        message: The full sentence, with how to fix it.
        marker: A few words for a permanent status line ("voice off: no sound device").
    """

    part: str
    message: str
    marker: str
    #: Tells the two health events apart without importing this module (the TUI).
    recovered: ClassVar[bool] = False


@dataclass(frozen=True)
class SpeechRecovered:
    """A part that failed works again (a clip played, a line synthesized): its marker goes.

    Sent to the same watchers as `SpeechFaulted`; a later failure of the part
    is told again. Never sent for a permanent fault (a missing library).
    """

    part: str
    marker: str
    #: Nothing to fix any more (a field, so both health events read alike).
    message: str = ""
    recovered: ClassVar[bool] = True


#: What `Narrator.watch_faults` watchers receive.
VoiceHealth = SpeechFaulted | SpeechRecovered

#: Short status for each failed part; anything else is "voice trouble".
_MARKERS = {
    "device": N_("voice off: no sound device"),
    "player": N_("voice off: no audio player"),
    "player-hang": N_("voice trouble: the audio player hung"),
    "library": N_("voice off: no speech engine"),
    "engine": N_("voice off: the speech engine failed"),
    "synthesis": N_("voice trouble: the speech engine is slow"),
    "cache": N_("voice trouble: cannot store speech"),
}
_TROUBLE = N_("voice trouble")


def marker_for(part: str) -> str:
    """The status-line words for a failed part, in the table's language when it is asked."""
    if part.startswith("voice:"):
        return _("voice {name} missing: shipped voice used").format(
            name=repr(part.partition(":")[2])
        )
    return _(_MARKERS.get(part, _TROUBLE))


NarrationEvent = LineStarted | Countdown | Notice | Finished | AmbienceSpan
