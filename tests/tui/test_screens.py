"""Each screen on its own: what it shows, what its keys do, how it refuses."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import key, new_game, seat_players, to_setup, until
from no_message_left import settled, toasts
from textual.widgets import Input, OptionList, Static

from moderator.narration.narrator import Narrator
from moderator.storage import StorageWriteError, Store
from moderator.table.config import SETTINGS_FILE, TableSettings, load_settings
from moderator.table.cues import SetupCue
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.dialogs.history import HistoryScreen
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.messages import NarrationFinished
from moderator.tui.run import run_app
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.choice import ChoiceList
from tests.tui.app_driver import at_the_reveal, history_read, knock_out, state_of, text_of

FOUR = ["Ann", "Bob", "Cy", "Dee"]


async def test_start_offers_resume_only_when_something_is_unfinished(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        assert not app.screen.query_one(ChoiceList).offers("start-resume")
        await key(pilot, "c")
        assert isinstance(app.screen, StartScreen)
        await new_game(pilot, FOUR)
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one(ChoiceList).offers("start-resume")
        assert "Game 1 is unfinished" in text_of(app.screen.query_one("#start-unfinished", Static))


async def test_setup_edits_the_roster_and_shows_the_checklist(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        assert "4 to 10" in text_of(screen.query_one("#setup-checklist", Static))
        await seat_players(pilot, ["Ann", "Bbo", "Cy", "Dee", "Eve"], first=2)
        assert screen.first_player == 2
        checklist = text_of(screen.query_one("#setup-checklist", Static))
        assert "6+ and 9+" in checklist and "1 Mind Flayer and 4 Waffle" in checklist
        assert "No eyes-closed reveal" in checklist
        roster = screen.query_one("#setup-roster", OptionList)
        # Fix a typo: select Bbo, e, retype, Enter.
        roster.focus()
        roster.highlighted = 1
        await pilot.press("e")
        field = screen.query_one("#setup-name", Input)
        assert field.value == "Bbo"
        field.value = "Bob"
        await pilot.press("enter")
        assert screen.players == ["Ann", "Bob", "Cy", "Dee", "Eve"]
        # Move Cy (the first player) up: the star follows her.
        roster.focus()
        roster.highlighted = 2
        await pilot.press("shift+up")
        assert screen.players[1] == "Cy" and screen.first_player == 1
        # Remove Eve.
        roster.highlighted = 4
        await pilot.press("delete")
        assert screen.players == ["Ann", "Cy", "Bob", "Dee"]
        # A duplicate (ignoring case) shows the domain's sentence; nothing is lost.
        field.focus()
        field.value = "ann"
        await pilot.press("enter")
        assert "Two players are called" in text_of(screen.query_one("#setup-error", Static))
        assert field.value == "ann" and len(screen.players) == 4
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).players == ("Ann", "Cy", "Bob", "Dee")
        assert state_of(app).current == 1


async def test_setup_refuses_too_few_and_too_many_players(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        await seat_players(pilot, ["Ann", "Bob", "Cy"])
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SetupScreen)
        assert "not 3" in text_of(screen.query_one("#setup-error", Static))
        await seat_players(pilot, [f"P{i}" for i in range(7)])
        assert len(screen.players) == 10
        field = screen.query_one("#setup-name", Input)
        field.focus()
        field.value = "Eleven"
        await pilot.press("enter")
        assert "at most 10" in text_of(screen.query_one("#setup-error", Static))
        assert len(screen.players) == 10
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, RevealScreen)


async def test_reveal_can_be_stopped_and_replayed(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot)
        await key(pilot, "enter")
        assert screen.running
        await key(pilot, "escape")
        assert not screen.running and app.screen is screen
        assert "stopped" in text_of(screen.query_one("#reveal-status", Static))
        caption = screen.query_one("#reveal-caption", BigText)
        caption.text = ""
        await key(pilot, "enter")
        await until(pilot, lambda: caption.text != "")
        assert screen.running
        await key(pilot, "t")
        assert isinstance(app.screen, TableScreen)


async def test_a_replay_is_not_stopped_by_the_end_of_the_reveal_it_replaced(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Esc, then Enter before the stopped reveal's end was taken up: the replay runs.

    The voice reports a stopped reveal's end from its own thread. On a busy machine
    that report can still wait in the app's queue when Enter asks for the replay
    (seen once in a loaded run): here it is taken up between the replay's key and
    the app starting the replay, in that order, as it was then.
    """
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot)
        await key(pilot, "enter")
        await key(pilot, "escape")
        assert not screen.running
        (stopped,) = [n for n in range(1, 50) if app.controller.playback_phase(n) is not None]
        screen.action_play()  # what Enter runs; its Start is now queued for the app
        app.narration.route(NarrationFinished(stopped, cancelled=True))  # the late report
        caption = screen.query_one("#reveal-caption", BigText)
        caption.text = ""
        await until(pilot, lambda: caption.text != "", "the replay's first line")
        assert screen.running
        assert "running" in text_of(screen.query_one("#reveal-status", Static))
        await key(pilot, "escape")  # the replay can still be stopped
        assert not screen.running
        assert "stopped" in text_of(screen.query_one("#reveal-status", Static))


