"""What the table can change about the voice, as one immutable value.

A frozen dataclass so the TUI can hand a new value to the narrator at any time
(`Narrator.update_settings`) without sharing mutable state between threads.

Each field is declared once, with its default and its `Rule` (what it accepts,
the sentence when it does not, and how the narrator clamps it): the table's
settings (`moderator.table.config.TableSettings`) extend this class rather than
copying it, so the screen validates and the narrator clamps to one set of limits.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Self

from moderator.i18n import N_
from moderator.narration.audio.ambience import DEFAULT_LEVEL, clamp_level
from moderator.narration.setting_rules import (
    RULE,
    Choice,
    Code,
    Engines,
    Level,
    Number,
    OnOff,
    setting,
)

#: espeak-ng accepts roughly 80 to 450 words per minute; beyond that it clips.
MIN_RATE = 80
MAX_RATE = 450
#: espeak-ng's own default; measured clearest of 130 to 175 words per minute by the
#: offline recognizer of the time (pocketsphinx; bench/bench_intelligibility.py now
#: scores with Whisper): reveal WER 0.35 at 175 against 0.50 at 160 and 0.69 at 150,
#: finale within noise (0.44 / 0.42 / 0.64).
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
MIN_PASSING_SECONDS = 1.0
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
        voice_engines: The engine each language speaks with, as `fr=fr_FR-siwis-medium
            de=espeak`: espeak, natural (its best installed Piper voice) or a voice's
            name. A language not named speaks with its best installed natural voice,
            or espeak-ng when it has none; English keeps `english_engine` unless named.
    """

    enabled: bool = setting(True, OnOff(N_("The voice must be on or off.")))
    lang: str = setting("en", Code(N_("The language must be a code such as en, fr or de.")))
    rate: int = setting(
        DEFAULT_RATE,
        Number(
            MIN_RATE,
            MAX_RATE,
            N_("The speech rate must be between {least} and {most} words per minute."),
            whole=True,
            not_whole=N_("The speech rate must be a whole number of words per minute."),
        ),
    )
    volume: float = setting(1.0, Level(N_("The volume must be between 0 and 1.")))
    reveal_seconds: float = setting(
        DEFAULT_REVEAL_SECONDS,
        Number(
            MIN_REVEAL_SECONDS,
            MAX_REVEAL_SECONDS,
            N_("The reveal window must be between {least:g} and {most:g} seconds."),
        ),
    )
    announce_turns: bool = setting(False, OnOff(N_("Turn announcements must be on or off.")))
    growl_seconds: float = setting(
        DEFAULT_GROWL_SECONDS,
        Number(
            MIN_GROWL_SECONDS,
            MAX_GROWL_SECONDS,
            N_("The growling time must be between {least:g} and {most:g} seconds."),
        ),
    )
    ambience: bool = setting(True, OnOff(N_("Ambience must be on or off.")))
    ambience_level: float = setting(
        DEFAULT_LEVEL, Level(N_("The ambience level must be between 0 and 1."))
    )
    english_engine: str = setting(
        "espeak",
        Choice(ENGLISH_ENGINES, N_("The English voice must be one of: {options}.")),
    )
    passing_seconds: float = setting(
        DEFAULT_PASSING_SECONDS,
        Number(
            MIN_PASSING_SECONDS,
            MAX_PAUSE_SECONDS,
            N_("The silent passing must be between {least:g} and {most:g} seconds."),
        ),
    )
    lead_in: float = setting(
        DEFAULT_LEAD_IN,
        Number(0.0, MAX_LEAD_IN, N_("The lead-in must be between {least:g} and {most:g} seconds.")),
    )
    voice_engines: str = setting(
        "",
        Engines(
            N_(
                "The voice engines must read like fr=fr_FR-siwis-medium de=espeak "
                "(a language, =, then espeak, natural or a Piper voice's name)."
            )
        ),
    )

    @property
    def bed_level(self) -> float:
        """The level the mix uses: 0 when ambience is off."""
        return clamp_level(self.ambience_level) if self.ambience else 0.0

    def validated(self) -> Self:
        """The same settings (numbers as floats, the code stripped), or ValueError.

        The error's sentence names what is wrong, in the words of the first
        field (in declaration order) that its rule refuses.
        """
        rules = {item.name: item.metadata[RULE] for item in fields(self)}
        return type(self)(**{name: rule.check(getattr(self, name)) for name, rule in rules.items()})

    def clamped(self) -> VoiceSettings:
        """The voice's settings alone, every number inside what the engine accepts.

        Always a plain `VoiceSettings` (a subclass's extra fields are the table's,
        not the narrator's), so the narrator's copies compare equal.
        """
        return VoiceSettings(
            **{
                item.name: item.metadata[RULE].clamp(getattr(self, item.name), item.default)
                for item in fields(VoiceSettings)
            }
        )
