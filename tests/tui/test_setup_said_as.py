"""Setup's "say it as" (issue 17 item 4): the table types how a name is said.

The voice is asked to say the typed words wherever the name is spoken; the
screen keeps the written name; the words are saved with the game's start (in
its `GameStarted` log entry), survive a restart and come back for the next
game, where they can be changed. Hostile text is shown literally or refused
with a sentence, losing nothing.
"""

from __future__ import annotations

from pathlib import Path

from driving import key, seat_players, to_setup
from textual.pilot import Pilot
from textual.widgets import Input, Static

from moderator.narration.scripts.library import Line
from moderator.narration.scripts.spoken_names import SAID_AS
from moderator.narration.settings import VoiceSettings
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.choice import ChoiceList
from tests.tui.app_driver import TrackedNarrator, knock_out, narration_over, state_of, tracked_app
from tests.tui.test_flow import play_quick_game

NAMES = ["Ann", "Ngô Bảo Châu", "Cy", "Dee"]
SAID = "Ngo Bow Chow"


def roster_text(app: MindFlayerApp) -> str:
    roster = app.screen.query_one("#setup-roster")
    return "\n".join(
        str(roster.get_option_at_index(i).prompt)  # type: ignore[attr-defined]
        for i in range(roster.option_count)  # type: ignore[attr-defined]
    )


async def say_as(pilot: Pilot[None], seat: int, words: str) -> None:
    """On setup: select `seat`, s, type `words` in the "say it as" field, Enter."""
    screen = pilot.app.screen
    roster = screen.query_one("#setup-roster")
    roster.focus()
    roster.highlighted = seat  # type: ignore[attr-defined]
    await key(pilot, "s")
    field = screen.query_one("#setup-say-as", Input)
    assert screen.focused is field
    field.value = words
    await key(pilot, "enter")


async def seat_with_said_as(pilot: Pilot[None]) -> None:
    """From the start screen: a new series, `NAMES` seated, the second said as `SAID`."""
    await to_setup(pilot)
    await seat_players(pilot, NAMES)
    await say_as(pilot, 1, SAID)


def screen_text(app: MindFlayerApp) -> str:
    """Every text widget of the screen, as plain characters."""
    return "\n".join(str(widget.render()) for widget in app.screen.query(Static))


def error_text(app: MindFlayerApp) -> str:
    return str(app.screen.query_one("#setup-error", Static).render())


def voice_words(narrator: TrackedNarrator, script: str, context: dict[str, object]) -> list[str]:
    """What the real narrator's voice would synthesize for this playback (its lines' `said`)."""
    actions = narrator.inner._library.actions(script, context, VoiceSettings())
    return [action.said for action in actions or [] if isinstance(action, Line)]


async def test_a_typed_spoken_form_is_said_and_the_written_name_shown_and_kept(
    folders: dict[str, Path],
) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        await seat_with_said_as(pilot)
        assert f"Ngô Bảo Châu  said “{SAID}”" in roster_text(app)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).said_as == ("", SAID, "", "")
        await knock_out(pilot, 1)
        await narration_over(pilot, narrator)
        assert narrator.played[-1] == "knockout"
        context = narrator.contexts[-1]
        assert context["player"] == "Ngô Bảo Châu"
        assert context[SAID_AS] == {"Ngô Bảo Châu": SAID}
        # The voice says the typed words; the captions and the table show the name.
        assert voice_words(narrator, "knockout", context)[0] == f"{SAID} is knocked out."
        assert narrator.lines("knockout", context)[0] == "Ngô Bảo Châu is knocked out."
        assert "Ngô Bảo Châu" in screen_text(app) and SAID not in screen_text(app)

    again, narrator = tracked_app(folders)
    async with again.run_test(size=(100, 30)) as pilot:
        assert again.screen.query_one(ChoiceList).offers("start-resume")
        await key(pilot, "c")
        assert isinstance(again.screen, TableScreen)
        assert state_of(again).said_as == ("", SAID, "", "")
        await knock_out(pilot, 2)
        await narration_over(pilot, narrator)
        assert narrator.contexts[-1][SAID_AS] == {"Ngô Bảo Châu": SAID}


async def test_the_spoken_form_comes_back_for_the_next_game_and_can_be_changed(
    folders: dict[str, Path],
) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        await seat_with_said_as(pilot)
        await key(pilot, "ctrl+s")
        await play_quick_game(pilot, 0, (2, 3), {})
    again, narrator = tracked_app(folders)
    async with again.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")  # resume: the series board, game 1 done
        assert isinstance(again.screen, SeriesScreen)
        await key(pilot, "n")
        assert isinstance(again.screen, SetupScreen)
        assert f"said “{SAID}”" in roster_text(again)
        await say_as(pilot, 1, "")  # cleared: said as derived from the name
        await say_as(pilot, 0, "Anne")
        assert "said" not in roster_text(again).splitlines()[1]
        await key(pilot, "ctrl+s")
        assert state_of(again).said_as == ("Anne", "", "", "")
        await knock_out(pilot, 1)
        await narration_over(pilot, narrator)
        context = narrator.contexts[-1]
        assert context[SAID_AS] == {"Ann": "Anne"}
        assert voice_words(narrator, "knockout", context)[0] == "Ngô Bao Châu is knocked out."


async def test_hostile_text_is_shown_literally_or_refused_with_a_sentence(
    folders: dict[str, Path],
) -> None:
    app, _ = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        await to_setup(pilot)
        await seat_players(pilot, NAMES)
        markup = "[b]Bold[/b] [@click=app.quit]x[/]"
        await say_as(pilot, 0, markup)
        assert f"said “{markup}”" in roster_text(app)  # literal, not markup
        field = app.screen.query_one("#setup-say-as", Input)
        for hostile, sentence in (
            ("\x1b[31mred", "cannot contain control characters"),
            ("^[[31mred", "cannot contain control characters"),
            ("Bo\u202eb", "cannot contain control characters"),
            ("x" * 200, "at most 60 characters; this one has 200"),
            ("!!!", "needs letters or digits"),
        ):
            await say_as(pilot, 2, hostile)
            assert sentence in error_text(app), hostile
            assert field.value == hostile  # given back to fix, nothing lost
            assert "Cy  said" not in roster_text(app)
        assert app.screen.query_one("#setup-roster") is not None
        await key(pilot, "escape")  # leave the field: the roster stays as it was
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).said_as == (markup, "", "", "")
