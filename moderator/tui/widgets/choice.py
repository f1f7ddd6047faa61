"""One choice of the start screen: a focusable line pressed by Enter, Space or a click.

The start screen is the first frame of every start. Textual's `Button` there
cost about 15 ms of it (docs/startup.md): its stylesheet (every variant and
style, parsed before the first frame) and its label machinery, for six
one-line buttons. A `Choice` is one `Static` with a small stylesheet drawn like
a compact default-style Button (bold label on `$surface`, the variant's colour
as background, the focus shown as Textual's button focus), and it posts
`Choice.Pressed` where a Button posts `Button.Pressed`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

#: The looks a choice can take, as Button's variants.
Variant = Literal["default", "primary", "success", "error"]


class Choice(Static, can_focus=True):
    """A choice on the start screen (see the module's docstring)."""

    DEFAULT_CSS = """
    Choice {
        width: auto;
        min-width: 16;
        height: 1;
        text-align: center;
        text-style: bold;
        color: $button-foreground;
        background: $surface;
        pointer: pointer;
        &:hover { background: $surface-darken-1; }
        &:focus {
            text-style: $button-focus-text-style;
            background-tint: $foreground 5%;
        }
        &.-primary {
            color: $button-color-foreground;
            background: $primary;
            &:hover { background: $primary-darken-2; }
        }
        &.-success {
            color: $button-color-foreground;
            background: $success;
            &:hover { background: $success-darken-2; }
        }
        &.-error {
            color: $button-color-foreground;
            background: $error;
            &:hover { background: $error-darken-1; }
        }
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "press", "Press", show=False, id="choice-press"),
    ]

    class Pressed(Message):
        """The choice was pressed (Enter, Space or a click)."""

        def __init__(self, choice: Choice) -> None:
            super().__init__()
            #: The choice pressed.
            self.choice = choice

        @property
        def control(self) -> Choice:
            """The choice pressed (as `Button.Pressed.control`)."""
            return self.choice

    def __init__(self, label: str, *, id: str, variant: Variant = "default") -> None:
        """`label` is shown as written (no markup)."""
        super().__init__(label, id=id, markup=False)
        if variant != "default":
            self.add_class(f"-{variant}")

    def action_press(self) -> None:
        """Tell the screen this choice was taken."""
        self.post_message(self.Pressed(self))

    def on_click(self, event: events.Click) -> None:
        """A click presses the choice."""
        event.stop()
        self.action_press()
