"""Literal text bound to a screen's reactive, laid out again only when its height changes.

Each widget here shows its new text with `relayout.repaint`: a repaint of
itself, and a layout pass of the screen only when its height changed.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Digits, Static

from moderator.tui.widgets.relayout import fixed_width, repaint


class Caption(Static):
    """A line (or a few) of literal text, shown from its `text` reactive (data-bindable)."""

    #: What the line shows (plain text or rich Text, never parsed as markup).
    text: reactive[str | Text] = reactive("", repaint=False, init=False)

    def __init__(
        self, text: str | Text = "", *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(text, id=id, classes=classes, markup=False)
        self.set_reactive(Caption.text, text)

    def watch_text(self, text: str | Text) -> None:
        """Show the new text; lay the screen out again only if it takes other rows."""
        repaint(self, lambda: self.update(text, layout=False))


class BoundDigits(Digits):
    """Textual's `Digits`, shown from a `text` reactive (data-bindable).

    `Digits.update` always asks for a layout (its width follows the number);
    bound, it is called only when the number changed.
    """

    text: reactive[str] = reactive("", repaint=False, init=False)

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.set_reactive(BoundDigits.text, text)

    def watch_text(self, text: str) -> None:
        """Show the new number."""
        self.update(text)


class FittedCaption(Static):
    """A caption said in a few forms, longest first: it shows the first that fits one line.

    A caption above big text (whose turn it is, the Meetings done) is as wide as
    its column, which a longer language overflows at 80 columns: wrapped, its
    second line ran into the big letters under it. Here the screen gives the
    same words whole and shorter (`forms`); the widget picks at its width, again
    whenever the width changes. Only when no form fits is the last one wrapped.
    """

    #: The words, longest first (data-bindable); literal text, never markup.
    forms: reactive[tuple[str, ...]] = reactive((), repaint=False, init=False)

    def __init__(
        self,
        forms: tuple[str, ...] = (),
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.set_reactive(FittedCaption.forms, forms)
        #: The form shown now.
        self.shown = ""

    def watch_forms(self) -> None:
        """New words: show the form that fits."""
        self._fit()

    def on_mount(self) -> None:
        """The first words, once the widget has a place."""
        self._fit()

    def on_resize(self) -> None:
        """Another width may fit the longer form again, or no longer."""
        self._fit()

    def _fit(self) -> None:
        forms = self.forms
        width = fixed_width(self)
        if not forms:
            chosen = ""
        elif not width:
            chosen = forms[0]
        else:
            chosen = next((form for form in forms if cell_len(form) <= width), forms[-1])
        if chosen != self.shown or not self.is_mounted:
            self.shown = chosen
            repaint(self, lambda: self.update(chosen, layout=False))
