"""The subclasses the app's screens and dialogs are built on, each working around Textual.

One section per workaround; each names its upstream issue (or says none was
found) and has a canary in tests/tui/test_textual_fixes_screens.py that shows the
behaviour on plain Textual classes (its entry in the package's `FIXES`).
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from textual import events, on
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

ResultT = TypeVar("ResultT")


def is_on_top(screen: Screen[Any]) -> bool:
    """Whether `screen` is the one shown now (a closed one is not on the stack)."""
    stack = screen.app.screen_stack
    return bool(stack) and stack[-1] is screen


def nothing_to_await() -> AwaitComplete:
    """An already finished screen change (what a refused close returns)."""
    return cast(AwaitComplete, AwaitComplete.nothing())  # type: ignore[no-untyped-call]


# --- A late dismiss pops the screen under the dialog -----------------------------------
#
# Upstream: https://github.com/Textualize/textual/issues/2575 (closed; in 8.2.8
# `Screen.dismiss` still pops whatever screen is on top). A dialog already closed
# (Esc, or a phase change that closed it) can still have messages queued: a
# selection made just before, an Enter. Handling one dismissed it a second time,
# which popped the screen *under* it. Canaries:
# `test_canary_a_second_dismiss_pops_the_screen_under_a_plain_dialog`,
# `test_canary_a_second_dismiss_pops_the_screen_under_a_plain_palette`.


class ClosesOnceScreen(ModalScreen[ResultT]):
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
    """Textual's command palette, safe against a selection handled after Esc."""

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close the palette, unless it was closed already (then nothing happens)."""
        if not is_on_top(self):
            return nothing_to_await()
        return super().dismiss(result)


# --- Input and screenshots queued when the app shuts down ------------------------------
#
# No upstream issue found. Keys pressed in a burst just before the app closes
# reach it after its screens were removed, and Textual raises ScreenStackError
# ("No screens on stack") looking for a screen to send them to. Canary:
# `test_canary_keys_queued_at_shutdown_fail_a_plain_app`.
#
# The palette's "Screenshot" command takes its picture 0.1 s later (a timer that
# queues `deliver_screenshot`); Ctrl+Q inside that 0.1 s closed the screens first
# and the picture raised the same error on the way out (CI, fuzz seed 7). Canary:
# `test_canary_a_screenshot_after_close_fails_a_plain_app`.


class DropsInputAfterClose(App[None]):
    """An app that drops input and screenshots arriving once its screens are gone."""

    async def on_event(self, event: events.Event) -> None:
        """Input with no screen left to receive it is dropped; the rest as Textual does."""
        if isinstance(event, events.InputEvent) and not self.screen_stack:
            return
        await super().on_event(event)

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """Save a screenshot as Textual does, unless the app has closed (then none)."""
        if not self.screen_stack:
            return None
        return super().deliver_screenshot(filename, path, time_format)


# --- A focus change repaints the whole screen ------------------------------------------
#
# No upstream issue found. `Screen.focused` is a reactive that repaints: every focus
# change (a seat question opened over the table, then answered) marks the whole
# screen dirty and the next frame draws every widget's lines again, about as long as
# the knock-out itself (docs/measurements.md). The widgets that gain or lose the
# focus repaint themselves (`Widget._on_focus`, `_on_blur`) and `set_focus` updates
# the focus styles, so that full repaint shows nothing new. Canary:
# `test_canary_a_focus_change_repaints_a_plain_screen_whole`.


class FocusRepaintsItsWidgets(Screen[ResultT]):
    """A screen on which a focus change repaints the widgets it concerns, not all."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)


# --- Every mode switch restyles the whole screen it shows ------------------------------
#
# No upstream issue found. `App.switch_mode` posts `ScreenResume()`, whose
# `refresh_styles` defaults to True, so every phase change applied the whole
# stylesheet to every widget of the screen shown again (22 % of the fuzz's CPU in a
# profile; docs/measurements.md), though `switch_mode` has already refreshed the
# CSS when the theme or its variables changed (`_css_update_count`). What can leave a
# kept screen's styles stale while another is shown: that count, the app's own
# classes or pseudo-classes (Textual restyles only the screens on the current stack
# for them: a theme's dark or light, the terminal's focus), or a stylesheet file
# read meanwhile (a screen's CSS_PATH, first shown). A screen shown again is
# restyled when one of them changed since it was last shown, not otherwise.
# Canary: `test_canary_a_plain_screen_is_restyled_whole_on_every_mode_switch`.


class RestylesWhenStale(Screen[ResultT]):
    """A screen shown again is restyled only if the app's styles moved while it was away."""

    #: What the app's styles were as this screen was last covered (None: never covered).
    _styled_as: tuple[object, ...] | None = None

    def _style_state(self) -> tuple[object, ...]:
        app = self.app
        return (
            app._css_update_count,
            app.classes,
            app.pseudo_classes,
            len(app.stylesheet.source),
        )

    @on(events.ScreenSuspend)
    def _note_the_styles(self) -> None:
        """Covered: the styles it has now are the app's as they are."""
        self._styled_as = self._style_state()

    @on(events.ScreenResume)
    def _restyle_only_if_stale(self, event: events.ScreenResume) -> None:
        """Before Textual's own resume (earlier in the MRO): skip its restyle if nothing moved."""
        if event.refresh_styles and self._styled_as == self._style_state():
            event.refresh_styles = False
