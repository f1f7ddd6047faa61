"""Canaries: the Textual behaviours `moderator.tui.compat_screens` works around.

Each canary shows the behaviour on plain Textual classes (it passes while the
behaviour is there), next to the check that our class avoids it. When a Textual
upgrade fixes one, its canary fails: delete the workaround and the canary.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult, ScreenStackError
from textual.command import CommandPalette
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from moderator.tui.compat_screens import ClosesOnceScreen, DropsInputAfterClose, TablePalette
from tests.tui.quiet import settled


class Base(Screen[None]):
    """The screen a dialog opens over."""

    def compose(self) -> ComposeResult:
        yield Static("base")


class PlainDialog(ModalScreen[None]):
    """Textual's modal screen as it is."""


class OurDialog(ClosesOnceScreen[None]):
    """Ours."""


class Host(App[None]):
    """A plain app: its default screen, then `Base`."""

    def on_mount(self) -> None:
        self.push_screen(Base())


async def stack_after_two_dismisses(dialog: Screen[None]) -> list[str]:
    app = Host()
    async with app.run_test() as pilot:
        await settled(pilot)
        app.push_screen(dialog)
        await settled(pilot)
        dialog.dismiss()
        dialog.dismiss()  # a queued selection handled after Esc
        await settled(pilot)
        return [type(screen).__name__ for screen in app.screen_stack]


async def test_canary_a_second_dismiss_pops_the_screen_under_a_plain_dialog() -> None:
    assert await stack_after_two_dismisses(PlainDialog()) == ["Screen"], "Textual fixed it"
    assert await stack_after_two_dismisses(OurDialog()) == ["Screen", "Base"]


async def test_canary_a_second_dismiss_pops_the_screen_under_a_plain_palette() -> None:
    assert await stack_after_two_dismisses(CommandPalette()) == ["Screen"], "Textual fixed it"
    assert await stack_after_two_dismisses(TablePalette()) == ["Screen", "Base"]


class PlainModes(App[None]):
    MODES = {"one": Base}
    DEFAULT_MODE = "one"


class GuardedModes(DropsInputAfterClose):
    MODES = {"one": Base}
    DEFAULT_MODE = "one"


async def keys_at_shutdown(app: App[None]) -> None:
    async with app.run_test() as pilot:
        await settled(pilot)
        for _ in range(300):
            app.simulate_key("x")  # still queued when run_test closes the app


async def test_canary_keys_queued_at_shutdown_fail_a_plain_app() -> None:
    with pytest.raises(ScreenStackError):
        await keys_at_shutdown(PlainModes())
    await keys_at_shutdown(GuardedModes())


async def test_canary_a_screenshot_after_close_fails_a_plain_app() -> None:
    """A picture asked for by the palette just before Ctrl+Q is taken after the screens went."""
    plain, guarded = PlainModes(), GuardedModes()
    for app in (plain, guarded):
        async with app.run_test() as pilot:
            await settled(pilot)
        assert not app.screen_stack
    with pytest.raises(ScreenStackError):
        plain.deliver_screenshot()
    assert guarded.deliver_screenshot() is None
