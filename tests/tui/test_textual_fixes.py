"""Canaries for the Textual patches and private reads in `moderator.tui.textual_fixes`.

Each canary runs a small bare Textual app in a fresh process that never applies
the patches, and asserts that Textual (as pinned) still has the bug. When a
Textual upgrade fixes one, its canary fails and names the fix to delete (its
registry name, `still_needed`). Each canary has a twin that runs the same app
with the patches applied and asserts the bug is gone, so a patch that stops
working is caught too. The private names the app and the tests read have
canaries of their own (at the end), each naming the helper that reads them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from time import time
from typing import Any

import pytest
from no_message_left import settled
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.message import Message
from textual.notifications import Notification
from textual.timer import Timer
from textual.widgets._toast import Toast

from moderator.tui.textual_fixes import (
    FIXES,
    NO_UPSTREAM_ISSUE,
    TEXTUAL_VERSION,
    private,
    still_needed,
)
from moderator.tui.textual_fixes.patches import MIN_TIMER_DELAY
from tests.tui.app_driver import tracked_app

ROOT = Path(__file__).resolve().parents[2]

#: Shared start of every probe: apply the patches only when asked to.
PROBE_HEAD = """
import os, sys, threading, time
from textual.app import App, ComposeResult
from textual.geometry import Region
if sys.argv[1] == "patched":
    from moderator.tui import textual_fixes
    textual_fixes.apply()

def report(app):
    app.run(headless=True, size=(60, 12))
    error = app._exception
    print("raised " + type(error).__name__ + ": " + str(error) if error else "ran", flush=True)
"""

#: A toast built for a notification that ran out a moment ago (the race in the rack).
TOAST_PROBE = """
from textual.notifications import Notification
from textual.widgets._toast import Toast

class Probe(App):
    def on_mount(self):
        def watchdog():
            time.sleep(3.0)  # the app exits 0.2 s after mounting unless its loop spins
            print("froze", flush=True)
            os._exit(3)

        threading.Thread(target=watchdog, daemon=True).start()
        ran_out = Notification("late", timeout=1, raised_at=time.time() - 1.00006)
        self.mount(Toast(ran_out))
        self.set_timer(0.2, self.exit)

report(Probe())
"""

#: A header whose title widget is gone (pruned first) when the title changes.
HEADER_PROBE = """
from textual.widgets import Header
from textual.widgets._header import HeaderTitle

class Probe(App):
    def compose(self):
        yield Header()

    async def on_mount(self):
        await self.query_one(HeaderTitle).remove()
        self.title = "a new title"
        self.set_timer(0.2, self.exit)

report(Probe())
"""

#: A Select mounted and removed in the same tick (a dialog opened and closed by a key burst).
SELECT_PROBE = """
from textual.widgets import Select

class Probe(App):
    def on_mount(self):
        select = Select([("English", "en"), ("Français", "fr")], value="en")
        self.mount(select)
        select.remove()
        self.set_timer(0.2, self.exit)

report(Probe())
"""

#: A Select whose value line was pruned before its value changes.
SELECT_LABEL_PROBE = """
from textual.widgets import Select

class Probe(App):
    def compose(self):
        yield Select([("English", "en"), ("Français", "fr")], value="en")

    async def on_mount(self):
        select = self.query_one(Select)
        await select.query_one("#label").remove()
        select.value = "fr"
        self.set_timer(0.2, self.exit)

report(Probe())
"""


#: A mode's first screen with app CSS: how many times that CSS is parsed before the first frame.
CSS_PROBE = """
from textual.css import stylesheet
from textual.screen import Screen
from textual.widgets import Static

parsed = []
parse = stylesheet.parse  # what a stylesheet calls when its cache has no rules for a source

def counting(scope, css, *args, **kwargs):
    if "probe-marker" in css:
        parsed.append(1)
    return parse(scope, css, *args, **kwargs)

stylesheet.parse = counting

class Main(Screen):
    def compose(self):
        yield Static("hello", id="probe-marker")

class Probe(App):
    CSS = "#probe-marker { color: red; }"
    MODES = {"main": Main}
    DEFAULT_MODE = "main"

    def on_mount(self):
        self.set_timer(0.3, self.exit)

