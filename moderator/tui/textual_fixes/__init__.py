"""Every workaround for Textual's behaviour, in one package and one registry (`FIXES`).

Textual is pinned exactly in pyproject.toml (`TEXTUAL_VERSION`) because some of
these reach Textual's private names. Three kinds live here:

- patches to Textual's own classes (`patches.py`), applied by `apply()` when the
  app is built; each wraps the original method (it runs Textual's own body and
  changes only what goes in or what comes out), so an upstream change to the
  body still reaches the app;
- subclasses the app's screens and dialogs are built on (`screens.py`);
- reads of Textual's private names, kept to one helper each (`private.py`).

Each entry of `FIXES` names its upstream issue (or a minimal reproduction: the
canary's probe) and its canary: a test (tests/tui/test_textual_fixes.py,
tests/tui/test_textual_fixes_screens.py) that shows the behaviour on plain
Textual and, when a Textual upgrade changes it, fails with a message naming the
fix to delete or mend (`still_needed`). The private names the tests themselves
read (bench/no_message_left.py, tests/tui/drawn.py) have canaries there too.
"""

from __future__ import annotations

from dataclasses import dataclass

import textual

from moderator.tui.textual_fixes.patches import apply

#: The Textual release these workarounds were written and tested against (pinned in pyproject).
TEXTUAL_VERSION = "8.2.8"

NO_UPSTREAM_ISSUE = "no upstream issue found (the canary's probe reproduces it)"


@dataclass(frozen=True)
class Fix:
    """One workaround for Textual's behaviour, and how we learn that it is no longer needed."""

    #: The name of the function or class that works around it (what to delete or mend).
    name: str
    #: What it works around, in words.
    what: str
    #: The upstream issue's address, or `NO_UPSTREAM_ISSUE`.
    upstream: str
    #: The test that shows the behaviour on plain Textual.
    canary: str
    #: The module of this package that holds it: "patches", "screens" or "private".
    module: str
    #: Whether it only buys speed (then docs/measurements.md has the figure that keeps it).
    speed_only: bool = False


FIXES = (
    Fix(
        "clamped_toast_mount",
        "a toast starts its timer with a positive delay (a negative one froze the app)",
        NO_UPSTREAM_ISSUE,
        "test_canary_toast_negative_delay_freezes_the_app",
        "patches",
    ),
    Fix(
        "tolerant_header_mount",
        "Header skips the title of a header whose HeaderTitle is gone",
        "https://github.com/Textualize/textual/issues/4258",
        "test_canary_header_title_watcher_raises_without_its_title",
        "patches",
    ),
    Fix(
        "tolerant_select_mount",
        "Select skips filling an overlay that was already removed",
        "https://github.com/Textualize/textual/issues/6581",
        "test_canary_select_mounted_and_removed_at_once_raises",
        "patches",
    ),
    Fix(
        "tolerant_select_update",
        "SelectCurrent skips updating a value line that was already removed",
        "https://github.com/Textualize/textual/issues/6581",
        "test_canary_select_value_line_removed_raises",
        "patches",
    ),
    Fix(
        "cache_keeping_set_variables",
        "Stylesheet keeps its parse cache through set_variables with the same variables",
        "https://github.com/Textualize/textual/issues/5210",
        "test_canary_a_mode_parses_the_app_css_three_times",
        "patches",
        speed_only=True,
    ),
    Fix(
        "cache_sharing_reparse",
        "Stylesheet.reparse lends the fresh stylesheet its parse cache",
        "https://github.com/Textualize/textual/issues/5211",
        "test_canary_a_mode_parses_the_app_css_three_times",
        "patches",
        speed_only=True,
    ),
    Fix(
        "attached_widget_at",
        "Screen offers no selection on a widget removed since the last layout",
        NO_UPSTREAM_ISSUE,
        "test_canary_a_press_on_a_removed_widget_raises",
        "patches",
    ),
    Fix(
        "paging_before_layout",
        "OptionList pages to its first or last option before its first layout",
        NO_UPSTREAM_ISSUE,
        "test_canary_paging_a_list_not_laid_out_raises",
        "patches",
    ),
    Fix(
        "ClosesOnceScreen",
        "a late second dismiss pops the screen under a dialog",
        "https://github.com/Textualize/textual/issues/2575",
        "test_canary_a_second_dismiss_pops_the_screen_under_a_plain_dialog",
        "screens",
    ),
    Fix(
        "TablePalette",
        "a late second dismiss pops the screen under the command palette",
        "https://github.com/Textualize/textual/issues/2575",
        "test_canary_a_second_dismiss_pops_the_screen_under_a_plain_palette",
        "screens",
    ),
    Fix(
        "DropsInputAfterClose",
        "keys and screenshots queued at shutdown raise ScreenStackError",
        NO_UPSTREAM_ISSUE,
        "test_canary_keys_queued_at_shutdown_fail_a_plain_app",
        "screens",
    ),
    Fix(
        "FocusRepaintsItsWidgets",
        "a focus change repaints the whole screen",
        NO_UPSTREAM_ISSUE,
        "test_canary_a_focus_change_repaints_a_plain_screen_whole",
        "screens",
        speed_only=True,
    ),
    Fix(
        "RestylesWhenStale",
        "every mode switch restyles the whole screen it shows",
        NO_UPSTREAM_ISSUE,
        "test_canary_a_plain_screen_is_restyled_whole_on_every_mode_switch",
        "screens",
        speed_only=True,
    ),
    Fix(
        "live_notices",
        "the toasts on screen (App._notifications, App._unnotify, _disable_notifications)",
        "no public API (private read)",
        "test_private_toast_api_still_behaves",
        "private",
    ),
    Fix(
        "forward_key",
        "a key handed on to the widget it was typed for (Widget._forward_event)",
        "no public API (private read)",
        "test_private_forward_event_still_behaves",
        "private",
    ),
)


def fix_named(name: str) -> Fix:
    """The registry's entry for `name` (KeyError: no such fix)."""
    for fix in FIXES:
        if fix.name == name:
            return fix
    raise KeyError(f"no fix named {name!r} in moderator.tui.textual_fixes.FIXES")


def still_needed(name: str) -> str:
    """A canary's failure message: Textual changed, the fix `name` is to be deleted or mended."""
    fix = fix_named(name)
    return (
        f"Textual {textual.__version__} no longer behaves as the fix {fix.name!r} "
        f"({fix.what}) expects: delete or mend it in "
        f"moderator/tui/textual_fixes/{fix.module}.py (and its entry in FIXES)."
    )


__all__ = [
    "FIXES",
    "NO_UPSTREAM_ISSUE",
    "TEXTUAL_VERSION",
    "Fix",
    "apply",
    "fix_named",
    "still_needed",
]
