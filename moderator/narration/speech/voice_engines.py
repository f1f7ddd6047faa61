"""Which engine speaks each language: the settings' choice read against the voices installed.

The settings name an engine per language (`voice_engines`: `fr=fr_FR-siwis-medium
de=espeak`). A language they do not name speaks with its best installed natural
voice, or espeak-ng when it has none, so installing a voice is all a table does
to hear it; English keeps its own switch (`english_engine`, the `neural` extra's
model) unless named, as before. A choice that cannot be honoured (a voice not
installed, one that speaks another language, Piper missing) is espeak-ng plus
one sentence saying why, never silence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from moderator.i18n import _
from moderator.narration.setting_rules import (
    ESPEAK_ENGINE,
    NATURAL_ENGINE,
    OTHER_LANGUAGE,
    parse_engines,
)
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.neural_voice import NeuralVoice
from moderator.narration.speech.piper_voices import (
    RECOMMENDED,
    InstalledVoice,
    installed_voices,
    neural_missing,
    rank,
)

ENGLISH = "en"
#: English's `english_engine` value that means its natural voice.
PIPER = "piper"


@dataclass(frozen=True)
class EngineChoice:
    """What speaks one language: a natural voice, or espeak-ng (`voice` None)."""

    language: str
    voice: InstalledVoice | None = None
    #: True for English's shipped model chosen by `english_engine` (found when first used).
    shipped_english: bool = False
    #: Why the chosen natural voice does not speak (a sentence), or None.
    problem: str | None = None

    @property
    def engine(self) -> str:
        """`espeak`, or the natural voice's name."""
        if self.voice is not None:
            return self.voice.name
        return PIPER if self.shipped_english else ESPEAK_ENGINE


def chosen_engine(settings: VoiceSettings, language: str) -> str:
    """What the settings name for `language`: espeak, natural or a voice (natural if unnamed)."""
    try:
        table = parse_engines(settings.voice_engines)
    except ValueError:
        table = {}
    if language in table:
        return table[language]
    if language == ENGLISH:
        return NATURAL_ENGINE if settings.english_engine == PIPER else ESPEAK_ENGINE
    return NATURAL_ENGINE


def choose_engine(
    settings: VoiceSettings,
    language: str,
    voices: list[InstalledVoice] | None = None,
    root: Path | None = None,
) -> EngineChoice:
    """The engine `language` speaks with under `settings`, given the installed `voices`."""
    try:
        named = language in parse_engines(settings.voice_engines)
    except ValueError:
        named = False
    choice = chosen_engine(settings, language)
    if choice == ESPEAK_ENGINE:
        return EngineChoice(language)
    if language == ENGLISH and not named:
        # English's switch, as it always worked: the shipped model, found on first use
        # (its absence is told with the first English line, by the speaker).
        return EngineChoice(language, shipped_english=True)
    if voices is None:
        voices = installed_voices(root)
    missing = neural_missing()
    if choice == NATURAL_ENGINE:
        own = rank(v for v in voices if v.language == language)
        if not own:
            problem = None
            if named:
                problem = _(
                    "No natural voice is installed for {lang}; espeak-ng speaks instead "
                    "(`mindflayer voices install {lang}` adds {voice})."
                ).format(lang=language, voice=RECOMMENDED.get(language, _("one")))
            return EngineChoice(language, problem=problem)
        if missing:
            return EngineChoice(language, problem=missing)
        return EngineChoice(language, voice=own[0])
    found = next((v for v in voices if v.name == choice), None)
    if found is None:
        return EngineChoice(
            language,
            problem=_(
                "The voice {voice} is not installed; espeak-ng speaks instead "
                "(`mindflayer voices install {voice}` adds it)."
            ).format(voice=choice),
        )
    if found.language != language:
        refused = _(OTHER_LANGUAGE).format(voice=choice, its=found.language, lang=language)
        return EngineChoice(language, problem=refused)
    if missing:
        return EngineChoice(language, problem=missing)
    return EngineChoice(language, voice=found)


@dataclass(frozen=True)
class Routes:
    """What the speaker needs: each espeak voice id's natural voice, and what to warm."""

    #: espeak voice id -> its natural voice (None: English's shipped model).
    voices: dict[str, NeuralVoice | None]
    #: The table's language's voice id when it speaks with a natural voice (warmed at once).
    warm: str | None
    #: The table's language's problem, a sentence (told once), or None.
    problem: str | None


def routes_for(
    settings: VoiceSettings,
    languages: Iterable[tuple[str, Iterable[str | None]]],
    root: Path | None = None,
) -> Routes:
    """The routes for `languages` (each a code and its espeak voice ids) under `settings`."""
    voices = installed_voices(root)
    routes: dict[str, NeuralVoice | None] = {}
    warm = problem = None
    for code, ids in languages:
        choice = choose_engine(settings, code, voices)
        named = [voice_id for voice_id in ids if voice_id]
        if choice.voice is not None or choice.shipped_english:
            natural = choice.voice.voice if choice.voice is not None else None
            routes.update(dict.fromkeys(named, natural))
        if code == settings.lang:
            problem = choice.problem
            if named and named[0] in routes:
                warm = named[0]
    return Routes(routes, warm, problem)
