"""What the table can change about the voice, as one immutable value.

A frozen dataclass so the TUI can hand a new value to the narrator at any time
(`Narrator.update_settings`) without sharing mutable state between threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from moderator.narration.audio.ambience import DEFAULT_LEVEL, clamp_level

#: espeak-ng accepts roughly 80 to 450 words per minute; beyond that it clips.
MIN_RATE = 80
MAX_RATE = 450
#: espeak-ng's own default; measured clearest of 130 to 175 words per minute by the
#: offline recognizer (bench/bench_intelligibility.py): reveal WER 0.35 at 175 against
#: 0.50 at 160 and 0.69 at 150, finale within noise (0.44 / 0.42 / 0.64).
DEFAULT_RATE = 175
#: The rulebook says "five seconds later"; a table may want longer.
DEFAULT_REVEAL_SECONDS = 5.0
#: The rulebook gives the growling no length; long enough for a growl, configurable.
DEFAULT_GROWL_SECONDS = 2.0
#: The growling's range: the one the settings accept and the narrator clamps to.
MIN_GROWL_SECONDS = 1.0
MAX_GROWL_SECONDS = 30.0
#: A pause longer than this is surely a typo in a voice script.
MAX_PAUSE_SECONDS = 60.0
#: The Possessed's eyes-open window: the one range the settings, the voice-script
#: loader and `narrate --seconds` all accept.
MIN_REVEAL_SECONDS = 1.0
MAX_REVEAL_SECONDS = MAX_PAUSE_SECONDS
#: The rulebook gives the Meeting's silent passing no length: the bed plays this long
#: after the last instruction (only with ambience on), and the table can change it.
DEFAULT_PASSING_SECONDS = 20.0
#: Silence before a render or mixed span starts (seconds): a player that wakes slowly
#: (Bluetooth, a suspended PulseAudio sink) eats that, not the start of the first word.
DEFAULT_LEAD_IN = 0.25
MAX_LEAD_IN = 2.0
#: Engines that can speak English; espeak-ng speaks every language.
ENGLISH_ENGINES = ("espeak", "piper")


@dataclass(frozen=True)
class VoiceSettings:
    """How the narrator speaks.

    Attributes:
        enabled: False mutes the voice; captions and timing continue.
        lang: Language code of a voice-script set (en, fr, de, es...).
        rate: Words per minute.
        volume: 0.0 to 1.0.
        reveal_seconds: How long the Possessed keep their eyes open.
        announce_turns: Whether the TUI speaks the `turn` script each turn.
        growl_seconds: How long the Possessed growl in the finale before the
            applause cue.
        ambience: Whether a sound bed masks the room while eyes are closed.
        ambience_level: The bed's loudness, 0..1 (0.5 is about -26 dBFS).
        english_engine: "espeak", or "piper" for the optional neural voice
            (falls back to espeak, with one notice, when it is missing or fails).
        passing_seconds: How long the bed plays under the Meeting's silent passing.
        lead_in: Seconds of silence before the first sound of a render or a mixed span.
    """

    enabled: bool = True
    lang: str = "en"
    rate: int = DEFAULT_RATE
    volume: float = 1.0
    reveal_seconds: float = DEFAULT_REVEAL_SECONDS
    announce_turns: bool = False
    growl_seconds: float = DEFAULT_GROWL_SECONDS
    ambience: bool = True
    ambience_level: float = DEFAULT_LEVEL
    english_engine: str = "espeak"
    passing_seconds: float = DEFAULT_PASSING_SECONDS
    lead_in: float = DEFAULT_LEAD_IN

    @property
    def bed_level(self) -> float:
        """The level the mix uses: 0 when ambience is off."""
        return clamp_level(self.ambience_level) if self.ambience else 0.0

    def clamped(self) -> VoiceSettings:
        """The same settings with every number inside what the engine accepts."""
        return VoiceSettings(
            enabled=self.enabled,
            lang=self.lang,
            rate=int(min(MAX_RATE, max(MIN_RATE, self.rate))),
            volume=float(min(1.0, max(0.0, self.volume))),
            reveal_seconds=float(
                min(MAX_REVEAL_SECONDS, max(MIN_REVEAL_SECONDS, self.reveal_seconds))
            ),
            announce_turns=self.announce_turns,
            growl_seconds=float(min(MAX_GROWL_SECONDS, max(MIN_GROWL_SECONDS, self.growl_seconds))),
            ambience=bool(self.ambience),
            ambience_level=clamp_level(self.ambience_level),
            english_engine=(
                self.english_engine if self.english_engine in ENGLISH_ENGINES else "espeak"
            ),
            passing_seconds=_seconds(self.passing_seconds, DEFAULT_PASSING_SECONDS, 1.0),
            lead_in=min(MAX_LEAD_IN, _seconds(self.lead_in, DEFAULT_LEAD_IN, 0.0)),
        )


def _seconds(value: float, default: float, least: float) -> float:
    """`value` within least..MAX_PAUSE_SECONDS (the default when it is not a number)."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return default
    if not math.isfinite(seconds):
        return default
    return min(MAX_PAUSE_SECONDS, max(least, seconds))
