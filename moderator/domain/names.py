"""Player names: what a valid name is, so every layer can trust them.

A name is data, never markup: brackets, emoji (joined ones too) and accents are
allowed and the UI renders them literally. Control characters are refused
because they would reach the real terminal as escape sequences; text-direction
controls and blank fillers because they make a name read as something else.

A name is kept in Unicode's composed form (NFC): "Zoë" typed with one "ë" or
pasted as "e" + a combining diaeresis (NFD) is the same player, so two
spellings that look alike are never two players.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from moderator.domain.errors import IllegalAction

MAX_NAME_LENGTH = 24
#: A "say it as" is words, not a name on a tile: room for "Ngo Bao Chau" spelled out.
MAX_SAID_AS_LENGTH = 60


#: Invisible characters that change the direction text is drawn in (embeddings,
#: overrides, isolates, marks): a name with them can look like another name, or
#: reverse the text shown after it.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Characters drawn as nothing at all, though they count as letters or symbols: Hangul
#: fillers (U+115F, U+1160, U+3164, U+FFA0), the blank Braille pattern (U+2800), the
#: Khmer inherent vowels (U+17B4, U+17B5) and the combining grapheme joiner (U+034F).
#: A name of them only is invisible; one added to a name makes a look-alike of it.
BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f")
#: How a terminal shows the Escape character ("^[", caret notation): Textual 8.2.8 types
#: the colour codes of a bracketed paste ("\x1b[31m") into the field in that form.
CARET_ESCAPE = "^["
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
    """Return the trimmed name in NFC, or raise `IllegalAction` saying what is wrong.

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
    if CARET_ESCAPE in raw:
        raise IllegalAction(
            "A name cannot contain “^[”: that is how a terminal shows Escape, so the name "
            "was probably pasted with colour codes. Type the name itself."
        )
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise IllegalAction("A name cannot be empty.")
    if any(ch in BLANK_FILLERS for ch in name):
        raise IllegalAction(
            "A name cannot contain blank filler characters (such as U+3164 or U+2800): "
            "they show as nothing, so the name could look like another or like no name."
        )
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise IllegalAction("A name needs at least one visible letter, digit or sign.")
    if len(name) > MAX_NAME_LENGTH:
        raise IllegalAction(
            "A name can have at most {most} characters; “{name}…” has {length}.",
            most=MAX_NAME_LENGTH,
            name=name[:MAX_NAME_LENGTH],
            length=len(name),
        )
    return name


def clean_roster(raw_names: Iterable[str]) -> tuple[str, ...]:
    """Clean every name and refuse two that differ only in case or Unicode spelling (NFC)."""
    names = tuple(clean_name(raw) for raw in raw_names)
    seen: dict[str, str] = {}
    for name in names:
        key = unicodedata.normalize("NFC", name.casefold())
        if key in seen:
            raise IllegalAction(
                "Two players are called “{name}”: each name must be different.", name=name
            )
        seen[key] = name
    return names


def clean_said_as(raw: str) -> str:
    """How a name is said (setup's "say it as"), trimmed, in NFC; "" for none.

    The voice reads it, the screen shows it beside the name, so it is held to a
    name's rules: no control, text-direction or escape characters (refused with
    a sentence, never dropped), and a length the voice can say in a breath.
    """
    if any(ch in BIDI_CONTROLS for ch in raw) or _has_control(raw) or CARET_ESCAPE in raw:
        raise IllegalAction(
            "“Say it as” cannot contain control characters such as Escape or Tab, "
            "nor invisible ones: type the words the voice should say."
        )
    said = " ".join(unicodedata.normalize("NFC", raw).split())
    if not said:
        return ""
    if any(ch in BLANK_FILLERS for ch in said) or not any(
        unicodedata.category(ch)[0] in "LN" for ch in said
    ):
        raise IllegalAction("“Say it as” needs letters or digits the voice can say.")
    if len(said) > MAX_SAID_AS_LENGTH:
        raise IllegalAction(
            "“Say it as” can have at most {most} characters; this one has {length}.",
            most=MAX_SAID_AS_LENGTH,
            length=len(said),
        )
    return said
