"""What one setting accepts: a rule declared with the field, read by the screen and the narrator.

`VoiceSettings` and the table's settings declare each field as
`setting(default, rule)`; `check` is what settings.json and the Settings screen
must give (else the player's sentence), `clamp` what the narrator makes of any
value built in code. One declaration, so the two can never disagree again.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from dataclasses import field
from typing import Any

from moderator.domain.errors import IllegalAction
from moderator.i18n import N_
from moderator.narration.audio.ambience import clamp_level

#: The key of a field's `Rule` in its dataclass metadata.
RULE = "rule"


class Rule(ABC):
    """What one setting accepts: `check` for a file or the screen, `clamp` for the narrator.

    `check` refuses with the sentence a player reads (an `IllegalAction`, a
    ValueError); `clamp` never refuses, so a value built in code still plays
    inside the engine's range. The sentence is an English template (marked `N_`
    where declared) whose fields the rule fills in (a number's `{least}` and
    `{most}`, a choice's `{options}`): the screen shows it translated
    (`moderator.i18n.refusals.refusal`), `str()` of the error is the English.
    """

    def __init__(self, sentence: str) -> None:
        self.sentence = sentence

    def fields(self) -> dict[str, object]:
        """What fills the sentence's `{fields}` (none but a number's or a choice's)."""
        return {}

    def refused(self, sentence: str) -> IllegalAction:
        """The error refusing a value with `sentence` (this rule's fields filled in)."""
        return IllegalAction(sentence, **self.fields())

    @abstractmethod
    def check(self, value: object) -> Any:
        """`value` as the setting keeps it, or ValueError with the sentence."""

    @abstractmethod
    def clamp(self, value: Any, default: Any) -> Any:
        """`value` made acceptable (the default when nothing can be made of it)."""


class OnOff(Rule):
    """A switch: JSON's true or false, nothing else."""

    def check(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.refused(self.sentence)
        return value

    def clamp(self, value: Any, default: Any) -> bool:
        return bool(value)


class Number(Rule):
    """A number from `least` to `most` (a whole one when `whole`).

    A string or a bool is not a number here (settings.json holds numbers), and
    neither is NaN or infinity.
    """

    def __init__(
        self,
        least: float,
        most: float,
        sentence: str,
        *,
        whole: bool = False,
        not_whole: str | None = None,
    ) -> None:
        super().__init__(sentence)
        self.least, self.most, self.whole = least, most, whole
        #: The sentence for a fraction where a whole number belongs (default: `sentence`).
        self.not_whole = not_whole or sentence

    def fields(self) -> dict[str, object]:
        return {"least": self.least, "most": self.most}

    def check(self, value: object) -> float | int:
        if self.whole:
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.refused(self.not_whole)
            if not self.least <= value <= self.most:
                raise self.refused(self.sentence)
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.refused(self.sentence)
        try:
            number = float(value)
        except OverflowError:  # an integer too large for a float
            raise self.refused(self.sentence) from None
        if not math.isfinite(number) or not self.least <= number <= self.most:
            raise self.refused(self.sentence)
        return number

    def clamp(self, value: Any, default: Any) -> Any:
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            return default
        if not math.isfinite(number):
            return default
        number = min(self.most, max(self.least, number))
        return int(number) if self.whole else number


class Level(Number):
    """A loudness 0..1 whose clamp is the mixer's own (`clamp_level`: NaN is silence)."""

    def __init__(self, sentence: str) -> None:
        super().__init__(0.0, 1.0, sentence)

    def clamp(self, value: Any, default: Any) -> Any:
        try:
            return clamp_level(float(value))
        except (TypeError, ValueError, OverflowError):
            return default


class Choice(Rule):
    """One of a few words (the default when clamped from anything else)."""

    def __init__(self, options: tuple[str, ...], sentence: str) -> None:
        super().__init__(sentence)
        self.options = options

    def fields(self) -> dict[str, object]:
        return {"options": ", ".join(self.options)}

    def check(self, value: object) -> str:
        if value not in self.options:
            raise self.refused(self.sentence)
        return str(value)

    def clamp(self, value: Any, default: Any) -> str:
        return str(value) if value in self.options else default


class Code(Rule):
    """A short printable code such as a language's (kept stripped)."""

    def __init__(self, sentence: str, *, longest: int = 20) -> None:
        super().__init__(sentence)
        self.longest = longest

    def check(self, value: object) -> str:
        if (
            not isinstance(value, str)
            or not value.strip()
            or len(value) > self.longest
            or not value.isprintable()
        ):
            raise self.refused(self.sentence)
        return value.strip()

    def clamp(self, value: Any, default: Any) -> Any:
        return value  # an unknown code falls back to a known voice where it is looked up


class Text(Rule):
    """Any string (what it means is checked where it is used)."""

    def check(self, value: object) -> str:
        if not isinstance(value, str):
            raise self.refused(self.sentence)
        return value

    def clamp(self, value: Any, default: Any) -> Any:
        return value if isinstance(value, str) else default


def setting(default: Any, rule: Rule) -> Any:
    """A dataclass field with its default and its rule (in its metadata, under `RULE`)."""
    return field(default=default, metadata={RULE: rule})


#: A Piper voice name (`fr_FR-siwis-medium`): its first letters are its language.
_VOICE_NAME = re.compile(r"^(?P<family>[a-z]{2,3})_[A-Z]{2}-[A-Za-z0-9_]+-(x_low|low|medium|high)$")
_LANGUAGE = re.compile(r"^[a-z]{2,3}$")
#: The engines a language can name besides a voice: espeak-ng, or its best natural voice.
ESPEAK_ENGINE = "espeak"
NATURAL_ENGINE = "natural"
#: The sentence for a voice chosen for a language it does not speak.
OTHER_LANGUAGE = N_(
    "The voice {voice} speaks another language ({its}), not {lang}; "
    "choose one of {lang}'s voices or espeak."
)


def parse_engines(text: str) -> dict[str, str]:
    """`fr=fr_FR-siwis-medium de=espeak` as {language: engine} (ValueError on anything else)."""
    table: dict[str, str] = {}
    for item in text.split():
        lang, equals, engine = item.partition("=")
        if not equals or not _LANGUAGE.match(lang) or lang in table:
            raise ValueError(item)
        if engine not in (ESPEAK_ENGINE, NATURAL_ENGINE) and not _VOICE_NAME.match(engine):
            raise ValueError(item)
        table[lang] = engine
    return table


def format_engines(table: dict[str, str]) -> str:
    """The settings' spelling of {language: engine} (sorted, so equal tables compare equal)."""
    return " ".join(f"{lang}={engine}" for lang, engine in sorted(table.items()))


class Engines(Rule):
    """The engine each language speaks with: `lang=espeak`, `lang=natural` or `lang=<voice>`.

    A voice is accepted only for the language its name says it speaks: a
    French table is never handed a German voice (the voice would read French
    words with German sounds).
    """

    def check(self, value: object) -> str:
        if not isinstance(value, str):
            raise self.refused(self.sentence)
        try:
            table = parse_engines(value)
        except ValueError:
            raise self.refused(self.sentence) from None
        for lang, engine in table.items():
            match = _VOICE_NAME.match(engine)
            if match and match.group("family") != lang:
                its = match.group("family")
                raise IllegalAction(OTHER_LANGUAGE, voice=engine, its=its, lang=lang)
        return format_engines(table)

    def clamp(self, value: Any, default: Any) -> Any:
        try:
            return self.check(value)
        except ValueError:
            return default
