"""Dialogs (modal screens) whose late "close" cannot close another screen.

The late-close guard lives with the other Textual workarounds in
`moderator.tui.textual_fixes.screens` (`ClosesOnceScreen`, upstream issue and canary
test there); the dialogs subclass this module's `DialogScreen`, the one dialog
base, which adds their CSS.
"""

from __future__ import annotations

from typing import TypeVar

from moderator.tui.screens.phase_screen import SCREENS_CSS
from moderator.tui.textual_fixes import screens as fixed_screens
from moderator.tui.textual_fixes.screens import TablePalette, is_on_top, nothing_to_await

__all__ = ["DialogScreen", "TablePalette", "is_on_top", "nothing_to_await"]

ResultT = TypeVar("ResultT")


class DialogScreen(fixed_screens.ClosesOnceScreen[ResultT]):
    """A dialog: closed at most once, styled by screens.tcss (read when first shown)."""

    CSS_PATH = SCREENS_CSS
