"""What a screen draws, read from Textual's compositor: the one place the tests do.

Textual has no public API for "which widgets are on screen, where" or "the rows
as drawn" (a screenshot is SVG); both live on the screen's private compositor.
The tests read them through these two functions only, and
`test_textual_fixes.py::test_private_compositor_reads_still_behave` checks on plain
Textual that they still say what is drawn.
"""

from __future__ import annotations

from textual.app import App
from textual.geometry import Region
from textual.widget import Widget


def visible_regions(app: App[object]) -> dict[Widget, Region]:
    """Every widget the current screen draws, and the region it is drawn in."""
    visible = app.screen._compositor.visible_widgets
    return {widget: region for widget, (region, _clip) in visible.items()}


def drawn_rows(app: App[object]) -> list[str]:
    """The current screen's rows as drawn, as plain text."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
