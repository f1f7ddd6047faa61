"""A language chosen in the Settings reaches every screen at once (issue 34, item 3).

The real app starts in English and plays a whole game, so every phase screen is
composed and drawn in English and kept (a Textual mode is never composed again).
In the second game the table picks French, German or Spanish in the Settings on
the table screen. From then on every screen the table sees is drawn and read
for the English words the catalogue translates (`tests.tui.english_words`): the
screen under the dialog, the knock-out question, the Meeting, the finale, the
results, the series board, the setup and the reveal, the start screen, and the
dialogs opened after. Each screen is read in English first too, so a screen
whose reading could find no English cannot pass unseen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from controller_shortcuts import accepted, controller_of, show, started
from driving import key, shown
from no_message_left import settled
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from moderator.domain import ResultsDeclared
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.dialogs.history import HistoryScreen
from moderator.tui.dialogs.how_to_play import HowToPlayScreen
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import (
    TrackedNarrator,
    asked,
    history_read,
    narration_over,
    text_of,
    tracked_app,
)
from tests.tui.drawn import drawn_rows
from tests.tui.english_words import english_on
from tests.tui.test_play_screens_in_the_tables_language import choose_in_the_settings

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin"]
#: Proper nouns, no language's words: the players, the game, a voice's licence
#: ("CC BY", as its model card names it).
NAMES = (*SIX, "Mind Flayer", "MIND FLAYER", "CC BY")


def drawn(app: MindFlayerApp, region: Region | None = None) -> str:
    """The current screen as drawn, row by row (only `region` of it, if given)."""
    rows = drawn_rows(app)
    if region is not None:
        rows = [row[region.x : region.right] for row in rows[region.y : region.bottom]]
    return "\n".join(rows)


async def read(
    pilot: Pilot[None],
    narrator: TrackedNarrator,
    lang: str,
    english: bool,
    where: str,
    region: Region | None = None,
) -> str:
    """Read the screen once drawn (or `region` of it): English words on it (`english`) or
    none (else)."""
    await narration_over(pilot, narrator)
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    screen = drawn(app, region)
    found = english_on(screen, lang, NAMES)
    if english:
        assert found, f"{where}: no English to find before the switch:\n{screen}"
    else:
        assert not found, f"{where} in {lang} still shows English {found}:\n{screen}"
    return screen


async def reach(pilot: Pilot[None], outcome: Outcome, kind: type[Screen[None]]) -> None:
    """Show a controller action's outcome (one the rules took): the `kind` screen, mounted."""
    await show(pilot, accepted(outcome), kind)


def seated_again(controller: TableController) -> Outcome:
    """The next game seated as the setup screen offers it (the last game's roster)."""
    plan = controller.seating_plan()
    assert plan is not None, "no roster to seat again"
    return controller.start_game(plan.players, plan.first_player, said_as=plan.said_as)


async def seat_question(
    pilot: Pilot[None], narrator: TrackedNarrator, asking: str, lang: str, english: bool, where: str
) -> None:
    """The seat question the key `asking` opens, read in its box alone (a tile's word half
    covered by it is no word of either language), then closed with Esc."""
    await key(pilot, asking)
    question = (await asked(pilot)).region
    await read(pilot, narrator, lang, english, where, question)
    await key(pilot, "escape")


async def one_game(
    pilot: Pilot[None], narrator: TrackedNarrator, lang: str, english: bool, *, switch: bool
) -> None:
    """A game of six from its reveal: each screen read; `switch`: the language chosen on
    the table screen (read under the dialog and after), then every screen read in it."""
    controller = controller_of(pilot)
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    await read(pilot, narrator, lang, english, "the reveal")
    await reach(pilot, controller.finish_reveal(), TableScreen)
    await read(pilot, narrator, lang, english, "the table screen")
    if switch:
        await choose_in_the_settings(pilot, narrator, lang, TableScreen)
        english = False
        await read(pilot, narrator, lang, english, "the table screen after the Settings")
    await seat_question(pilot, narrator, "k", lang, english, "the knock-out question")
    await reach(pilot, controller.draw_meeting(), MeetingScreen)
    await read(pilot, narrator, lang, english, "the Meeting")
    await seat_question(pilot, narrator, "o", lang, english, "the sit-out question")
    await reach(pilot, controller.resolve_meeting(), TableScreen)
    seat = 1
    outcome = accepted(controller.knock_out(seat))
    while not controller.state.is_over:  # as many as the rules need to end the game
        seat += 1
        outcome = accepted(controller.knock_out(seat))
    await reach(pilot, outcome, FinaleScreen)
    await read(pilot, narrator, lang, english, "the finale")
    await reach(pilot, controller.enter_results(), ResultScreen)
    await read(pilot, narrator, lang, english, "the results")
    possessed = ResultsDeclared((0, 1), (0,) * len(SIX))
    await reach(pilot, controller.declare(possessed), SeriesScreen)
    await read(pilot, narrator, lang, english, "the series board")


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
async def test_a_language_chosen_during_a_game_reaches_every_screen(
    folders: dict[str, Path], lang: str
) -> None:
    """Every screen drawn in English before, in the table's language after, none left."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        await shown(pilot, StartScreen)
        await read(pilot, narrator, lang, True, "the start screen")
        await reach(pilot, controller.new_series(), SetupScreen)
        await read(pilot, narrator, lang, True, "the setup")
        await reach(pilot, started(controller, SIX), RevealScreen)
        await one_game(pilot, narrator, lang, True, switch=False)
        # The second game: the table switches the language on the table screen.
        await reach(pilot, controller.next_game(), SetupScreen)
        await reach(pilot, seated_again(controller), RevealScreen)
        await one_game(pilot, narrator, lang, True, switch=True)
        await reach(pilot, controller.next_game(), SetupScreen)
        await read(pilot, narrator, lang, False, "the setup")
        await key(pilot, "ctrl+g")
        dialog = await shown(pilot, HowToPlayScreen)
        await narration_over(pilot, narrator)
        # Its title and keys (the lines between are the voice script's, not the catalogue's).
        for part in ("#how-to-play-box > .help-heading", "#how-to-play-hint"):
            words = text_of(dialog.query_one(part, Static))
            assert words and not english_on(words, lang), (part, words)
        await key(pilot, "escape")
        await shown(pilot, SetupScreen)
        await reach(pilot, seated_again(controller), RevealScreen)
        await read(pilot, narrator, lang, False, "the reveal")
        await reach(pilot, controller.go_home(), StartScreen)
        await read(pilot, narrator, lang, False, "the start screen")
        await key(pilot, "f1")
        await shown(pilot, HelpScreen)
        await read(pilot, narrator, lang, False, "the help")
        await key(pilot, "escape")
        await shown(pilot, StartScreen)
        await key(pilot, "h")
        await shown(pilot, HistoryScreen)
        await history_read(pilot)
        await settled(pilot)
        await read(pilot, narrator, lang, False, "the history")
        await key(pilot, "escape")
        await shown(pilot, StartScreen)
        await key(pilot, "f2")
        await shown(pilot, SettingsScreen)
        await read(pilot, narrator, lang, False, "the Settings")
