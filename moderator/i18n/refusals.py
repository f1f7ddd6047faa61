"""A refusal of the rules in the table's language.

The domain, the storage and the file helpers raise `Worded` errors (an English
template and its fields, see `moderator.domain.worded`: they sit below this
package or know no screen, so they cannot translate);
whatever shows a refusal to the table passes the error through `refusal`, which
translates the template and fills the same fields in. A catalog whose
translation names a field the template lacks (a broken .po) costs the table
nothing but the translation: the English sentence is shown instead.
"""

from __future__ import annotations

from moderator.domain.worded import Worded
from moderator.i18n import _, ngettext


def refusal(error: BaseException) -> str:
    """`error`'s sentence in the screen's language (an error that is not `Worded`: its text)."""
    if not isinstance(error, Worded):
        return str(error)
    return error.in_language(_, ngettext)
