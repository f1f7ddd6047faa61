"""How the voice says a player's name: what the table typed, or a form espeak can say.

The screen always shows a name as written; the voice needs more care. Measured
with espeak-ng 1.51 (issue 17): "Ngô Bảo Châu" came out as "Ngo B letter 1 E A 3
O chau" in every shipped language (ả spelled by its code point), "Ⅻ" as "letter
216B", and German said nothing at all for "👩‍💻". So, for a name without a
"say it as" of its own (`SAID_AS` in the script context):

- the name is taken in NFC;
- a character that a shipped voice spells by its number (`spelled_letters`) is
  replaced by its compatibility decomposition with the combining marks left out
  (ả → a, Ⅻ → XII, Ｂ → B), else by the plain letter its Unicode name is built on
  (Ƃ, LATIN CAPITAL LETTER B WITH TOPBAR → B), else left out; every other
  character is left as typed, accents included (espeak says ô, é, ñ, ł itself);
- an emoji becomes its name in the script's language (the CLDR names of the
  `emoji` package: 👩‍💻 is "IT-Expertin" in German); with no name in that
  language it is left out, as the language gives no words for it;
- a name that would be said as nothing at all (only emoji in a language without
  their names, only marks) is said by the emoji's English names, else as
  written: the scripts have no words for "player 3" to fall back on, and an
  attempt is better than a silent gap where a name belongs.

Pure, apart from loading the emoji names on first need (`prepare` loads them
in the background as soon as a roster has an emoji, so no caller waits).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType

from moderator.narration.scripts.spelled_letters import said_by_every_voice, spelled_by_number

#: The script context's key for what the table typed as each name's spoken form:
#: a mapping of the written name to the words the voice says instead.
SAID_AS = "said_as"
#: The scripts whose placeholder `player` holds a name, and `players` names.
_ONE_NAME = "player"
_NAMES_SCRIPT = "series_winner"
_MARKS = ("Mn", "Mc", "Me")
_LETTER_NAME = re.compile(
    r"^(LATIN|GREEK|CYRILLIC) (CAPITAL|SMALL) LETTER ((?:[A-Z]+ )*?[A-Z]+)(?: WITH .*)?$"
)
#: Code points that begin or join an emoji (pictographs, dingbats, flags, keycaps,
#: joiners, variation selectors): a name without any needs no emoji names loaded.
_EMOJI_HINTS = ((0x2190, 0x2BFF), (0x1F000, 0x1FAFF), (0xFE0E, 0xFE0F), (0x200D, 0x200D))
_emoji_lock = threading.Lock()
_emoji_languages: set[str] = set()


def spoken_name(name: str, lang: str, said_as: str = "") -> str:
    """The words the voice of language `lang` says for `name`.

    `said_as` is the table's own spelling of how the name is said: used as
    typed (spaces tidied), in every language, because only the table knows.
    """
    typed = " ".join(said_as.split())
    if typed:
        return typed
    text = unicodedata.normalize("NFC", name)
    words = _sayable(text, lang)
    if _has_words(words):
        return words
    if lang != "en" and _may_have_emoji(text):
        english = _sayable(text, "en")
        if _has_words(english):
            return english
    return " ".join(text.split())


def spoken_values(
    script: str,
    context: Mapping[str, object],
    values: Mapping[str, object],
    lang: str,
    conjunction: str,
) -> dict[str, object]:
    """The placeholder values the voice says differently from the captions (names only).

    Empty when every name is said as written, so the caller renders a line once.
    """
    said = context.get(SAID_AS)
    said_as: Mapping[str, str] = said if isinstance(said, Mapping) else {}
    spoken: dict[str, object] = {}
    player = values.get(_ONE_NAME)
    if isinstance(player, str):
        words = spoken_name(player, lang, str(said_as.get(player, "")))
        if words != player:
            spoken[_ONE_NAME] = words
    names = context.get("players")
    if script == _NAMES_SCRIPT and isinstance(names, Sequence) and not isinstance(names, str):
        said_names = [spoken_name(str(n), lang, str(said_as.get(str(n), ""))) for n in names]
        if said_names != [str(n) for n in names]:
            spoken["players"] = _join(said_names, conjunction)
    return spoken


def prepare(names: Iterable[str], langs: Iterable[str] = ()) -> None:
    """Load the emoji names in the background if a name has an emoji; returns at once.

    Loading them takes about half a second and 12 MiB (the `emoji` package's CLDR
    tables), so it happens only for a roster that needs them, before the first
    line that says one, off the caller's thread.
    """
    if not any(_may_have_emoji(name) for name in names):
        return
    wanted = ("en", *langs)
    threading.Thread(
        target=lambda: [_emoji_module(lang) for lang in wanted],
        name="emoji-names",
        daemon=True,
    ).start()


# --- inside -----------------------------------------------------------------------


def _join(items: Sequence[str], conjunction: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def _has_words(text: str) -> bool:
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def _may_have_emoji(text: str) -> bool:
    return any(
        unicodedata.category(ch) == "So"
        or any(low <= ord(ch) <= high for low, high in _EMOJI_HINTS)
        for ch in text
    )


def _sayable(text: str, lang: str) -> str:
    """`text` with its emoji named in `lang` (or left out) and spelled letters replaced."""
    parts: list[str] = []
    at = 0
    for start, end, words in _emoji_spans(text, lang):
        parts.append(_letters(text[at:start]))
        parts.append(f" {words} " if words else " ")
        at = end
    parts.append(_letters(text[at:]))
    return " ".join("".join(parts).split())


def _letters(text: str) -> str:
    return "".join(_letter(ch) if _needs_letters(ch) else ch for ch in text)


def _needs_letters(ch: str) -> bool:
    """Spelled by number, or a digit in a form espeak says nothing for (①, ⑫)."""
    if spelled_by_number(ch):
        return True
    if unicodedata.category(ch) != "No":
        return False
    digits = unicodedata.normalize("NFKD", ch)
    return digits != ch and digits.isascii() and digits.isdigit()


def _letter(ch: str) -> str:
    """A character espeak spells by number, as letters it says (or nothing)."""
    base = "".join(
        c for c in unicodedata.normalize("NFKD", ch) if unicodedata.category(c) not in _MARKS
    )
    if base and base != ch and all(said_by_every_voice(c) for c in base):
        return base
    match = _LETTER_NAME.match(unicodedata.name(ch, ""))
    if match is not None:
        script, case, letter = match.groups()
        words = letter.split()
        for word in dict.fromkeys((letter, words[0], words[-1])):
            # LATIN SMALL LETTER GAMMA (ɣ) is said as the Greek letter it is named after.
            for alphabet in dict.fromkeys((script, "LATIN", "GREEK")):
                try:
                    plain = unicodedata.lookup(f"{alphabet} {case} LETTER {word}")
                except KeyError:
                    continue
                if plain != ch and said_by_every_voice(plain):
                    return plain
    return ""


def _emoji_spans(text: str, lang: str) -> list[tuple[int, int, str]]:
    """(start, end, name in `lang` or "") of each emoji of `text`."""
    if not _may_have_emoji(text):
        return []
    emoji = _emoji_module(lang)
    spans: list[tuple[int, int, str]] = []
    for found in emoji.emoji_list(text):
        cluster = str(found["emoji"])
        start = int(found["match_start"])
        spans.append((start, int(found["match_end"]), _emoji_words(emoji, cluster, lang)))
    return spans


def _emoji_words(emoji: ModuleType, cluster: str, lang: str) -> str:
    data = emoji.EMOJI_DATA
    for key in (cluster, cluster.replace("\ufe0f", ""), cluster + "\ufe0f"):
        entry = data.get(key)
        name = entry.get(lang) if isinstance(entry, dict) else None
        if isinstance(name, str) and name.strip(":"):
            return " ".join(name.strip(":").replace("_", " ").split())
    return ""


def _emoji_module(lang: str) -> ModuleType:
    """The `emoji` package with the names of `lang` loaded (once; any thread)."""
    with _emoji_lock:
        import emoji

        if lang not in _emoji_languages:
            if lang in emoji.LANGUAGES and lang != "en":
                emoji.config.load_language(lang)
            _emoji_languages.add(lang)
        return emoji
