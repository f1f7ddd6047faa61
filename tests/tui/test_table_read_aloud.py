"""The table read aloud on demand (issue 35): F3 speaks and shows where the game stands.

The real app and the real narrator (silent, fast): F3 plays the `table_state`
script with the table's public state and shows the very sentence it speaks;
during the eyes-closed reveal it speaks nothing and says why; between games it
gives the series score; in French the sentence is French.
"""

from __future__ import annotations

from pathlib import Path

from controller_shortcuts import accepted, controller_of, declared, knocked_out, show, started
from driving import FOUR, key, shown
from no_message_left import settled, toasts
from textual.pilot import Pilot
from textual.widgets import Static

from moderator.narration import VoiceSettings
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import TrackedNarrator, narration_over, tracked_app
from tests.tui.test_i18n_screens import speaking

TEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jo"]


async def read_aloud(pilot: Pilot[None], narrator: TrackedNarrator) -> str:
    """Press F3; the last toast (what the table reads)."""
    await key(pilot, "f3")
    await narration_over(pilot, narrator)
    await settled(pilot)
    return toasts(pilot.app)[-1]


async def test_f3_says_whose_turn_the_meetings_and_knock_outs_and_shows_it(
    folders: dict[str, Path],
) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, TEN)
        accepted(controller.finish_reveal())
        for _turn in range(3):
            accepted(controller.pass_turn())
        await show(pilot, knocked_out(controller, 5, 7), TableScreen)
        await narration_over(pilot, narrator)
        shown_sentence = await read_aloud(pilot, narrator)
        assert narrator.played[-1] == "table_state"
        spoken = narrator.lines("table_state", narrator.contexts[-1])
    assert shown_sentence == " ".join(spoken)
    assert shown_sentence == (
        "Turn 4: Dee's turn. Game 1 of 3. Meetings done: 0 of 3. Knocked out: Fin and Hal."
    )


async def test_f3_in_a_meeting_names_who_sits_out(folders: dict[str, Path]) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        accepted(controller.draw_meeting())
        await show(pilot, accepted(controller.toggle_sit_out(2)), MeetingScreen)
        await narration_over(pilot, narrator)
        sentence = await read_aloud(pilot, narrator)
    assert sentence == ("Meeting 1 of 3 is on. Game 1 of 3, turn 1. Sitting out this Meeting: Cy.")


async def test_f3_during_the_reveal_speaks_nothing_and_says_why(folders: dict[str, Path]) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, started(controller_of(pilot), TEN), RevealScreen)
        await narration_over(pilot, narrator)
        sentence = await read_aloud(pilot, narrator)
        assert "table_state" not in narrator.played
    assert sentence == "Eyes are closed: the table is read aloud once the reveal is over."


async def test_f3_between_games_gives_the_series_score(folders: dict[str, Path]) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        knocked_out(controller, 2, 3)
        await show(pilot, declared(controller, [0], {1: 2}), SeriesScreen)
        await narration_over(pilot, narrator)
        sentence = await read_aloud(pilot, narrator)
    # Ann was Possessed, Bob, Cy and Dee Sane and won: 1 point each, Bob's 2 Waffles on top.
    assert sentence == "Games played: 1 of 3. Series score: Bob 3, Cy 1, Dee 1 and Ann 0."


async def test_f3_speaks_the_tables_language(folders: dict[str, Path]) -> None:
    speaking(folders, "fr")
    app, narrator = tracked_app(folders)
    # As `build_narrator` makes the app's own narrator from the table's settings.
    narrator.update_settings(VoiceSettings(enabled=False, lang="fr"))
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        await show(pilot, knocked_out(controller, 1), TableScreen)
        await narration_over(pilot, narrator)
        sentence = await read_aloud(pilot, narrator)
    assert sentence == (
        "Tour 1 : à Ann de jouer. Partie 1 sur 3. Réunions terminées : 0 sur 3. Éliminés : Bob."
    )


async def test_the_help_names_the_read_aloud_key(folders: dict[str, Path]) -> None:
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(120, 40)) as pilot:
        await key(pilot, "f1")
        help_screen = await shown(pilot, HelpScreen)
        everywhere = str(help_screen.query_one("#help-everywhere", Static).render())
    assert "f3" in everywhere.lower() and "Where are we?" in everywhere, everywhere
