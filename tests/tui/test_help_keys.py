"""Issue 20 item 3: the help lists every key that works, read from the bindings that handle them."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from controller_shortcuts import seated
from driving import key
from textual.dom import DOMNode
from textual.widgets import Static

from moderator.tui import key_reference
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from tests.tui.app_driver import ReachResults

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def widget_classes() -> list[type[DOMNode]]:
    """The app's own widget classes that declare keys."""
    package = importlib.import_module("moderator.tui.widgets")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"moderator.tui.widgets.{info.name}")
        found += [
            cls
            for cls in vars(module).values()
            if isinstance(cls, type)
            and issubclass(cls, DOMNode)
            and cls.__module__ == module.__name__
            and key_reference.declared_bindings(cls)
        ]
    return found


async def test_every_key_a_screen_or_widget_handles_is_in_the_help(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """A binding without a description would be handled but left out of the help: none is."""
    app = app_factory()
    async with app.run_test(size=(100, 40)):
        sections = {s.title: s for s in key_reference.screen_sections(app, {})}
        for owner in key_reference.binding_owners():
            listed = {
                (display, row.description)
                for row in sections[owner.title].rows
                for display in row.keys
            }
            for binding in owner.bindings():
                shown = (app.get_key_display(binding), binding.description)
                assert shown in listed, (owner.title, binding)
        for cls in widget_classes():
            for binding in key_reference.declared_bindings(cls):
                assert binding.description, (cls.__name__, binding)


def current(app: MindFlayerApp) -> str:
    """The help's "On this screen" section, as shown."""
    return str(app.screen.query_one("#help-current", Static).render())


async def test_the_meeting_help_lists_the_seat_digits(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "1–9, 0" in current(app) and "That seat sits out or comes back" in current(app)
        pick = str(app.screen.query_one("#help-screen-pick-player", Static).render())
        assert "1–9, 0" in pick and "Pick that seat's player" in pick


async def test_the_result_help_lists_space_and_the_waffle_digits(
    at_results: ReachResults,
) -> None:
    async with at_results(size=(100, 40)) as (app, pilot, _):
        assert isinstance(app.screen, ResultScreen)
        await key(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        lines = current(app).splitlines()
        assert any(line.startswith("space") and "Tick growled" in line for line in lines), lines
        assert any(line.startswith("0–9") and "Waffles" in line for line in lines), lines
        assert any(line.startswith("tab") and "Next box" in line for line in lines), lines


def test_a_run_of_digits_is_written_short() -> None:
    keys = tuple(str((seat + 1) % 10) for seat in range(10))
    assert key_reference.keys_text(keys) == "1–9, 0"
    assert key_reference.keys_text(("n", "space")) == "n or space"