Probe().run(headless=True, size=(60, 12))
print(f"parsed {len(parsed)}", flush=True)
"""


def run_probe(probe: str, mode: str) -> str:
    """The last line a probe printed: "ran", "froze" or "raised <error>"."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE_HEAD + probe, mode],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, f"the probe printed nothing (exit {done.returncode}):\n{done.stderr[-2000:]}"
    return lines[-1]


#: A mouse press where a widget was, after its removal and before the next layout.
CLICK_PROBE = """
from textual import events
from textual.widgets import Static

class Probe(App):
    def compose(self):
        yield Static("click me", id="gone")

    def on_mount(self):
        self.set_timer(0.1, self.press_where_it_was)

    async def press_where_it_was(self):
        await self.query_one("#gone").remove()
        press = events.MouseDown(
            self.screen, 1, 0, 0, 0, 1, False, False, False, screen_x=1, screen_y=0
        )
        self.screen._forward_event(press)
        self.exit()

report(Probe())
"""


#: A list paged in the frame it was shown, before Textual laid it out (the seat question
#: opened and paged in one burst of keys).
PAGE_PROBE = """
from textual.containers import Vertical
from textual.widgets import OptionList

paged = []

class Probe(App):
    def compose(self):
        with Vertical(id="box") as box:
            box.display = False
            yield OptionList(*(f"seat {n}" for n in range(1, 11)))

    def on_mount(self):
        self.set_timer(0.1, self.show_and_page)

    def show_and_page(self):
        self.query_one("#box").display = True
        options = self.query_one(OptionList)
        options.highlighted = 4
        options.action_page_down()
        down = options.highlighted
        options.action_page_up()
        paged.append(f"paged to {down} then {options.highlighted}")
        self.exit()

report(Probe())
print(*paged, flush=True)  # after "ran", unless it raised
"""

# --- canaries: the bug on plain Textual ----------------------------------------------


def test_canary_toast_negative_delay_freezes_the_app() -> None:
    assert run_probe(TOAST_PROBE, "plain") == "froze", still_needed("clamped_toast_mount")


def test_canary_header_title_watcher_raises_without_its_title() -> None:
    outcome = run_probe(HEADER_PROBE, "plain")
    assert outcome.startswith("raised NoMatches"), still_needed("tolerant_header_mount")
    assert "HeaderTitle" in outcome


def test_canary_select_mounted_and_removed_at_once_raises() -> None:
    outcome = run_probe(SELECT_PROBE, "plain")
    assert outcome.startswith("raised NoMatches"), still_needed("tolerant_select_mount")
    assert "SelectOverlay" in outcome


def test_canary_select_value_line_removed_raises() -> None:
    outcome = run_probe(SELECT_LABEL_PROBE, "plain")
    assert outcome.startswith("raised NoMatches"), still_needed("tolerant_select_update")
    assert "#label" in outcome


def test_canary_a_mode_parses_the_app_css_three_times() -> None:
    assert run_probe(CSS_PROBE, "plain") == "parsed 3", still_needed("cache_sharing_reparse")


def test_canary_a_press_on_a_removed_widget_raises() -> None:
    outcome = run_probe(CLICK_PROBE, "plain")
    assert outcome.startswith("raised AttributeError"), still_needed("attached_widget_at")


def test_canary_paging_a_list_not_laid_out_raises() -> None:
    outcome = run_probe(PAGE_PROBE, "plain")
    assert outcome.startswith("raised KeyError"), still_needed("paging_before_layout")


# --- the same apps with the patches: the bug is gone ---------------------------------


@pytest.mark.parametrize(
    "probe",
    [TOAST_PROBE, HEADER_PROBE, SELECT_PROBE, SELECT_LABEL_PROBE, CLICK_PROBE],
    ids=["toast", "header", "select", "select-label", "click"],
)
def test_the_patches_remove_the_bug(probe: str) -> None:
    assert run_probe(probe, "patched") == "ran"


def test_with_the_patch_a_list_not_laid_out_pages_to_its_ends() -> None:
    """Page Down to the last seat, Page Up to the first, as a list that fits whole."""
    assert run_probe(PAGE_PROBE, "patched") == "paged to 9 then 0"


def test_with_the_patch_a_mode_parses_the_app_css_once() -> None:
    assert run_probe(CSS_PROBE, "patched") == "parsed 1"


