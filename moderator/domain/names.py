"""Player names: what a valid name is, so every layer can trust them.

A name is data, never markup: brackets, emoji (joined ones too) and accents are
allowed and the UI renders them literally. Control characters are refused
because they would reach the real terminal as escape sequences; text-direction
controls because they make a name read as something else.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from moderator.domain.errors import IllegalAction

MAX_NAME_LENGTH = 24


#: Invisible characters that change the direction text is drawn in (embeddings,
#: overrides, isolates, marks): a name with them can look like another name, or
#: reverse the text shown after it.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_ZWJ = "\u200d"
_ZWNJ = "\u200c"
_TAGS = range(0xE0020, 0xE0080)
_EMOJI_PARTS = ("So", "Sk", "Mn", "Me")


def _joins_emoji(text: str, index: int) -> bool:
    """A zero-width joiner inside an emoji sequence (👩‍💻), not hidden between letters."""
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return (
        bool(before and after)
        and unicodedata.category(before) in _EMOJI_PARTS
        and unicodedata.category(after) == "So"
    )


def _joins_letters(text: str, index: int) -> bool:
    """A zero-width non-joiner between two letters (Persian and Indic spelling needs it)."""
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return bool(before and after) and all(
        unicodedata.category(ch)[0] in "LM" for ch in (before, after)
    )


def _in_tag_sequence(text: str, index: int) -> bool:
    """Tag characters spell subdivision flags (🏴 + tags): they follow the flag or a tag."""
    before = text[index - 1] if index > 0 else ""
    return bool(before) and (ord(before) in _TAGS or unicodedata.category(before) == "So")


def _has_control(text: str) -> bool:
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Co", "Zl", "Zp"):
            return True
        if category != "Cf":
            continue
        if ch == _ZWJ and _joins_emoji(text, index):
            continue
        if ch == _ZWNJ and _joins_letters(text, index):
            continue
        if ord(ch) in _TAGS and _in_tag_sequence(text, index):
            continue
        return True
    return False


def clean_name(raw: str) -> str:
    """Return the trimmed name, or raise `IllegalAction` saying what is wrong.

    Joined emoji (zero-width joiners, variation selectors, skin tones, tag
    flags) are part of a name; text-direction controls are refused with their
    own sentence, and so is any other invisible or control character. Nothing
    is ever dropped silently: what the table typed is what is kept, or refused.
    """
    if any(ch in BIDI_CONTROLS for ch in raw):
        raise IllegalAction(
            "A name cannot contain invisible text-direction characters (such as a "
            "right-to-left override): they can make one name look like another."
        )
    if _has_control(raw):
        raise IllegalAction(
            "A name cannot contain control characters such as Escape or Tab, "
            "nor invisible ones such as a zero-width space."
        )
    name = raw.strip()
    if not name:
        raise IllegalAction("A name cannot be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise IllegalAction(
            f"A name can have at most {MAX_NAME_LENGTH} characters; "
            f"“{name[:MAX_NAME_LENGTH]}…” has {len(name)}."
        )
    return name


def clean_roster(raw_names: Iterable[str]) -> tuple[str, ...]:
    """Clean every name and refuse two names that differ only in case."""
    names = tuple(clean_name(raw) for raw in raw_names)
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise IllegalAction(f"Two players are called “{name}”: each name must be different.")
        seen[key] = name
    return names
