"""A small dialog to pick one player (whom to knock out, who sits out)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from moderator.i18n import N_, _
from moderator.tui.dialogs.dialog import DialogScreen


class PickPlayerScreen(DialogScreen[int | None]):
    """Returns the chosen seat, or None on Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel"), id="pick-cancel"),
        # The same digits as the Meeting's tiles: 1..9 and 0 for the tenth seat.
        *(
            Binding(str(key % 10), f"pick_number({key})", N_("Pick that seat's player"), show=False)
            for key in range(1, 11)
        ),
    ]

    def __init__(
        self, title: str, choices: Sequence[tuple[int, str]], highlight: int | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.highlight = highlight
        #: The options listed now (a selection of an earlier question's is ignored).
        self._options = self._listed()

    def _listed(self) -> list[Option]:
        return [
            Option(Text(f"{seat + 1}. {name}"), id=f"pick-{seat}") for seat, name in self.choices
        ]

    def compose(self) -> ComposeResult:
        """The question and the names (literal text)."""
        with Vertical(id="pick-box"):
            yield Static(self.title_text, id="pick-title", markup=False)
            yield OptionList(*self._options, id="pick-list")
            yield Static(_("Enter picks, Esc cancels."), markup=False)

    def ask(
        self, title: str, choices: Sequence[tuple[int, str]], highlight: int | None = None
    ) -> None:
        """The same picker, another question (shown when it is next pushed).

        The app keeps one seat picker installed: a dialog that is removed when
        it closes makes Textual lay out the whole screen under it again.
        """
        self.title_text = title
        self.choices = list(choices)
        self.highlight = highlight
        self._options = self._listed()
        if self.is_mounted:
            self.query_one("#pick-title", Static).update(title)
            self.query_one("#pick-list", OptionList).set_options(self._options)
            self.on_mount()

    def on_mount(self) -> None:
        """Start on the clicked player, if any, else on the first (asked again too)."""
        found = self.query("#pick-list").results(OptionList)
        options = next(found, None)
        if options is None:  # closed again before it was composed (a screen change)
            return
        seats = [seat for seat, _name in self.choices]
        options.highlighted = seats.index(self.highlight) if self.highlight in seats else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Close with the chosen seat (a selection left from an earlier question: nothing)."""
        event.stop()
        index = event.option_index
        if index < len(self._options) and event.option is self._options[index]:
            self.dismiss(self.choices[index][0])

    def action_pick_number(self, number: int) -> None:
        """A digit picks the choice shown with that number (the seat's), if listed."""
        for seat, _name in self.choices:
            if seat + 1 == number:
                self.dismiss(seat)
                return

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
