"""The setup screen's words: its hints, buttons, roster lines and count, in the table's language.

Each is a function of what it says, translated when it is called (`_()`,
`ngettext()`), so the screen draws them again in a language chosen later
(`SetupScreen.language_changed`). Names and "say it as" words are the table's:
filled into the translated sentence, never part of a msgid. Key names and
marks (^R, ★) stay out of the msgids. Kept out of the screen module, which is
about the roster.
"""

from __future__ import annotations

from rich.text import Text

from moderator.domain import rules
from moderator.i18n import N_, _, ngettext

#: The key that puts the selected player's "say it as" in its field (named by the hint).
SAY_AS_KEY = "s"
#: The buttons' labels (msgids) by button id, drawn in the screen's language.
BUTTONS = {
    "setup-remove": N_("Remove"),
    "setup-up": N_("Up"),
    "setup-down": N_("Down"),
    "setup-first": N_("First"),
    "setup-edit": N_("Fix"),
}
#: The buttons whose label names their key after the words (the key is no msgid).
KEYED_BUTTONS = {
    "setup-read": (N_("Read aloud"), "^R"),
    "setup-start": (N_("Start game"), "^S"),
}


def say_as_hint() -> str:
    """The "say it as" field's hint while no player is being changed."""
    return _("Say it as: {key} on a player, Enter").format(key=SAY_AS_KEY)


def say_as_title() -> str:
    """The "say it as" field's title, its key first as the footer shows keys.

    Always in sight, typing or not: the placeholder alone, gone once a player's
    words are being typed, left a newcomer looking for the key (issue 35).
    """
    return f"{SAY_AS_KEY} {_('Say it as')}"


def name_hint() -> str:
    """The name field's hint while no name is being fixed."""
    return _("Name, then Enter (clockwise)")


def button_label(button_id: str) -> str:
    """A button's words in the screen's language (a key after them, as the footer's)."""
    if button_id in KEYED_BUTTONS:
        words, key = KEYED_BUTTONS[button_id]
        return f"{_(words)} {key}"
    return _(BUTTONS[button_id])


def fix_hint(seat: int) -> str:
    """The name field's hint while the name of `seat` (0-based) is being fixed."""
    return _("Fix the name of seat {seat}, then Enter").format(seat=seat + 1)


def say_as_hint_for(name: str) -> str:
    """The "say it as" field's hint while `name`'s words are being typed."""
    return _("How the voice says {name} (empty: as written)").format(name=name)


def seated_words(count: int) -> str:
    """The line above the roster: how many are seated, of how many the game takes."""
    seated = ngettext(
        "{count} player seated ({least} to {most}), clockwise:",
        "{count} players seated ({least} to {most}), clockwise:",
        count,
    )
    return seated.format(count=count, least=rules.MIN_PLAYERS, most=rules.MAX_PLAYERS)


def roster_line(seat: int, name: str, said: str | None, *, first: bool) -> Text:
    """One player of the roster: seat, name, how the voice says it, the first player's mark."""
    line = Text(f"{seat + 1:>2}. ")
    line.append(name)
    if said:
        line.append("  " + _("said “{words}”").format(words=said), style="italic")
    if first:
        line.append("  ★ " + _("first (youngest)"), style="bold")
    return line
