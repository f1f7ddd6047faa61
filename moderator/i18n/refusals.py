"""A refusal of the rules in the table's language.

The domain raises `IllegalAction` with an English template and its fields (it
sits below this package and cannot translate, see `moderator.domain.errors`);
whatever shows a refusal to the table passes the error through `refusal`, which
translates the template and fills the same fields in. A catalog whose
translation names a field the template lacks (a broken .po) costs the table
nothing but the translation: the English sentence is shown instead.
"""

from __future__ import annotations

from moderator.domain.errors import IllegalAction, IllegalCount
from moderator.i18n import _, ngettext


def refusal(error: BaseException) -> str:
    """`error`'s sentence in the screen's language (any other error: its own text)."""
    if not isinstance(error, IllegalAction):
        return str(error)
    if isinstance(error, IllegalCount):
        template = ngettext(error.singular, error.plural, error.count)
    else:
        template = _(error.template)
    if not error.fields:
        return template
    try:
        return template.format(**error.fields)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(error)
