"""The player picker: one question, the players (or answers) listed, a digit or Enter picks.

One widget for every pick the app asks. A seat question during play (who is
knocked out, who sits out) is asked over the phase screen itself (`PlayScreen`
hosts the picker on a layer of its own): pushing a dialog screen and popping it
again made Textual repaint the whole table twice after the pick, twice the time
of the knock-out itself (docs/measurements.md). The questions before a game
(set a series aside, a renamed player) come over screens that host no picker,
in `PickPlayerScreen`, a dialog around the same widget.

While it is shown the picker is modal: `is_modal` ends the key bindings' chain
at it (Textual's `Screen._modal_binding_chain` stops at the first modal node),
so the screen's keys and the app's, as under a modal dialog, do nothing until
it answers. It answers once, to the callable its host gave it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from moderator.i18n import N_, _
from moderator.tui.widgets.tables_language import follow_the_language

#: The picker's own line under the choices (a msgid).
_KEYS = N_("Enter picks, Esc cancels.")


class PickList(OptionList):
    """The picker's list, which takes the focus only while its picker is shown.

    A screen focuses its first focusable widget when shown (Textual's
    `AUTO_FOCUS`): the list of a hidden picker must not be it, or its digit keys
    would answer a question nobody was asked.
    """

    def _shown(self) -> bool:
        parent = self.parent
        return isinstance(parent, Picker) and parent.display

    def allow_focus(self) -> bool:
        """Only while the picker is shown."""
        return self._shown() and super().allow_focus()

    def watch_has_focus(self, has_focus: bool) -> None:
        """Restyled for the focus it gains, not for the focus a hidden picker loses.

        Hidden, the list is drawn nowhere, and it is focused (and restyled) again
        as it is next shown: restyling it as the table's answer closes the picker
        cost about 1 ms of the knock-out's frame.
        """
        if has_focus or self._shown():
            super().watch_has_focus(has_focus)


class Picker(Vertical):
    """A question and its choices; answers the chosen value, or None on Esc."""

    #: Priority bindings: Textual checks them as the key arrives, before it bubbles
    #: from the focused list up to the app (four hops of the event loop, ~2 ms of a
    #: knock-out's frame). Only while the focus is in the picker, so only while shown.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel"), id="pick-cancel", priority=True),
        # The same digits as the Meeting's tiles: 1..9 and 0 for the tenth seat.
        *(
            Binding(
                str(key % 10),
                f"pick_number({key})",
                N_("Pick that seat's player"),
                show=False,
                priority=True,
            )
            for key in range(1, 11)
        ),
    ]

    def __init__(
        self,
        title: str = "",
        choices: Sequence[tuple[int, str]] = (),
        highlight: int | None = None,
        *,
        answered: Callable[[int | None], object],
        id: str = "pick-box",
    ) -> None:
        super().__init__(id=id)
        #: Called with the answer, at once (no message: one less round of the event loop
        #: between the key and the table's next frame).
        self._answer_to = answered
        self.title_text = title
        self.choices = list(choices)
        self.highlight = highlight
        #: The options listed now (a selection of an earlier question's is ignored).
        self._options = self._listed()
        #: Whether this question was answered already (a second key does nothing).
        self._answered = False

    @property
    def is_modal(self) -> bool:
        """While shown, the screen's and the app's keys wait for the answer."""
        return self.display

    def _listed(self) -> list[Option]:
        return [
            Option(Text(f"{seat + 1}. {name}"), id=f"pick-{seat}") for seat, name in self.choices
        ]

    def compose(self) -> ComposeResult:
        """The question and the names (literal text)."""
        yield Static(self.title_text, id="pick-title", markup=False)
        yield PickList(*self._options, id="pick-list")
        yield Static(_(_KEYS), id="pick-keys", markup=False)

    def ask(
        self, title: str, choices: Sequence[tuple[int, str]], highlight: int | None = None
    ) -> None:
        """Another question on the same picker: its choices listed, the highlight set."""
        self.title_text = title
        self.choices = list(choices)
        self.highlight = highlight
        self._options = self._listed()
        self._answered = False
        if self.is_mounted:
            self.query_one("#pick-title", Static).update(title)
            self.query_one("#pick-list", OptionList).set_options(self._options)
            self._start_on_highlight()

    def on_mount(self) -> None:
        """The first question's highlight (a later one sets its own as it is asked).

        The picker is composed once with its screen: its own line follows the
        table's language from now on (a question's title is drawn as it is asked).
        """
        follow_the_language(self, self._language_changed)
        self._start_on_highlight()

    def _language_changed(self) -> None:
        self.query_one("#pick-keys", Static).update(_(_KEYS))

    def _start_on_highlight(self) -> None:
        """Start on the clicked player, if any, else on the first; the list has the keys."""
        options = self.query_one("#pick-list", OptionList)
        seats = [seat for seat, _name in self.choices]
        options.highlighted = seats.index(self.highlight) if self.highlight in seats else 0
        if self.display:
            options.focus()

    def answer(self, value: int | None) -> None:
        """Answer the question once (a late key or selection after that does nothing)."""
        if self._answered:
            return
        self._answered = True
        self._answer_to(value)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """The chosen seat (a selection left from an earlier question: nothing)."""
        event.stop()
        index = event.option_index
        if index < len(self._options) and event.option is self._options[index]:
            self.answer(self.choices[index][0])

    def action_pick_number(self, number: int) -> None:
        """A digit picks the choice shown with that number (the seat's), if listed."""
        for seat, _name in self.choices:
            if seat + 1 == number:
                self.answer(seat)
                return

    def action_cancel(self) -> None:
        """Nothing picked."""
        self.answer(None)
