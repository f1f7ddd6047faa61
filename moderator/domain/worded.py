"""Sentences made below the screen's language: an English template and its fields.

The domain, `safe_output` and `safe_input` sit below `moderator.i18n`, and the
storage raises where no screen is known, so none of them translates. An error
that a player reads is a `Worded` error instead: it keeps its English template
(the msgid) and the fields that fill it, `str(error)` is the English sentence
(logs, tools, tests), and whatever shows it to the table passes it through
`moderator.i18n.refusals.refusal`, which translates the template and fills the
same fields in. A field that is itself a `Phrase` (an English word made down
here, "a folder") is translated with it; any other field (a name, a path, the
system's own error text) is shown exactly as it is.

Babel finds the templates by `N_` (`raise StorageError(N_("The score database
is closed."))`; the Makefile's `KEYWORDS`), so a template is a literal, never an
f-string; tests/test_i18n_literals.py checks it.
"""

from __future__ import annotations

from collections.abc import Callable


class Phrase(str):
    """An English word or phrase (a msgid) to be translated where the sentence is shown."""

    __slots__ = ()


def N_(message: str) -> Phrase:
    """Mark `message` for extraction; it stays English until it is shown (`refusal`)."""
    return Phrase(message)


def _filled(template: str, fields: dict[str, object]) -> str:
    """`template` with its fields (a template without fields is its own sentence)."""
    return template.format(**fields) if fields else template


class Worded(Exception):
    """An error whose sentence is an English template and its fields.

    Attributes:
        template: the English sentence with `{field}` places (the msgid).
        plural: the English plural of an ngettext pair, or "" (then `count` is unused).
        count: what picks between `template` and `plural`.
        fields: what fills the places (names and paths stay as given, never translated).
    """

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.plural = ""
        self.count = 0
        self.fields = fields
        super().__init__(_filled(template, fields))

    def counted(self, plural: str, count: int) -> None:
        """Make this a plural pair: `count` picks the form (`{count}` is a field)."""
        self.plural = plural
        self.count = count
        self.fields.setdefault("count", count)
        self.args = (_filled(self.template if count == 1 else plural, self.fields),)

    def in_language(
        self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]
    ) -> str:
        """The sentence through `gettext`/`ngettext` (the English one if they break it)."""
        if self.plural:
            template = ngettext(self.template, self.plural, self.count)
        else:
            template = gettext(self.template)
        fields = {
            key: gettext(value) if isinstance(value, Phrase) else value
            for key, value in self.fields.items()
        }
        try:
            return _filled(template, fields)
        except (KeyError, IndexError, ValueError, AttributeError):
            return str(self)
