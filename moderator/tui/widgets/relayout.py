"""A widget laid out again only when its height changes, not on every change of its text.

A layout pass arranges every widget of the screen again and redraws every one
that moved: on the table screen it was most of a key's time. A line whose new
text takes as many rows as the old one (at the width it already has) only
needs a repaint of itself; `repaint` decides which, for any widget whose
width does not follow its content (`Caption`, and `BigText` decides the same
way). Apart from the captions so that the start screen's `BigText` does not
load them (docs/startup.md).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget


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
