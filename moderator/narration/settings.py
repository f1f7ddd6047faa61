"""What the table can change about the voice, as one immutable value.

A frozen dataclass so the TUI can hand a new value to the narrator at any time
(`Narrator.update_settings`) without sharing mutable state between threads.
"""

from __future__ import annotations

from dataclasses import dataclass

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
#: A pause longer than this is surely a typo in a voice script.
MAX_PAUSE_SECONDS = 60.0


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
    """

    enabled: bool = True
    lang: str = "en"
    rate: int = DEFAULT_RATE
    volume: float = 1.0
    reveal_seconds: float = DEFAULT_REVEAL_SECONDS
    announce_turns: bool = False
    growl_seconds: float = DEFAULT_GROWL_SECONDS

    def clamped(self) -> VoiceSettings:
        """The same settings with every number inside what the engine accepts."""
        return VoiceSettings(
            enabled=self.enabled,
            lang=self.lang,
            rate=int(min(MAX_RATE, max(MIN_RATE, self.rate))),
            volume=float(min(1.0, max(0.0, self.volume))),
            reveal_seconds=float(min(MAX_PAUSE_SECONDS, max(1.0, self.reveal_seconds))),
            announce_turns=self.announce_turns,
            growl_seconds=float(min(MAX_PAUSE_SECONDS, max(0.5, self.growl_seconds))),
        )
