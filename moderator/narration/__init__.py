"""Voice scripts and speech: the narrator the TUI uses to speak the table's moments.

Import from here; see docs/architecture.md, section "Narration", for the contract.
"""

from moderator.narration.events import (
    AmbienceSpan,
    Countdown,
    Finished,
    LineStarted,
    NarrationEvent,
    Notice,
    SpeechFaulted,
)
from moderator.narration.narrator import Narrator, make_narrator
from moderator.narration.scripts import Language, available_languages
from moderator.narration.settings import VoiceSettings
from moderator.narration.speaker import Clip, SilentSpeaker, Speaker, SpeechFault

__all__ = [
    "AmbienceSpan",
    "Clip",
    "Countdown",
    "Finished",
    "Language",
    "LineStarted",
    "NarrationEvent",
    "Narrator",
    "Notice",
    "SilentSpeaker",
    "Speaker",
    "SpeechFault",
    "SpeechFaulted",
    "VoiceSettings",
    "available_languages",
    "make_narrator",
]
