"""The result form's fields: the "growled" box and the Waffle count of one seat.

`WaffleInput` refuses a keystroke the domain would refuse (its sentence comes
from the screen, `ResultScreen`), marks itself until edited again, and never
turns a leftover digit into points on its own (see moderator.tui.screens.result).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message
from textual.widgets import Checkbox, Input

from moderator.i18n import N_, _

#: What a Waffle field holds that the domain can judge as a number (sign included,
#: so "-1" gets the domain's range sentence rather than a vaguer one).
_NUMBER = re.compile(r"-?[0-9]+")


def waffle_count(raw: str) -> int | str:
    """A Waffle field's text as the domain should see it.

    Empty means none. Anything else not written as a whole number in plain
    digits (spaces, "+1", "1.5") stays a string, so the domain refuses it in its
    own words ("must be a whole number").
    """
    if not raw:
        return 0
    return int(raw) if _NUMBER.fullmatch(raw) else raw


#: Keys a refused-keystroke sentence names in words (quoted, they would be invisible).
_KEY_WORDS = {" ": N_("a space"), "\t": N_("a tab"), "\n": N_("a line break")}


def keys_in_words(typed: str) -> str:
    """What was typed, in words a table can read: a space is "a space", never " "."""
    if typed in _KEY_WORDS:
        return _(_KEY_WORDS[typed])
    if all(char.isspace() for char in typed):
        return _("blank space")
    visible = "".join(char for char in typed if char.isprintable() and not char.isspace())
    if not visible:
        return _("an invisible character")
    return _('"{typed}" with blank space').format(typed=visible)


class GrowledBox(Checkbox):
    """A "who growled" box whose mark, not only its colour, says ticked or not.

    Textual's Checkbox draws the same "X" either way and changes its colour,
    which a table cannot tell apart across the room or in a monochrome
    terminal; here an unticked box is empty. The mark is the public
    `BUTTON_INNER`, set from the value (no private part of Textual is touched).
    """

    TICKED = "X"
    #: Cells the box's button and the space after it take before the label ("▐X▌ ").
    BUTTON_CELLS = 4
    #: Cells of the box's width its label never gets (measured: a label as wide as
    #: the rest of the box is drawn one cell short, ending in "…").
    LABEL_MARGIN = 1

    def __init__(self, label: Text, *, id: str | None = None, compact: bool = False) -> None:
        super().__init__(label, id=id, compact=compact)
        self.BUTTON_INNER = " "
        #: The player's name and the mark after it ("(knocked out)"), as last given.
        self._player: tuple[str, str] = ("", "")

    def show_player(self, name: str, mark: str = "") -> None:
        """Label the box with `name` (literal) and a dim `mark`, the mark always whole.

        Where both do not fit the box's width (a 24-letter name, "(ausgeschieden)",
        80 columns), the name ends in "…" rather than the mark being cut mid-word.
        """
        self._player = (name, mark)
        self._fit()

    def on_resize(self) -> None:
        """Another width: the name may fit whole again, or no longer."""
        if any(self._player):
            self._fit()

    def _fit(self) -> None:
        name, mark = self._player
        gap = "  " if mark else ""
        width = self.content_region.width if self.is_mounted else 0
        room = width - self.BUTTON_CELLS - self.LABEL_MARGIN
        wanted = cell_len(name) + cell_len(gap + mark)
        if room > 0 and wanted > room:
            keep = max(1, room - cell_len(gap + mark) - 1)
            name = name[:keep].rstrip() + "…"
        label = Text(name)
        if mark:
            label.append(gap + mark, style="dim")
        if label != self.label:
            self.label = label

    def watch_value(self) -> None:
        """The mark follows the value, then Textual's own reaction (class, Changed)."""
        self.BUTTON_INNER = self.TICKED if self.value else " "
        super().watch_value()


class WaffleInput(Input):
    """A Waffle count that refuses, as it is typed, what the domain would refuse.

    A refused edit leaves the field as it was (what was typed before stays)
    and posts `Refused` with the domain's sentence for the screen to show.
    Deleting is always allowed, so a bad value set from elsewhere can be fixed.
    """

    class Refused(Message):
        """An edit was refused; `sentence` says why, for the table."""

        def __init__(self, field: WaffleInput, sentence: str) -> None:
            super().__init__()
            self.field = field
            self.sentence = sentence

    def __init__(
        self,
        check: Callable[[str], str | None],
        *,
        id: str | None = None,
        classes: str | None = None,
        compact: bool = False,
    ) -> None:
        """`check` returns the domain's sentence for a field text it refuses, else None."""
        super().__init__("0", id=id, classes=classes, compact=compact)
        self._check = check
        #: The edit last refused (the text it would have made), until the field is edited.
        self.refused_text: str | None = None
        #: What that refused edit typed (a key, or a paste), for naming it in words.
        self.refused_keys = ""
        #: The start of the shown number typed again since that refusal.
        self._retyped = ""

    def replace(self, text: str, start: int, end: int) -> None:
        """Apply the edit only if the domain accepts the resulting count.

        While a keystroke stands refused, typing again the number the box shows
        settles the box (the table confirms it); any other keystroke is an edit.
        """
        if text and self.refused_text is not None and self._retyping(text):
            return
        if text:
            value = self.value
            start, end = sorted((max(0, start), min(len(value), end)))
            sentence = self._check(f"{value[:start]}{text}{value[end:]}")
            if sentence is not None:
                self.refused_text = f"{value[:start]}{text}{value[end:]}"
                self.refused_keys = text
                self._retyped = ""
                self.add_class("-refused")
                self.restricted()
                self.post_message(self.Refused(self, sentence))
                return
        super().replace(text, start, end)

    def _retyping(self, text: str) -> bool:
        """Whether `text` retypes (so far) the number shown; settled once it is all typed.

        The value does not change, so the settling is posted as a change for
        the screen's preview. A two-digit count is retyped one digit at a time.
        """
        typed = self._retyped + text
        if typed == self.value:
            self.clear_refused()
            self.post_message(self.Changed(self, self.value))
            return True
        if self.value.startswith(typed):
            self._retyped = typed
            return True
        self._retyped = ""
        return False

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Space is not typed here: the screen's Space ticks the row's "growled" box.

        An Input claims every printable key before any binding, priority or
        not; a Waffle count never holds a space, so this box gives Space up.
        """
        if key == "space":
            return False
        return super().check_consume_key(key, character)

    def watch_value(self) -> None:
        """Any change of the text (an accepted edit, a reset) settles the field at once.

        At once, not on `Changed`: that message of an earlier edit can arrive
        after a later keystroke was refused.
        """
        self.clear_refused()

    def clear_refused(self) -> None:
        """Nothing refused stands for this field any more."""
        self.refused_text = None
        self._retyped = ""
        self.remove_class("-refused")
