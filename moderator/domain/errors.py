"""The one error type the domain raises for a move the rules do not allow.

The domain sits below the screen's language (`moderator.i18n`), so it cannot
translate: it raises with an English template and the template's fields
(`IllegalAction("{name} is already knocked out.", name=name)`). `str(error)` is
the English sentence (logs, the voice-script tools, the tests); the layer that
shows it to the table translates the template and fills the same fields in
(`moderator.i18n.refusals.refusal`). Babel extracts the templates by this
class's names (the Makefile's `KEYWORDS`), so a template is a literal, never an
f-string: tests/test_i18n_literals.py checks it.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """A table action the rules (or the roster rules) do not allow.

    The message is a sentence a player can read aloud; the state the action was
    tried on is never changed, because every domain step builds a new state.

    Attributes:
        template: the English sentence with `{field}` places (the msgid).
        fields: what fills them (names of players stay as typed, never translated).
    """

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields
        super().__init__(template.format(**fields) if fields else template)


class IllegalCount(IllegalAction):
    """An `IllegalAction` whose sentence depends on a count (the languages' plural forms).

    `singular` and `plural` are the English forms (an ngettext pair), `count`
    picks one and is a field of both as `{count}` if they name it.
    """

    def __init__(self, singular: str, plural: str, count: int, /, **fields: object) -> None:
        self.singular = singular
        self.plural = plural
        self.count = count
        super().__init__(singular if count == 1 else plural, count=count, **fields)
