"""Voice scripts and speech: the narrator the TUI uses to speak the table's moments.

Import from here; see docs/architecture.md, section "Narration", for the contract.

The names are loaded on first use (PEP 562 `__getattr__`): the app's first
frame needs only the settings and the event types, and importing the narrator
(scripts, validation, the speech engine's adapters) cost about a tenth of the
start-up (docs/startup.md); the narrator is built after the first frame.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from moderator.narration.events import (
        AmbienceSpan,
        Countdown,
        Finished,
        LineStarted,
        NarrationEvent,
        Notice,
        SpeechFaulted,
        SpeechRecovered,
    )
    from moderator.narration.job import Timing
    from moderator.narration.narrator import Narrator, make_narrator
    from moderator.narration.scripts.library import Language, available_languages
    from moderator.narration.settings import VoiceSettings
    from moderator.narration.speech.speaker import Clip, SilentSpeaker, Speaker, SpeechFault

#: Where each public name lives (module of this package).
_HOMES = {
    "AmbienceSpan": "events",
    "Countdown": "events",
    "Finished": "events",
    "LineStarted": "events",
    "NarrationEvent": "events",
    "Notice": "events",
    "SpeechFaulted": "events",
    "SpeechRecovered": "events",
    "Timing": "job",
    "Narrator": "narrator",
    "make_narrator": "narrator",
    "Language": "scripts.library",
    "available_languages": "scripts.library",
    "VoiceSettings": "settings",
    "Clip": "speech.speaker",
    "SilentSpeaker": "speech.speaker",
    "Speaker": "speech.speaker",
    "SpeechFault": "speech.speaker",
}

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
    "SpeechRecovered",
    "Timing",
    "VoiceSettings",
    "available_languages",
    "make_narrator",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