async def test_refused_results_keep_the_state(app_factory: Callable[[], MindFlayerApp]) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, FOUR)
        await knock_out(pilot, 1)
        await knock_out(pilot, 2)
        await key(pilot, "enter")
        assert isinstance(app.screen, ResultScreen)
        await key(pilot, "ctrl+s")  # nobody ticked: the domain refuses
        assert isinstance(app.screen, ResultScreen)
        assert "at least 1" in text_of(app.screen.query_one("#result-winner", Static))
        assert text_of(app.screen.query_one("#result-error", Static)).startswith("Not saved")
        assert state_of(app).result is None


async def test_a_storage_error_shows_its_sentence_and_changes_nothing(
    app_factory: Callable[[], MindFlayerApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await seated(pilot, FOUR)
        game = app.controller.game
        assert game is not None
        before = game.state

        def refuse(entry: object) -> object:
            raise StorageWriteError("The disk is full: that action was not saved.")

        monkeypatch.setattr(game, "record", refuse)
        await key(pilot, "n")
        assert game.state == before
        assert isinstance(app.screen, TableScreen)
        assert any("disk is full" in message for message in toasts(app))


async def test_illegal_actions_are_refused_with_a_sentence(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "n", "u")  # a turn passed and taken back: the start stays
        before = state_of(app)
        await key(pilot, "u")  # nothing to undo (a start is taken back only if nothing was done)
        await key(pilot, "r", "r", "enter")  # the turn again, then nothing to redo
        messages = toasts(app)
        assert "There is nothing to undo." in messages
        assert "There is nothing to redo." in messages
        assert state_of(app).turn == before.turn + 1


async def test_mute_help_history_and_palette(
    app_factory: Callable[[], MindFlayerApp], narrators: list[Narrator]
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        narrator = narrators[-1]
        await key(pilot, "v")
        assert app.controller.muted
        assert narrator.settings.enabled is False
        await key(pilot, "v")
        assert not app.controller.muted
        await key(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        meeting = text_of(app.screen.query_one("#help-meeting", Static))
        assert "Skip over them and give your card to the next player." in meeting
        effects = text_of(app.screen.query_one("#help-effects", Static))
        assert "3 uncanceled Hard Hit cards and you become knocked out." in effects
        await key(pilot, "escape")
        await key(pilot, "h")
        assert isinstance(app.screen, HistoryScreen)
        await history_read(pilot)
        assert "No complete series yet" in text_of(app.screen.query_one("#history-empty", Static))
        await key(pilot, "escape")
        await new_game(pilot, FOUR)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for title in ("Next turn", "Meeting card", "Knock out", "Undo", "Redo", "Mute", "Help"):
            assert title in titles


async def test_settings_are_saved_atomically_and_reach_the_narrator(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], narrators: list[Narrator]
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 30)) as pilot:
        await key(pilot, "f2")
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#settings-rate", Input).value = "9999"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SettingsScreen), "an out-of-range rate is refused"
        assert "between" in text_of(app.screen.query_one("#settings-error", Static))
        assert not (folders["config"] / SETTINGS_FILE).exists()
        app.screen.query_one("#settings-rate", Input).value = "200"
        app.screen.query_one("#settings-reveal", Input).value = "7"
        await key(pilot, "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
    saved = json.loads((folders["config"] / SETTINGS_FILE).read_text())
    assert saved["rate"] == 200 and saved["reveal_seconds"] == 7.0
    assert load_settings(folders["config"])[0] == TableSettings(rate=200, reveal_seconds=7.0)
    assert narrators[-1].settings.rate == 200


async def test_a_damaged_settings_file_gives_defaults_and_a_notice(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    (folders["config"] / SETTINGS_FILE).write_text("{not json")
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(pilot)
        assert app.controller.settings == TableSettings()
        path = folders["config"] / SETTINGS_FILE
        # The message, not the test's folder (whose name holds "damaged"), is checked.
        assert [message for message in toasts(app) if str(path) in message] == [
            f"The settings file {path}:1 was not used: it is not valid JSON (Expecting "
            "property name enclosed in double quotes). Using the default settings."
        ]


def test_run_app_reports_a_database_in_use_without_a_traceback(
    folders: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(folders["data"]):
        code = run_app(argparse.Namespace(data_dir=str(folders["data"]), voice_scripts=None))
    assert code != 0
    err = capsys.readouterr().err
    assert err.startswith("mindflayer: ") and "Traceback" not in err


async def test_setup_checklist_is_read_aloud_with_captions(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await seat_players(pilot, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
        caption = app.screen.query_one("#setup-caption", Static)
        await key(pilot, "ctrl+r")
        await until(pilot, lambda: text_of(caption) != "")
        expected = app.controller.lines(SetupCue(6))
        await until(pilot, lambda: text_of(caption) == expected[-1])


async def test_database_notices_are_shown_at_start(
    app_factory: Callable[..., MindFlayerApp], folders: dict[str, Path]
) -> None:
    from moderator.storage import DATABASE_NAME

    (folders["data"] / DATABASE_NAME).write_bytes(b"this is not a database" * 100)
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(pilot)
        shown = toasts(app)
        assert any("score database was damaged" in notice for notice in shown), shown


async def test_new_series_sets_an_unfinished_one_aside(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "escape", "n")
        await key(pilot, "2")  # yes: set the started series aside (issue 15 item 6)
        assert isinstance(app.screen, SetupScreen)
        assert any("set aside" in message.lower() for message in toasts(app))
        found, summary = app.controller.unfinished_summary()  # the new, empty series
        assert found and summary == "An unfinished series is waiting for its next game."


async def test_number_fields_stay_fast_with_long_typing(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Textual's type="number" pattern froze the UI on ~20 digits and a letter.

    Not timed (a loaded machine makes any time bound a coin toss): every number
    field checks keystrokes with a pattern whose repeats are all bounded, on a
    text that cannot grow past a few characters, so no keystroke can make it
    backtrack for long; and the long typing still gives the number it should.
    """
    import re

    app = app_factory()
    async with app.run_test(size=(80, 30)) as pilot:
        await key(pilot, "f2")
        numbers = [
            field for field in app.screen.query(Input) if field.restrict or field.type != "text"
        ]
        assert numbers, "the settings dialog has no number field"
        for field in numbers:
            assert field.type == "text", f"{field.id} uses Textual's own number pattern"
            assert field.restrict is not None
            assert not re.search(r"[*+]|\{\d*,\}", field.restrict), (field.id, field.restrict)
            assert 0 < field.max_length <= 8, (field.id, field.max_length)
        field = app.screen.query_one("#settings-volume", Input)
        field.focus()
        field.value = ""
        for char in "1" + "5" * 24 + "x.5e":
            app.simulate_key(char)
        await settled(pilot)
        assert field.value == "155.5"


async def test_escape_silences_first_then_leaves(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    from moderator.tui.screens.meeting import MeetingScreen

    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        assert app.controller.speaking
        await key(pilot, "escape")
        assert isinstance(app.screen, MeetingScreen) and not app.controller.speaking
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)


async def test_names_seated_before_are_suggested(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, ["Ann", "Bartholomew", "Cy", "Dee"])
        await key(pilot, "escape", "n")
        await key(pilot, "2")  # yes: set the started series aside (issue 15 item 6)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.players == ["Ann", "Bartholomew", "Cy", "Dee"], "same roster offered"
        roster = screen.query_one("#setup-roster", OptionList)
        roster.focus()
        roster.highlighted = 1
        await key(pilot, "delete")
        field = screen.query_one("#setup-name", Input)
        field.focus()
        for char in "bar":
            app.simulate_key(char)
        await settled(pilot)
        # The suggester runs in the field's workers; its answer is a message.
        await app.workers.wait_for_complete([w for w in app.workers if w.node is field])
        await settled(pilot)
        await key(pilot, "right", "enter")
        assert screen.players == ["Ann", "Cy", "Dee", "Bartholomew"]
        assert field.value == ""
