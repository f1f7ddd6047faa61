"""The table's language on the screen: gettext's `_()`, `ngettext()`, `pgettext()`.

Every user-visible string is an English msgid passed through these at the moment
it is shown, so one call to `use_language` (at start-up, or when the table picks
another language in the Settings) changes what the next screen says. Strings
made when a module is imported (Textual's `BINDINGS`, class attributes) are
marked with `N_()`, which only marks them for extraction; whatever shows them
translates them then (`_()` of the English msgid: the key bar, the help, the
command palette). A module-level active translation is gettext's own design
(its `install()` writes builtins); here it is one module's variable, set only
through `use_language`.

Catalogs: `moderator/locale/<lang>/LC_MESSAGES/moderator.po` (`make catalogs`
extracts and updates them with Babel; `catalogs.py` loads them compiled).
"""

from __future__ import annotations

import gettext

from moderator.i18n.catalogs import load, translated_languages
from moderator.i18n.choice import SOURCE_LANGUAGE, LanguageChoice, choose_language

__all__ = [
    "NP_",
    "N_",
    "SOURCE_LANGUAGE",
    "LanguageChoice",
    "_",
    "active_language",
    "choose_language",
    "ngettext",
    "pgettext",
    "screen_languages",
    "use_language",
]

_active: gettext.NullTranslations = gettext.NullTranslations()
_active_code: str = SOURCE_LANGUAGE


def screen_languages() -> tuple[str, ...]:
    """Every language the screen can show: English and each catalog's."""
    return tuple(sorted({SOURCE_LANGUAGE, *translated_languages()}))


def use_language(code: str) -> str:
    """Show the screen in `code` from now on; returns the language now in use.

    A language without a catalog (or with one that cannot be read) is English; a
    code that is no catalog's name (`../x`) is never looked up as a path.
    """
    global _active, _active_code
    # Only a shipped catalog's name reaches a path (a code comes from files and --lang).
    catalog = load(code) if code in translated_languages() else None
    if catalog is None:
        _active, _active_code = gettext.NullTranslations(), SOURCE_LANGUAGE
    else:
        _active, _active_code = catalog, code
    return _active_code


def active_language() -> str:
    """The language the screen is in now ("en", "fr"...)."""
    return _active_code


def _(message: str) -> str:
    """`message` (an English msgid) in the screen's language (in its context, if `NP_`)."""
    if isinstance(message, _InContext):
        return _active.pgettext(message.context, str(message))
    return _active.gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` (the language's own plural rule) in the screen's language."""
    return _active.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` in the screen's language, told apart from the same English by `context`."""
    return _active.pgettext(context, message)


def N_(message: str) -> str:
    """Mark `message` for extraction only: it is translated where it is shown (`_()`)."""
    return message


class _InContext(str):
    """An English msgid made at import that carries its `pgettext` context (`NP_`)."""

    __slots__ = ("context",)
    context: str

    def __new__(cls, context: str, message: str) -> _InContext:
        marked = super().__new__(cls, message)
        marked.context = context
        return marked


def NP_(context: str, message: str) -> str:
    """`N_` for a same English with two meanings: `_()` where it is shown uses `context`.

    It is `message` itself for everything else (the English tests and widths): the
    reveal's short "Start" is not the start screen's "Start".
    """
    return _InContext(context, message)
