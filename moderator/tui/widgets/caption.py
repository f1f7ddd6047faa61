"""Literal text bound to a screen's reactive, laid out again only when its height changes.

A layout pass arranges every widget of the screen again and redraws every one
that moved: on the table screen it was most of a key's time. A line whose new
text takes as many rows as the old one (at the width it already has) only
needs a repaint of itself; `repaint` decides which, for any widget whose
width does not follow its content (`BigText` decides the same way).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Digits, Static


def fixed_width(widget: Widget) -> int:
    """The content width `widget` keeps whatever it shows; 0 when it has none yet.

    0 for a widget not laid out yet, or sized by its content's width
    (`width: auto`): its old height says nothing about the new one then.
    """
    if not widget.is_mounted:
        return 0
    rule = widget.styles.width
    if rule is not None and rule.is_auto:
        return 0
    return max(0, widget.content_region.width)


def repaint(widget: Widget, change: Callable[[], None]) -> None:
    """Apply `change` (which repaints `widget`); ask for a layout only if its height changed."""
    width = fixed_width(widget)
    if not width:
        change()
        widget.refresh(layout=True)
        return
    container, viewport = widget.content_size, widget.app.size
    before = widget.get_content_height(container, viewport, width)
    change()  # the change repaints the widget, which clears its cached height
    if widget.get_content_height(container, viewport, width) != before:
        widget.refresh(layout=True)


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
