"""Dialogs (modal screens) whose late "close" cannot close another screen.

Textual's `Screen.dismiss` pops whatever screen is on top of the stack. A
dialog that was already closed (Esc, or a screen change that closed it) can
still have messages waiting in its queue: a selection made just before, an
Enter. Handling one of them dismissed the dialog a second time, which popped
the screen *under* it (the game screen, or the start screen itself, leaving a
blank app). So a dialog only closes itself while it is the screen on top.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.screen import ModalScreen, Screen

ResultT = TypeVar("ResultT")


def is_on_top(screen: Screen[Any]) -> bool:
    """Whether `screen` is the one shown now (a closed one is not on the stack)."""
    stack = screen.app.screen_stack
    return bool(stack) and stack[-1] is screen


def nothing_to_await() -> AwaitComplete:
    """An already finished screen change (what a refused close returns)."""
    return cast(AwaitComplete, AwaitComplete.nothing())  # type: ignore[no-untyped-call]


class DialogScreen(ModalScreen[ResultT]):
    """A modal screen whose `dismiss` does nothing once it is no longer on top."""

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close this dialog, unless it was closed already (then nothing happens).

        A dialog asked to close before it has mounted (F2 then Esc in one burst
        of keys) closes once mounted: removed while still mounting, its widgets
        (the settings' Select) failed looking for their own parts.
        """
        if not is_on_top(self):
            return nothing_to_await()
        if not self.is_mounted:
            self.call_after_refresh(self.dismiss, result)
            return nothing_to_await()
        return super().dismiss(result)


class TablePalette(CommandPalette):
    """Textual's command palette, safe against a selection handled after Esc.

    Enter then Esc in quick succession: Esc closes the palette, then the
    selection (already queued) is handled and calls `dismiss` again.
    """

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close the palette, unless it was closed already (then nothing happens)."""
        if not is_on_top(self):
            return nothing_to_await()
        return super().dismiss(result)
