"""A reveal cut short is offered again on resume (issue 15, item 5).

The app keeps only public state; the end of the reveal is a saved event
(`RevealFinished`, when its last line finished or the table skipped it), so a
game of 6+ players whose reveal never ended comes back to the reveal screen.
A restart is a second app on the same folders: nothing is saved at exit, so a
kill leaves the database as the end of the first app does.
"""

from __future__ import annotations

from collections.abc import Callable

from controller_shortcuts import seated
from driving import key, until
from no_message_left import toasts
from textual.widgets import Static

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from tests.tui.app_driver import state_of

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


async def test_a_reveal_interrupted_by_closing_the_app_is_offered_on_resume(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, SIX)
        screen = app.screen
        assert isinstance(screen, RevealScreen)
        caption = screen.query_one("#reveal-caption", BigText)
        before = caption.text
        await key(pilot, "enter")
        await until(pilot, lambda: caption.text != before)  # eyes are closing
        assert screen.running
    # The app is gone mid-reveal; the table starts it again.
    again = app_factory()
    async with again.run_test(size=(100, 30), notifications=True) as pilot:
        await key(pilot, "c")
        assert isinstance(again.screen, RevealScreen), again.screen
        assert any("reveal had not finished" in message for message in toasts(again))
        status = str(again.screen.query_one("#reveal-status", Static).render())
        assert "Press Enter" in status
        await key(pilot, "enter")
        await until(pilot, lambda: isinstance(again.screen, TableScreen))
        assert state_of(again).revealed


async def test_a_finished_reveal_resumes_at_the_table(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, SIX)
        await key(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
    again = app_factory()
    async with again.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")
        assert isinstance(again.screen, TableScreen)


async def test_undo_at_the_table_brings_the_reveal_back_then_the_setup(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, SIX)
        await key(pilot, "t")  # skipped: the turns begin
        assert isinstance(app.screen, TableScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, RevealScreen), "the reveal can be played again"
        await key(pilot, "u")
        assert isinstance(app.screen, SetupScreen), "then the start itself is taken back"
        assert app.screen.players == SIX
