"""Canaries: the Textual behaviours `moderator.tui.textual_fixes.screens` works around.

Each canary shows the behaviour on plain Textual classes (it passes while the
behaviour is there), next to the check that our class avoids it. When a Textual
upgrade fixes one, its canary fails: delete the workaround and the canary.
"""

from __future__ import annotations

import pytest
from no_message_left import settled
from textual.app import App, ComposeResult, ScreenStackError
from textual.command import CommandPalette
from textual.geometry import Region
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Input, Static

from moderator.tui.textual_fixes import still_needed
from moderator.tui.textual_fixes.screens import (
    ClosesOnceScreen,
    DropsInputAfterClose,
    FocusRepaintsItsWidgets,
    RestylesWhenStale,
    TablePalette,
)


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
    plain = await stack_after_two_dismisses(PlainDialog())
    assert plain == ["Screen"], still_needed("ClosesOnceScreen")
    assert await stack_after_two_dismisses(OurDialog()) == ["Screen", "Base"]


async def test_canary_a_second_dismiss_pops_the_screen_under_a_plain_palette() -> None:
    plain = await stack_after_two_dismisses(CommandPalette())
    assert plain == ["Screen"], still_needed("TablePalette")
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
    try:
        await keys_at_shutdown(PlainModes())
    except ScreenStackError:
        pass
    else:
        pytest.fail(still_needed("DropsInputAfterClose"))
    await keys_at_shutdown(GuardedModes())


async def test_canary_a_screenshot_after_close_fails_a_plain_app() -> None:
    """A picture asked for by the palette just before Ctrl+Q is taken after the screens went."""
    plain, guarded = PlainModes(), GuardedModes()
    for app in (plain, guarded):
        async with app.run_test() as pilot:
            await settled(pilot)
        assert not app.screen_stack
    try:
        plain.deliver_screenshot()
    except ScreenStackError:
        pass
    else:
        pytest.fail(still_needed("DropsInputAfterClose"))
    assert guarded.deliver_screenshot() is None


# --- A focus change repaints the whole screen -------------------------------------------


class Focusable(Screen[None]):
    """Two inputs to move the focus between."""

    def compose(self) -> ComposeResult:
        yield Input(id="first")
        yield Input(id="second")


class OurFocusable(FocusRepaintsItsWidgets[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="first")
        yield Input(id="second")


async def whole_repaints_on_focus(screen: Screen[None], monkeypatch: pytest.MonkeyPatch) -> int:
    """How often `screen` asks to be repainted whole as the focus moves, then comes back."""
    whole: list[Screen[None]] = []
    real = Widget.refresh

    def spy(self: Widget, *regions: Region, **flags: bool) -> Widget:
        if self is screen and not regions and flags.get("repaint", True):
            whole.append(screen)
        return real(self, *regions, **flags)  # type: ignore[arg-type]

    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(screen)
        await settled(pilot)
        monkeypatch.setattr(Widget, "refresh", spy)
        screen.query_one("#second", Input).focus()
        await settled(pilot)
        screen.set_focus(None)
        await settled(pilot)
        monkeypatch.setattr(Widget, "refresh", real)
        return len(whole)


async def test_canary_a_focus_change_repaints_a_plain_screen_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = await whole_repaints_on_focus(Focusable(), monkeypatch)
    assert plain >= 2, still_needed("FocusRepaintsItsWidgets")
    assert await whole_repaints_on_focus(OurFocusable(), monkeypatch) == 0


# --- Every mode switch restyles the whole screen it shows ------------------------------


class Styled(Screen[None]):
    """A screen with one widget whose background comes from the theme."""

    DEFAULT_CSS = "#label { background: $primary; }"

    def compose(self) -> ComposeResult:
        yield Static("styled", id="label")


class OurStyled(RestylesWhenStale[None]):
    DEFAULT_CSS = "#label { background: $primary; }"

    def compose(self) -> ComposeResult:
        yield Static("styled", id="label")


class TwoModes(App[None]):
    """Mode "one" (the screen under test) and mode "two"."""

    def __init__(self, first: type[Screen[None]]) -> None:
        self.MODES = {"one": first, "two": Base}
        super().__init__()

    def on_mount(self) -> None:
        self.switch_mode("one")


async def restyles_on_return(kind: type[Screen[None]], theme: str | None = None) -> tuple[int, str]:
    """Away to mode two (changing the theme there if asked) and back to one.

    The screen's restyles on its return (`update_node_styles` of the screen), and
    the label's background then.
    """
    app = TwoModes(kind)
    restyles: list[object] = []
    async with app.run_test() as pilot:
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, kind)
        await app.switch_mode("two")
        await settled(pilot)
        if theme is not None:
            app.theme = theme
            await settled(pilot)
        real = screen.update_node_styles

        def spy(animate: bool = True) -> None:
            restyles.append(screen)
            real(animate)

        screen.update_node_styles = spy  # type: ignore[method-assign]
        await app.switch_mode("one")
        await settled(pilot)
        background = str(screen.query_one("#label").styles.background)
        return len(restyles), background


async def test_canary_a_plain_screen_is_restyled_whole_on_every_mode_switch() -> None:
    restyled, _ = await restyles_on_return(Styled)
    assert restyled >= 1, still_needed("RestylesWhenStale")
    restyled, _ = await restyles_on_return(OurStyled)
    assert restyled == 0


async def test_a_screen_away_while_the_theme_changed_is_restyled_for_it() -> None:
    """The theme changed while the screen was covered: it shows the new theme's colours."""
    _, plain_then = await restyles_on_return(Styled, "textual-light")
    _, ours_then = await restyles_on_return(OurStyled, "textual-light")
    _, ours_unchanged = await restyles_on_return(OurStyled)
    assert ours_then == plain_then != ours_unchanged
