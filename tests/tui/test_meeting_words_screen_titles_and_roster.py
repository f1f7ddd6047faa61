"""The words at the table: a Meeting's caption and voice fit how many take part, every
game screen names the game and the Meeting in words, and a new series left at its setup
resumes with its roster."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from controller_shortcuts import seated
from driving import key, new_game
from textual.widgets import Static

from moderator.narration import VoiceSettings
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import declare, knock_out, narration_over, state_of, text_of, tracked_app
from tests.tui.test_flow import play_quick_game

FOUR = ["Ann", "Bob", "Cy", "Dee"]
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin"]

#: Words that belong only to a Meeting of three or more (left and right are two players).
LEFT_AND_RIGHT = ("left", "right", "chooses two cards: one")


def caption(app: MindFlayerApp) -> str:
    """The Meeting's instructions as shown."""
    return text_of(app.screen.query_one("#meeting-caption", Static))


async def test_the_meeting_caption_and_voice_fit_how_many_take_part(
    folders: dict[str, Path],
) -> None:
    """Item 6: one player taking part "keeps their cards" in the caption as on the tile,
    two give both cards to each other, and the voice says the same when it speaks then."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await narration_over(pilot, narrator)
        assert narrator.contexts[-1]["taking_part"] == 4
        await key(pilot, "2", "3")  # Bob and Cy sit out: Ann and Dee take part
        words = caption(app)
        assert "both cards to the other" in words, words
        assert not any(word in words for word in LEFT_AND_RIGHT), words
        await key(pilot, "4")  # Dee too: Ann alone
        words = caption(app)
        assert "keep their cards" in words, words
        assert not any(word in words for word in LEFT_AND_RIGHT), words
        assert "keeps their cards" in str(app.screen.query_one("#seat-0").render())
        # A voice line of the wording the Meeting began with does not come back.
        app.screen.show_line("Each player in play chooses two cards: one for the player on …")
        await pilot.pause(0)
        assert "keep their cards" in caption(app)
    # Resumed, the Meeting is spoken again for the one player who takes part.
    again, narrator = tracked_app(folders)
    async with again.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")
        assert isinstance(again.screen, MeetingScreen)
        await narration_over(pilot, narrator)
        context = narrator.contexts[-1]
        assert narrator.played[-1] == "meeting" and context["taking_part"] == 1
        spoken = " ".join(narrator.lines("meeting", context))
        assert "they keep their cards" in spoken
        assert not any(word in spoken for word in LEFT_AND_RIGHT), spoken
        assert "keep their cards" in caption(again)


def test_two_taking_part_hear_both_cards_go_to_the_other() -> None:
    """Item 6: the spoken Meeting for two players taking part, in every shipped language."""
    library = ScriptLibrary.load(None)

    def spoken(lang: str, taking_part: int) -> str:
        actions = library.actions(
            "meeting", {"meeting": 1, "taking_part": taking_part}, VoiceSettings(lang=lang)
        )
        assert actions is not None
        return " ".join(action.text for action in actions if isinstance(action, Line))

    assert not library.warnings
    for lang, words in (
        ("en", "gives both to the other"),
        ("fr", "les donne toutes les deux à l'autre"),
        ("de", "gibt beide dem anderen"),
        ("es", "le da las dos al otro"),
    ):
        assert words in spoken(lang, 2), lang
        assert words not in spoken(lang, 3), lang
    assert "one for the player on your left" in spoken("en", 3)
    assert "one for the player on your left" not in spoken("en", 2)


def header(app: MindFlayerApp) -> str:
    """The header's title line, as drawn."""
    return str(app.screen.query_one("HeaderTitle").render())


async def test_every_game_screen_says_the_game_and_the_meeting_in_words(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """Item 6: "Game N of 3" and "Meeting N of 3" in words on every game screen, at 80x24."""
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, SIX)
        assert isinstance(app.screen, RevealScreen)
        assert "Game 1 of 3 · next: Meeting 1 of 3" in header(app)
        await key(pilot, "t")
        assert isinstance(app.screen, TableScreen)
        assert "Game 1 of 3 · next: Meeting 1 of 3" in header(app)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        assert "Game 1 of 3 · Meeting 1 of 3" in header(app)
        assert text_of(app.screen.query_one("#meeting-number-label", Static)) == "Meeting 1 of 3"
        await key(pilot, "enter")
        assert "Game 1 of 3 · next: Meeting 2 of 3" in header(app)
        for seat in (0, 1, 2, 3):
            await knock_out(pilot, seat)
        assert isinstance(app.screen, FinaleScreen)
        assert "Game 1 of 3 · Meetings done: 1 of 3" in header(app)
        await key(pilot, "enter")
        assert isinstance(app.screen, ResultScreen)
        assert "Game 1 of 3 · Meetings done: 1 of 3" in header(app)
        await declare(pilot, [4, 5])
        assert isinstance(app.screen, SeriesScreen)
        assert "Game 1 of 3" in header(app)
        await key(pilot, "n", "ctrl+s")
        assert isinstance(app.screen, RevealScreen)
        assert "Game 2 of 3 · next: Meeting 1 of 3" in header(app)
        assert state_of(app).turn == 1


async def test_a_new_series_left_at_its_setup_resumes_with_the_same_roster(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """Item 6: `s` on a complete board, Esc, then `c`: the setup shows the same players."""
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        for game in range(3):
            await play_quick_game(pilot, game, (2, 3) if game < 2 else (0, 1), {})
            if game < 2:
                await key(pilot, "n", "ctrl+s")
        assert isinstance(app.screen, SeriesScreen)
        await key(pilot, "s")
        setup = app.screen
        assert isinstance(setup, SetupScreen) and setup.players == FOUR
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)
        await key(pilot, "c")
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.players == FOUR
