"""Dialogs (modal screens) whose late "close" cannot close another screen.

The classes live with the other Textual workarounds in `moderator.tui.compat_screens`
(upstream issue and canary test there); screens import them from here.
"""

from __future__ import annotations

from moderator.tui.compat_screens import DialogScreen, TablePalette, is_on_top, nothing_to_await

__all__ = ["DialogScreen", "TablePalette", "is_on_top", "nothing_to_await"]
