"""The player picker as a dialog: the questions asked before a game is on the screen.

Setting a series aside and naming a renamed player are asked over the start and
setup screens, which host no picker of their own; the seat questions during play
are asked over the phase screen itself (`PlayScreen.ask_seat`). Both are the one
`Picker` widget.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult

from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.widgets.picker import Picker


class PickPlayerScreen(DialogScreen[int | None]):
    """Returns the chosen value, or None on Esc."""

    def __init__(
        self, title: str, choices: Sequence[tuple[int, str]], highlight: int | None = None
    ) -> None:
        super().__init__()
        self.picker = Picker(title, choices, highlight, answered=self.dismiss)

    @property
    def title_text(self) -> str:
        """The question asked."""
        return self.picker.title_text

    @property
    def choices(self) -> list[tuple[int, str]]:
        """The answers offered, each with its value."""
        return self.picker.choices

    def compose(self) -> ComposeResult:
        """The picker, shown at once."""
        yield self.picker


#: Whose keys the help and the keymap list as this dialog's (the picker's, the same
#: over a phase screen); the dialog is modal, so the app's keys wait as well.
KEY_OWNERS = (PickPlayerScreen, Picker)
