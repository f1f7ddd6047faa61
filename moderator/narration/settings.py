"""What the table can change about the voice, as one immutable value.

A frozen dataclass so the TUI can hand a new value to the narrator at any time
(`Narrator.update_settings`) without sharing mutable state between threads.
"""

from __future__ import annotations

from dataclasses import dataclass

#: espeak-ng accepts roughly 80 to 450 words per minute; beyond that it clips.
MIN_RATE = 80
MAX_RATE = 450
#: The rulebook says "five seconds later"; a table may want longer.
DEFAULT_REVEAL_SECONDS = 5.0
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
    """

    enabled: bool = True
    lang: str = "en"
    rate: int = 160
    volume: float = 1.0
    reveal_seconds: float = DEFAULT_REVEAL_SECONDS
    announce_turns: bool = False

    def clamped(self) -> VoiceSettings:
        """The same settings with every number inside what the engine accepts."""
        return VoiceSettings(
            enabled=self.enabled,
            lang=self.lang,
            rate=int(min(MAX_RATE, max(MIN_RATE, self.rate))),
            volume=float(min(1.0, max(0.0, self.volume))),
            reveal_seconds=float(min(MAX_PAUSE_SECONDS, max(1.0, self.reveal_seconds))),
            announce_turns=self.announce_turns,
        )
