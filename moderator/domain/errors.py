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

from moderator.domain.worded import Worded


class IllegalAction(Worded, ValueError):
    """A table action the rules (or the roster rules) do not allow.

    The message is a sentence a player can read aloud; the state the action was
    tried on is never changed, because every domain step builds a new state.
    Its template and fields are `Worded`'s (names of players stay as typed).
    """


class IllegalCount(IllegalAction):
    """An `IllegalAction` whose sentence depends on a count (the languages' plural forms).

    `singular` and `plural` are the English forms (an ngettext pair), `count`
    picks one and is a field of both as `{count}` if they name it.
    """

    def __init__(self, singular: str, plural: str, count: int, /, **fields: object) -> None:
        self.singular = singular
        super().__init__(singular, count=count, **fields)
        self.counted(plural, count)
