"""Which system voice speaks a language, on Windows (SAPI5) and macOS (NSSS).

A language.toml names an espeak-style voice ("en-us", "fr"); Windows and
macOS name voices by ids and describe them by locale ("en-US", "en_GB").
Taking the first voice whose language merely starts with "en" gave a table in
Chicago a British or a novelty voice, so the choice ranks every voice of the
language:

1. the region asked for ("en-us"; for a bare "en", the language's home
   region from the stdlib's locale aliases: en -> US, fr -> FR, es -> ES);
   then a voice that names no region; then any other region;
2. among equals, the system's default voice (the one the user picked);
3. then Apple's current voice families (ids `com.apple.voice.compact.`,
   `.enhanced.`, `.premium.`) before its older ids, where the novelty voices
   (Zarvox, Bells...) live;
4. then the system's own order.

SAPI5 voice tokens give their language as hexadecimal LCIDs, possibly several
separated by ";" ("409;9": en-US, then neutral English); pyttsx3 2.99 crashes
on those (upstream #429). `sapi_languages` reads them all, as SAPI's own
`SpGetLanguageFromToken` takes the first.

Pure functions: no pyttsx3, no I/O (the synthesis child feeds them).
"""

from __future__ import annotations

import locale
from collections.abc import Sequence
from dataclasses import dataclass

#: Id prefixes of Apple's current voice families (after them: older ids, novelty voices).
APPLE_FAMILIES = (
    "com.apple.voice.compact.",
    "com.apple.voice.enhanced.",
    "com.apple.voice.premium.",
)
_APPLE_OLDER = "com.apple."


@dataclass(frozen=True)
class VoiceOffer:
    """One voice a system offers: its id, name and locales ("en-US", "fr")."""

    id: str
    name: str
    languages: tuple[str, ...]


def locale_parts(tag: str) -> tuple[str, str]:
    """("en", "us") from "en-US", "en_us", "en-us"; ("fr", "") from "fr"."""
    parts = tag.strip().replace("_", "-").lower().split("-")
    region = parts[1] if len(parts) > 1 and (len(parts[1]) == 2 or parts[1].isdigit()) else ""
    return parts[0], region


def home_region(language: str) -> str:
    """The region a bare language code means ("en" -> "us"), from the stdlib's aliases."""
    normalized = locale.normalize(language).split(".")[0]
    code, region = locale_parts(normalized)
    return region if code == language else ""


def sapi_languages(attribute: str | None) -> tuple[str, ...]:
    """Locales of a SAPI token's Language attribute: "409;9" -> ("en-US", "en").

    Unknown or malformed LCIDs are skipped (a voice without a language is
    still listed, it is just never chosen for one).
    """
    found: list[str] = []
    for part in (attribute or "").split(";"):
        try:
            lcid = int(part.strip(), 16)
        except ValueError:
            continue
        tag = _lcid_tag(lcid)
        if tag and tag not in found:
            found.append(tag)
    return tuple(found)


def _lcid_tag(lcid: int) -> str:
    """ "en-US" for 0x409; "en" for a neutral LCID (0x9) that names a language only."""
    name = locale.windows_locale.get(lcid)
    if name is not None:
        return name.replace("_", "-")
    if lcid < 0x400:  # a primary language: any locale of it gives its code
        for key, value in locale.windows_locale.items():
            if key & 0x3FF == lcid:
                return value.split("_")[0]
    return ""


def choose_voice(
    wanted: str, offers: Sequence[VoiceOffer], default_id: str | None = None
) -> str | None:
    """The id of the best voice for `wanted` ("en-us", "fr"), or None when none speaks it."""
    language, region = locale_parts(wanted)
    region = region or home_region(language)
    best: tuple[tuple[int, int, int, int], str] | None = None
    for index, offer in enumerate(offers):
        for tag in offer.languages:
            code, its_region = locale_parts(tag)
            if code != language:
                continue
            fit = 0 if its_region == region else 1 if not its_region else 2
            rank = (fit, 0 if offer.id == default_id else 1, _family(offer.id), index)
            if best is None or rank < best[0]:
                best = (rank, offer.id)
    return None if best is None else best[1]


def _family(voice_id: str) -> int:
    """0 for Apple's current families and non-Apple voices, 1 for Apple's older ids."""
    if voice_id.startswith(APPLE_FAMILIES) or not voice_id.startswith(_APPLE_OLDER):
        return 0
    return 1
