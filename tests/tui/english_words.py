"""Which English words of the app's own text a screen in another language still shows.

The vocabulary is the catalog's: every word of every msgid (the English the app
shows) that no translation of that language uses too, so a word both languages
share ("Table", "Points", "Stranger Things") is never counted, and a word the
app gains with a new msgid is watched from then on, without a list to keep.
Placeholders (`{name}`, `%(prog)s`) and command-line options (`--lang`) are
neither language's words and are left out of both sides. The names the table
typed are taken out of the screen first: a player called "Will" is not English.

A screen is read as whole words (letters only, case folded), so "Série" does
not hide "Se", and a cut or wrapped word is not a word of either language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from moderator.i18n.catalogs import catalog_path
from moderator.i18n.po import read_po

#: A word: a run of letters (any script), nothing else.
_WORD = re.compile(r"[^\W\d_]+")
#: Key names the key bar and the Help draw as keys, not as words ("esc Menu").
KEY_NAMES = frozenset({"esc"})
#: What a msgid holds that is no language's words: placeholders and options.
_NOT_WORDS = re.compile(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]|(?<!\w)--?[^\W\d_][\w-]*")


def words(text: str) -> set[str]:
    """The words of `text` as drawn, case folded."""
    return {word.casefold() for word in _WORD.findall(text)}


def message_words(message: str) -> set[str]:
    """The words of a catalog message, without its placeholders and options."""
    return words(_NOT_WORDS.sub(" ", message))


@cache
def english_vocabulary(lang: str) -> frozenset[str]:
    """The catalog's English words that `lang`'s translations never use."""
    english: set[str] = set()
    translated: set[str] = set()
    for entry in read_po(catalog_path(lang)):
        if not entry.msgid:
            continue  # the header
        english |= message_words(entry.msgid)
        english |= message_words(entry.msgid_plural or "")
        for value in entry.msgstr.values():
            translated |= message_words(value)
    # A one-letter word is a key ("r Redo") or French too ("a"); a key name is no sentence.
    return frozenset(word for word in english - translated - KEY_NAMES if len(word) > 1)


def english_on(screen: str, lang: str, names: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each English word on `screen`, with the lines it is on; empty when there is none.

    `names` (the players' names as typed, a proper noun such as "Mind Flayer") are
    taken out of each line as whole phrases first: they are no language's text,
    and a word of theirs elsewhere on the line still counts.
    """
    phrases = [re.compile(rf"(?<!\w){re.escape(name)}(?!\w)") for name in names]
    watched = english_vocabulary(lang)
    found: dict[str, list[str]] = {}
    for line in screen.splitlines():
        rest = line
        for phrase in phrases:
            rest = phrase.sub(" ", rest)
        for word in sorted(words(rest) & watched):
            found.setdefault(word, []).append(line.strip())
    return found


@cache
def _translations(lang: str) -> dict[str, str]:
    return {
        entry.msgid: entry.msgstr.get(0, "")
        for entry in read_po(catalog_path(lang))
        if entry.msgid and entry.msgctxt is None and not entry.fuzzy
    }


def said_in(lang: str, message: str) -> str:
    """`message` as a `lang` table reads it: its translation, or the English until it has one.

    What a walk waits for on a screen being converted while it is written: the
    same test waits for the English before the translation is merged, and for
    the table's words after.
    """
    return _translations(lang).get(message) or message