# --- the quarantine's bookkeeping -------------------------------------------------------


def test_every_fix_has_its_canary_and_an_upstream_note() -> None:
    """Each fix of the registry: a canary test that exists, an upstream note, a real name."""
    here = Path(__file__).parent
    tests: set[str] = set()
    for name in ("test_textual_fixes.py", "test_textual_fixes_screens.py"):
        tree = ast.parse((here / name).read_text(encoding="utf-8"))
        tests |= {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    package = ROOT / "moderator" / "tui" / "textual_fixes"
    for fix in FIXES:
        assert fix.canary in tests, f"{fix.name}: no canary named {fix.canary}"
        assert fix.upstream in (NO_UPSTREAM_ISSUE, "no public API (private read)") or (
            fix.upstream.startswith("https://github.com/Textualize/textual/issues/")
        ), fix
        source = (package / f"{fix.module}.py").read_text(encoding="utf-8")
        assert f"def {fix.name}(" in source or f"class {fix.name}(" in source, (
            f"{fix.name} is not defined in textual_fixes/{fix.module}.py"
        )


def test_a_canary_message_names_a_fix_of_the_registry() -> None:
    assert "tolerant_header_mount" in still_needed("tolerant_header_mount")
    with pytest.raises(KeyError):
        still_needed("_tolerate_removed_header_title")  # a name no fix has


def test_textual_is_pinned_to_the_version_the_patches_were_tested_on() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [dep for dep in project["project"]["dependencies"] if dep.startswith("textual")]
    assert pins == [f"textual=={TEXTUAL_VERSION}"]
    assert version("textual") == TEXTUAL_VERSION


# --- private API used without a patch ---------------------------------------------------


async def test_private_toast_api_still_behaves() -> None:
    """`private.toast_shown/withdraw_toast/show_toast/live_notices` on plain Textual."""
    app: App[None] = App()
    async with app.run_test(notifications=True) as pilot:
        app.notify("first", severity="error")
        await settled(pilot)
        (first,) = private.live_notices(app)
        assert private.toast_shown(app, first)
        private.withdraw_toast(app, first)
        assert not private.toast_shown(app, first)
        second = Notification("second", "", "error", 5)
        private.show_toast(app, second)
        await settled(pilot)
        assert private.toast_shown(app, second)
        assert [n.message for n in app._notifications] == ["second"]
        # Raised ten seconds ago with a five-second timeout: expired, no sleep needed.
        expired = Notification("gone", "", "error", 5, raised_at=time() - 10)
        private.show_toast(app, expired)
        await settled(pilot)
        assert not private.toast_shown(app, expired)
        assert [n.message for n in private.live_notices(app)] == ["second"]
    async with App[None]().run_test() as pilot:  # notifications off: the strip shows none
        pilot.app.notify("hidden")
        await settled(pilot)
        assert private.live_notices(pilot.app) == []


async def test_private_compositor_reads_still_behave() -> None:
    """`tests/tui/drawn.py` on plain Textual: the widgets drawn, where, and the rows."""
    from textual.widgets import Static

    from tests.tui.drawn import drawn_rows, visible_regions

    class Shown(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("hello there", id="shown")
            hidden = Static("not drawn", id="hidden")
            hidden.display = False
            yield hidden

    app = Shown()
    async with app.run_test(size=(30, 4)) as pilot:
        await settled(pilot)
        regions = {widget.id: region for widget, region in visible_regions(app).items()}
        assert regions["shown"] == Region(0, 0, 30, 1) and "hidden" not in regions
        rows = drawn_rows(app)
        assert len(rows) == 4 and rows[0].startswith("hello there")


async def test_private_forward_event_still_behaves() -> None:
    """`private.forward_key` on plain Textual: the key reaches the widget it is handed to."""
    from textual import events
    from textual.widgets import Input

    class Typing(App[None]):
        def compose(self) -> ComposeResult:
            yield Input(id="field")

    app = Typing()
    async with app.run_test() as pilot:
        field = app.query_one("#field", Input)
        field.focus()
        await settled(pilot)
        private.forward_key(field, events.Key("a", "a"))
        await settled(pilot)
        assert field.value == "a", still_needed("forward_key")


# --- the private names the tests' waits read (bench/no_message_left.py) ----------------------
#
# `settled` reads each message pump's queue (`_message_queue.values`), its pending
# callbacks (`_next_callbacks`), whether it is closed (`_closed`), every widget of the
# app (`App._registry`), and lays the screen out (`Screen._on_timer_update`);
# `record_toasts` swaps `App._notifications`. If Textual renames one, this fails and
# names the reader, not 47 test files at once.


def quiet_reads(name: str) -> str:
    return (
        f"Textual {version('textual')} changed {name}, which bench/no_message_left.py reads: "
        "mend `settled` / `record_toasts` there."
    )


class Ping(Message):
    """A message a widget handles by doing nothing."""


async def test_private_names_the_tests_wait_on_still_behave() -> None:
    from textual.notifications import Notifications
    from textual.widgets import Static

    class Waiting(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("here", id="here")

    app = Waiting()
    async with app.run_test() as pilot:
        await settled(pilot)
        here = app.query_one("#here", Static)
        assert here in app._registry, quiet_reads("App._registry")
        assert here._closed is False, quiet_reads("MessagePump._closed")
        assert isinstance(app._notifications, Notifications), quiet_reads("App._notifications")
        assert list(here._next_callbacks) == [], quiet_reads("MessagePump._next_callbacks")
        here.call_next(lambda: None)
        assert len(here._next_callbacks) == 1, quiet_reads("MessagePump._next_callbacks")
        await settled(pilot)
        assert not here._next_callbacks, quiet_reads("MessagePump._next_callbacks")
        assert hasattr(here._message_queue, "values"), quiet_reads("MessagePump._message_queue")
        message = Ping()
        here._message_queue.put_nowait(message)
        assert here._message_queue.values[-1] is message, quiet_reads(
            "MessagePump._message_queue.values"
        )
        await settled(pilot)
        assert callable(app.screen._on_timer_update), quiet_reads("Screen._on_timer_update")
        app.screen._on_timer_update()
        await here.remove()
        assert here._closed is True, quiet_reads("MessagePump._closed")


@dataclass
class _ExpiringWhileListed(Notification):
    """A toast whose timeout runs out between two looks (Textual reaps on each)."""

    looks: int = 0

    @property
    def has_expired(self) -> bool:
        self.looks += 1
        return self.looks > 1


def test_live_notices_survive_a_toast_expiring_while_they_are_listed() -> None:
    """`list()` of Textual's collection reaped it mid-iteration; a loaded fuzz run crashed.

    `list(notifications)` takes the iterator (a first reap), then asks `__len__`
    for a size hint (a second reap, deleting what expired meanwhile from the dict
    being iterated): "dictionary changed size during iteration" killed the app.
    """
    app: App[None] = App()
    app._notifications.add(Notification("stays", timeout=60))
    app._notifications.add(_ExpiringWhileListed("runs out", timeout=5))
    assert [n.message for n in private.live_notices(app)] == ["stays", "runs out"]


# --- The patch in the app: a toast timer with a negative delay (the 100% CPU freeze) ------
#
# Moved here from the key-burst tests: it subclasses Textual's private `Toast`, the
# class the patch changes, as the canaries above do.


class RecordingToast(Toast):
    """A toast that notes the delay it starts its timer with (and never spins)."""

    delays: list[float] = []

    def set_timer(self, delay: float, *args: Any, **kwargs: Any) -> Timer:
        """Note the delay; run the timer with a safe one whatever happens."""
        self.delays.append(delay)
        return super().set_timer(max(delay, MIN_TIMER_DELAY), *args, **kwargs)


async def test_toast_timer_delay_is_never_negative(folders: dict[str, Path]) -> None:
    """A toast built just after its notification ran out starts a positive timer.

    Textual's timer loop spins forever (no await) when the delay is negative.
    """
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        ran_out = Notification("Voice on.", timeout=1, raised_at=time() - 1.00006)
        assert ran_out.time_left < 0
        RecordingToast.delays = []
        toast = RecordingToast(ran_out)
        await app.screen.mount(toast)
        await settled(pilot)
        assert RecordingToast.delays, "the toast started no timer"
        assert min(RecordingToast.delays) >= MIN_TIMER_DELAY, RecordingToast.delays
