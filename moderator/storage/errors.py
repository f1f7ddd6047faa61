"""The storage layer's errors and notices: each one is a sentence the table can read.

They share `StorageError` so the UI can catch one type and carry on; the
subclasses let it react differently (refuse to start, ask to close the other
window, keep the game on screen exactly as it was last saved).

The storage raises where no screen is known, so it never translates: an error
is `Worded` (an English template marked with `N_`, and its fields) and a notice
(what a recovery tells the table) is a `Notice`, a `str` that is the English
sentence and keeps its template and fields. `str()` of either is the English
sentence (logs, tools, tests); what shows it to the table translates it at that
moment: `moderator.i18n.refusals.refusal(error)` for an error, `told(notice)`
for a notice. A field that is itself a `Notice` or a `Worded` error (a damage's
reason, the game an error is about) is translated with the sentence; any other
field (a path, a name, the system's own error text) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Self

from moderator.domain.worded import Phrase, Worded

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _translated(value: object, gettext: Gettext, ngettext: Ngettext) -> object:
    """A field as the table reads it: a made-here sentence translated, anything else as is."""
    if isinstance(value, Notice | Worded):
        return value.in_language(gettext, ngettext)
    if isinstance(value, Phrase):
        return gettext(value)
    return value


def _sentence(
    template: str,
    plural: str,
    count: int,
    fields: Mapping[str, object],
    english: str,
    languages: tuple[Gettext, Ngettext],
) -> str:
    """The template (or the plural `count` picks) translated, filled; `english` if it breaks."""
    gettext, ngettext = languages
    translated = ngettext(template, plural, count) if plural else gettext(template)
    if not fields:
        return translated
    try:
        return translated.format(
            **{key: _translated(value, gettext, ngettext) for key, value in fields.items()}
        )
    except (KeyError, IndexError, ValueError, AttributeError):
        return english


class Notice(str):
    """A sentence the storage tells the table (not an error): `str` is the English one.

    Attributes:
        template: the English sentence with `{field}` places (the msgid).
        plural: the English plural of an ngettext pair, or "".
        amount: what picks between `template` and `plural` (`count` is `str.count`).
        fields: what fills the places (paths and the system's text stay as given).
    """

    template: str
    plural: str
    amount: int
    fields: dict[str, object]

    def __new__(cls, template: str, /, **fields: object) -> Notice:
        """The notice `template` filled with `fields` (a template without fields is as is)."""
        notice = super().__new__(cls, template.format(**fields) if fields else template)
        notice.template, notice.plural, notice.amount, notice.fields = template, "", 0, fields
        return notice

    @classmethod
    def counting(cls, template: str, plural: str, count: int, /, **fields: object) -> Notice:
        """A plural pair: `count` picks the form (`{count}` is a field too)."""
        fields.setdefault("count", count)
        notice = super().__new__(cls, (template if count == 1 else plural).format(**fields))
        notice.template, notice.plural, notice.amount, notice.fields = (
            template,
            plural,
            count,
            fields,
        )
        return notice

    def in_language(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The sentence through `gettext`/`ngettext` (the English one if they break it)."""
        return _sentence(
            self.template, self.plural, self.amount, self.fields, str(self), (gettext, ngettext)
        )


def told(sentence: str | BaseException) -> str:
    """A notice or an error in the screen's language (any other text as it is)."""
    from moderator.i18n import _, ngettext

    if isinstance(sentence, Notice | Worded):
        return sentence.in_language(_, ngettext)
    return str(sentence)


class StorageError(Worded):
    """Something about the score database stopped an action; `str()` says what, in English.

    A field that is a `Notice` or another `Worded` error is translated with it.
    """

    @classmethod
    def saying(cls, notice: Notice | Worded) -> Self:
        """The error whose sentence is `notice`'s (a helper's sentence or another error's).

        The same template and fields, so it is translated where it is shown.
        """
        error = cls(notice.template, **notice.fields)
        if notice.plural:
            error.counted(
                notice.plural, notice.amount if isinstance(notice, Notice) else notice.count
            )
        return error

    def in_language(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The sentence through `gettext`/`ngettext` (the English one if they break it)."""
        return _sentence(
            self.template, self.plural, self.count, self.fields, str(self), (gettext, ngettext)
        )


class NewerDatabaseError(StorageError):
    """The database was written by a newer version of the app; nothing was changed."""


class ForeignDatabaseError(StorageError):
    """The database file is another program's SQLite database; nothing was changed."""


class DatabaseInUseError(StorageError):
    """Another running moderator already has this database open."""


class StorageWriteError(StorageError):
    """An action could not be saved (read-only folder, full disk, I/O error).

    The action was not taken: the game in memory is still exactly what is on disk.
    """
