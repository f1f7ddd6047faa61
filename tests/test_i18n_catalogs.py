"""The screen's catalogs are complete, current and consistent (run by `make lint` too).

Every msgid of `moderator/` (extracted as `make catalogs` does, with Babel) has a
translation in each language, none is fuzzy or left over from an older text,
plural entries have the language's number of forms, and each translation keeps
the placeholders of its msgid. The app's own compiler reads each catalog as
Babel does.
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from moderator.i18n.catalogs import LOCALE_DIR, catalog_path
from moderator.i18n.po import read_po as app_read_po

ROOT = Path(__file__).resolve().parent.parent
#: The keywords of `make catalogs` (Makefile, KEYWORDS).
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    # The domain's refusals: English templates, translated where shown (i18n.refusals).
    "IllegalAction": None,
    "IllegalCount": (1, 2),
    # A storage notice's plural pair (moderator/storage/errors.py, Notice.counting).
    "counting": (1, 2),
}
#: Each shipped language and its plural rule (gettext's usual one for it).
PLURALS = {"fr": (2, "(n > 1)"), "de": (2, "(n != 1)"), "es": (2, "(n != 1)")}
#: printf-style placeholders (argparse's own words use them).
PRINTF = re.compile(r"%(?:\([a-z_]+\))?[sdr]")


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, msgid


@functools.cache
def extracted() -> frozenset[tuple[str | None, str]]:
    """Every (context, msgid) of moderator/ as `make catalogs` extracts it."""
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT / "moderator"), keywords=KEYWORDS, comment_tags=()
    ):
        msgid = message[0] if isinstance(message, tuple | list) else message
        found.add((context, msgid))
    return frozenset(found)


def catalog(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def test_the_template_holds_exactly_what_the_code_marks() -> None:
    template = {_key(m) for m in catalog(LOCALE_DIR / "moderator.pot") if m.id}
    code = extracted()
    assert not code - template, f"new msgids: run `make catalogs` ({sorted(code - template)})"
    assert not template - code, f"gone msgids: run `make catalogs` ({sorted(template - code)})"


def test_every_language_of_the_screen_is_shipped() -> None:
    assert sorted(path.name for path in LOCALE_DIR.iterdir() if path.is_dir()) == sorted(PLURALS)


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_each_catalog_translates_every_msgid_and_nothing_else(lang: str) -> None:
    po = catalog(catalog_path(lang))
    code = extracted()
    entries = {_key(m): m for m in po if m.id}
    assert not code - set(entries), f"{lang}: missing, run `make catalogs` and translate"
    assert not set(entries) - code, f"{lang}: obsolete entries {sorted(set(entries) - code)}"
    assert not po.obsolete, f"{lang}: obsolete (#~) entries {list(po.obsolete)}"
    fuzzy = [m.id for m in entries.values() if m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy entries {fuzzy}"
    empty = [m.id for m in entries.values() if not all(_strings(m))]
    assert not empty, f"{lang}: untranslated {empty}"


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_plural_entries_have_the_languages_forms(lang: str) -> None:
    po = catalog(catalog_path(lang))
    count, rule = PLURALS[lang]
    assert (po.num_plurals, po.plural_expr) == (count, rule)
    for message in po:
        if message.id and message.pluralizable:
            assert len(_strings(message)) == count, (lang, message.id)


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_each_translation_keeps_its_placeholders(lang: str) -> None:
    for message in catalog(catalog_path(lang)):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        wanted = set().union(*(placeholders(text) for text in ids))
        for translation in _strings(message):
            assert placeholders(translation) == wanted, (lang, message.id, translation)


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_the_apps_compiler_reads_each_catalog_as_babel_does(lang: str) -> None:
    babel = {
        _key(m): tuple(_strings(m)) for m in catalog(catalog_path(lang)) if m.id and not m.fuzzy
    }
    ours = {
        (entry.msgctxt, entry.msgid): tuple(entry.msgstr[i] for i in sorted(entry.msgstr))
        for entry in app_read_po(catalog_path(lang))
        if entry.msgid
    }
    assert ours == babel


def placeholders(text: str) -> set[str]:
    """`{name}` fields (with their conversion and format) and printf ones (`%(prog)s`, `%s`)."""
    fields = {
        f"{name}!{conversion}:{spec}"
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }
    return fields | set(PRINTF.findall(text))


def _strings(message: Message) -> list[str]:
    value = message.string
    return list(value) if isinstance(value, tuple | list) else [value]
