"""The setup script's counts come from the rules, never from the file.

The setup voice script is a file players edit, and it reads out the checklist
the setup screen shows (`domain.setup_checklist`). A line that wrote "Take 2
Mind Flayer cards" would say 2 at every table while the screen says 1 or 3. So
in that script a line may not write a number in its own words: every count is
a placeholder the checklist fills in. The counts the table acts on (how many
Mind Flayer and Waffle cards to deal, which symbols go back in the box) must
also be said, or the voice would read a checklist with a line missing. A file
that breaks either rule is refused with its line, like a typo, and the shipped
script is used.

Only digits are refused: a number written as a word ("trois") cannot be told
from an ordinary word ("une" carte) in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from moderator.domain.setup_checklist import COUNT_FIELDS, SYMBOLS_FIELD
from moderator.i18n import N_, _
from moderator.narration.scripts.steps import Problem, Say, Step

#: Per script whose numbers are the rules': the placeholders it must say, and the
#: `when` they may depend on (None: a line said every time).
RULE_COUNTS: Mapping[str, Mapping[str, str | None]] = {
    "setup": {"mind_flayer": None, "waffle": None, SYMBOLS_FIELD: "cards_back_in_box"},
}
#: What each placeholder stands for, in a sentence.
_MEANING = {
    "mind_flayer": N_("how many Mind Flayer cards to deal"),
    "waffle": N_("how many Waffle cards to deal"),
    SYMBOLS_FIELD: N_("which player symbols go back in the box"),
}


def check_rule_counts(script: str, steps: Sequence[Step], path: Path) -> list[Problem]:
    """A problem per line of `script` that writes a number, and per count it never says."""
    required = RULE_COUNTS.get(script)
    if required is None:
        return []
    fields = ", ".join(f"{{{field}}}" for field in (*COUNT_FIELDS, SYMBOLS_FIELD))
    problems: list[Problem] = []
    said: dict[str, set[str | None]] = {}
    for step in steps:
        if not isinstance(step, Say):
            continue
        flag = step.when.flag if step.when is not None and not step.when.negated else None
        for name in step.template.names:
            said.setdefault(name, set()).add(None if step.when is None else flag)
        number = _first_number("".join(text for text, _ in step.template.parts))
        if number:
            problems.append(
                Problem(
                    path,
                    step.line,
                    _(
                        'this line writes the number "{number}" itself; the setup\'s numbers '
                        "come from the rules (as on the setup screen): write one of {fields} "
                        "where the number goes"
                    ).format(number=number, fields=fields),
                )
            )
    if problems:
        return problems  # a number written in place of a count: the one thing to fix first
    for field, when in required.items():
        if not said.get(field, set()) & {None, when}:
            where = (
                _("a line said every time")
                if when is None
                else _('a line (when = "{when}")').format(when=when)
            )
            problems.append(
                Problem(
                    path,
                    1,
                    _("no line says {meaning}: add {{{field}}} to {where}").format(
                        meaning=_(_MEANING[field]), field=field, where=where
                    ),
                )
            )
    return problems


def _first_number(text: str) -> str:
    """The first run of digits in `text` (any script's: 3, ３, ½, Ⅲ), with a "+" after it."""
    start = next((index for index, char in enumerate(text) if char.isnumeric()), None)
    if start is None:
        return ""
    end = start
    while end < len(text) and (text[end].isnumeric() or text[end] == "+"):
        end += 1
    return text[start:end]
