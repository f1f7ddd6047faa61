"""The start screen's choices: one widget, a line per choice, like a column of compact Buttons.

The start screen is the first frame of every start. Six Textual `Button`s
cost about 15 ms of it (docs/startup.md): Button's stylesheet (every variant
and style) and its label machinery; six light one-line widgets still cost
about 8 ms more than one (each widget is styled, composed, mounted and
rendered on its own). So the choices are one focusable widget that draws a
line per choice, a blank line between, each as a compact default-style Button
draws it (bold label, the variant's background), the highlighted one in
Textual's button-focus style. Up/Down (or Tab/Shift+Tab) move the highlight,
Enter or Space takes it, a click takes the choice under the pointer; it posts
`ChoiceList.Chosen` with the choice's id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from moderator.i18n import N_, _
from moderator.tui.widgets.tables_language import follow_the_language

#: The looks a choice can take, as Button's variants.
Variant = Literal["default", "primary", "success", "error"]


class Choice(NamedTuple):
    """One line of the list: an id to report, the label shown, its look.

    A NamedTuple, not a frozen dataclass: it is built at import for the first
    frame, and a dataclass costs about 0.5 ms there, a NamedTuple 0.07 ms
    (docs/startup.md, item 5).
    """

    id: str
    label: str
    variant: Variant = "default"


class ChoiceList(Widget, can_focus=True):
    """The start screen's choices (see the module's docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "choice-list--default",
        "choice-list--primary",
        "choice-list--success",
        "choice-list--error",
        "choice-list--highlight",
    }
    DEFAULT_CSS = """
    ChoiceList {
        width: 40;
        height: auto;
        background: transparent;
        pointer: pointer;
        & > .choice-list--default {
            text-style: bold;
            color: $button-foreground;
            background: $surface;
        }
        & > .choice-list--primary {
            text-style: bold;
            color: $button-color-foreground;
            background: $primary;
        }
        & > .choice-list--success {
            text-style: bold;
            color: $button-color-foreground;
            background: $success;
        }
        & > .choice-list--error {
            text-style: bold;
            color: $button-color-foreground;
            background: $error;
        }
        & > .choice-list--highlight { text-style: $button-focus-text-style; }
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,tab", "move(1)", N_("Next choice"), show=False, id="choice-next"),
        Binding(
            "up,shift+tab", "move(-1)", N_("Previous choice"), show=False, id="choice-previous"
        ),
        Binding("enter,space", "choose", N_("Take the choice"), show=False, id="choice-take"),
    ]

    #: The id of the highlighted choice.
    highlighted: reactive[str] = reactive("")

    class Chosen(Message):
        """A choice was taken (Enter, Space or a click)."""

        def __init__(self, choice_id: str) -> None:
            super().__init__()
            #: The id of the choice taken.
            self.choice_id = choice_id

    def __init__(
        self,
        choices: Sequence[Choice],
        *,
        hidden: Sequence[str] = (),
        highlighted: str | None = None,
        id: str | None = None,
    ) -> None:
        """`hidden`: ids not on offer at first; `highlighted`: the first highlight."""
        super().__init__(id=id)
        self._choices = tuple(choices)
        self._hidden: set[str] = set(hidden)
        first = highlighted if highlighted is not None else (self.shown or [""])[0]
        self.set_reactive(ChoiceList.highlighted, first)

    @property
    def shown(self) -> list[str]:
        """The ids of the choices on offer, top to bottom."""
        return [choice.id for choice in self._offered()]

    def _offered(self) -> list[Choice]:
        return [choice for choice in self._choices if choice.id not in self._hidden]

    def offers(self, choice_id: str) -> bool:
        """Whether this choice is on offer now."""
        return choice_id in self.shown

    def offer(self, choice_id: str, shown: bool) -> None:
        """Show or hide a choice (the highlight leaves a hidden one for the first shown)."""
        if shown:
            self._hidden.discard(choice_id)
        else:
            self._hidden.add(choice_id)
        if self.highlighted not in self.shown and self.shown:
            self.highlighted = self.shown[0]
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """A line per choice, a blank line after each (as Buttons with a bottom margin)."""
        return 2 * len(self.shown)

    def render(self) -> RenderResult:
        """Each choice's label centred on its colour, the highlighted one in focus style."""
        width = self.size.width
        highlight = self.get_component_rich_style("choice-list--highlight", partial=True)
        text = Text(end="", no_wrap=True)
        for line, choice in enumerate(self._offered()):
            style: Style = self.get_component_rich_style(f"choice-list--{choice.variant}")
            if choice.id == self.highlighted and self.has_focus:
                style += highlight
            label = _(choice.label)  # a msgid (`N_`): shown in the screen's language now
            label = label.center(width) if width > len(label) else label
            if line:
                text.append("\n\n")
            text.append(label, style)
        return text

    def on_mount(self) -> None:
        """The labels are drawn in the language of each render: repaint on a switch."""
        follow_the_language(self, self._relabel)

    def _relabel(self) -> None:
        self.refresh()

    def on_focus(self, event: events.Focus) -> None:
        """The highlight is drawn only while the list has the focus."""
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        """As `on_focus`."""
        self.refresh()

    def action_move(self, step: int) -> None:
        """Highlight the next (1) or previous (-1) choice on offer, wrapping around."""
        shown = self.shown
        if not shown:
            return
        place = shown.index(self.highlighted) if self.highlighted in shown else 0
        self.highlighted = shown[(place + step) % len(shown)]

    def action_choose(self) -> None:
        """Take the highlighted choice."""
        if self.highlighted in self.shown:
            self.post_message(self.Chosen(self.highlighted))

    def on_click(self, event: events.Click) -> None:
        """A click on a choice's line takes it (the blank lines between take nothing)."""
        event.stop()
        line, gap = divmod(event.y, 2)
        shown = self.shown
        if not gap and 0 <= line < len(shown):
            self.highlighted = shown[line]
            self.action_choose()
