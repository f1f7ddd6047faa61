"""At the table: an accidental start taken back, a name fixed between games, what the
footer offers, speech faults and refusals told once (found by issue 10)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from controller_shortcuts import controller_of, declared, knocked_out, next_started, show, started
from driving import key, new_game, seat_players, until
from no_message_left import settled, toasts_up
from textual.geometry import Region
from textual.widgets import Button, Input

from moderator.storage import Store
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.key_bar import KeyBar
from tests.tui.app_driver import declare, knock_out, seat_question

FOUR = ("Ann", "Bob", "Noah", "Dee")
SIX = ("Ann", "Bob", "Noah", "Dee", "Eve", "Fin")


def _roster(app: MindFlayerApp) -> tuple[list[str], int]:
    screen = app.screen
    assert isinstance(screen, SetupScreen)
    return list(screen.players), screen.first_player


async def test_undo_right_after_an_accidental_start_returns_to_setup(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """Shift+Tab from the name field reaches "Start game"; Enter starts; u takes it back."""
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await key(pilot, "n")
        await seat_players(pilot, FOUR, first=2)
        app.screen.query_one("#setup-name", Input).focus()
        await key(pilot, "shift+tab")
        assert app.focused is app.screen.query_one("#setup-start", Button)
        await key(pilot, "enter")
        assert isinstance(app.screen, TableScreen), "the accidental start happened"
        await key(pilot, "u")
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app) == (list(FOUR), 2), "the roster is intact"
        assert app.controller.game is None
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert app.controller.game_number == 1, "the taken-back game is not counted"
    with Store.open_read_only(folders["data"]) as store:
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.game is not None
        assert unfinished.game.number == 1 and unfinished.game.state.first_player == 2


async def test_undo_on_the_reveal_takes_a_six_player_start_back(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SIX, first=1)
        assert isinstance(app.screen, RevealScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app) == (list(SIX), 1)


def test_undo_after_the_first_action_still_keeps_the_game(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    controller: TableController = app_factory().controller
    try:
        controller.new_series()
        controller.start_game(FOUR, 0)
        controller.pass_turn()
        assert controller.undo().phase is Phase.TABLE
        assert controller.game is not None and controller.state.turn == 1
    finally:
        controller.close()


async def _play_game_one(pilot, app: MindFlayerApp) -> None:  # type: ignore[no-untyped-def]
    """Game 1: Ann, Bob, Noah, Dee; Dee growls, Sane win, Noah holds 2 Waffles (3 points)."""
    await new_game(pilot, FOUR)
    await knock_out(pilot, 1)
    await knock_out(pilot, 2)
    await key(pilot, "enter")  # finale: enter the results
    await until(pilot, lambda: app.controller.phase is Phase.RESULT)
    await declare(pilot, [3], {2: 2})
    assert isinstance(app.screen, SeriesScreen)


def _game_one_points(data_dir: Path) -> dict[str, int]:
    """Game 1's points as the open series shows them now, read from disk."""
    with Store.open_read_only(data_dir) as store:
        unfinished = store.unfinished()
        assert unfinished is not None
        (game_one,) = store.series_games(unfinished.series_id)
        return dict(game_one.points)


async def test_a_name_fixed_between_games_keeps_the_players_points(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_game_one(pilot, app)
        await key(pilot, "n")  # next game: the same roster
        assert isinstance(app.screen, SetupScreen)
        app.screen.players[2] = "Noah B"  # what the "Fix" key does, quickly
        await key(pilot, "ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, PickPlayerScreen)
        assert "Noah B" in dialog.title_text
        assert [name for _, name in dialog.choices] == ["Noah", "No: a new player"]
        await key(pilot, "enter")  # yes: Noah
        assert isinstance(app.screen, TableScreen)
        await key(pilot, "u")  # still undoable, rename and all
        assert isinstance(app.screen, SetupScreen)
        assert _roster(app)[0] == ["Ann", "Bob", "Noah B", "Dee"]
        await key(pilot, "ctrl+s", "enter")
        assert isinstance(app.screen, TableScreen)
    assert _game_one_points(folders["data"]) == {"Ann": 1, "Bob": 1, "Noah B": 3, "Dee": 0}


async def test_a_new_player_is_not_merged_and_esc_starts_nothing(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_game_one(pilot, app)
        await key(pilot, "n")
        app.screen.players[2] = "Zoe"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, PickPlayerScreen)
        await key(pilot, "escape")
        assert isinstance(app.screen, SetupScreen) and app.controller.game is None
        await key(pilot, "ctrl+s")
        app.screen.query_one("#pick-list").highlighted = 1  # type: ignore[attr-defined]
        await key(pilot, "enter")  # no: a new player
        assert isinstance(app.screen, TableScreen)
    assert _game_one_points(folders["data"]) == {"Ann": 1, "Bob": 1, "Noah": 3, "Dee": 0}


def _footer_keys(app: MindFlayerApp) -> list[str]:
    """The descriptions the footer (or the start screen's key bar) shows now."""
    bars = app.screen.query(KeyBar)
    if bars:
        return [item.description for item in bars.first().items]
    return [str(getattr(key, "description", "")) for key in app.screen.query("FooterKey")]


async def test_the_footer_hides_resume_with_nothing_to_resume(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        assert "Resume" not in _footer_keys(app)
        await new_game(pilot, FOUR)
        await key(pilot, "escape")
        await until(pilot, lambda: "Resume" in _footer_keys(app))


async def test_the_footer_hides_start_reveal_while_it_runs(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SIX)
        assert isinstance(app.screen, RevealScreen)
        assert "Start reveal" in _footer_keys(app)
        await key(pilot, "enter")
        await until(pilot, lambda: "Start reveal" not in _footer_keys(app))
        assert "Undo start" not in _footer_keys(app)
        await key(pilot, "escape")  # stop it: it can be started again
        await until(pilot, lambda: "Start reveal" in _footer_keys(app))


async def test_meeting_line_names_only_who_takes_part_and_tiles_show_their_keys(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    from textual.widgets import Static

    from moderator.tui.screens.meeting import MeetingScreen

    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        await new_game(pilot, ("Ann", "Bob", "Noah", "Dee", "Eve"))
        await knock_out(pilot, 1)  # Bob is out of the game
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)

        def line() -> str:
            return str(app.screen.query_one("#meeting-sitting-out", Static).render())

        assert line().startswith("4 take part: Ann, Noah, Dee, Eve.")
        assert "Bob" not in line()
        tiles = {
            seat: str(app.screen.query_one(f"#seat-{seat}", Static).render()) for seat in (0, 2)
        }
        assert tiles[0].startswith("1 Ann") and tiles[2].startswith("3 Noah")
        await key(pilot, "3", "4", "5")  # Noah, Dee, Eve sit out
        assert line().startswith("1 takes part: Ann. Sitting out: Noah, Dee, Eve.")


async def test_the_knock_out_picker_takes_the_seat_digit(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "k")
        assert seat_question(app) is not None
        await key(pilot, "3")
        assert app.controller.state.knocked_out == frozenset({2})


async def test_a_knock_out_that_ends_the_game_is_seen_on_the_finale(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    from textual.widgets import Static

    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        await knock_out(pilot, 1)
        await knock_out(pilot, 2)
        await until(pilot, lambda: app.controller.phase is Phase.FINALE)
        reason = str(app.screen.query_one("#finale-reason", Static).render())
        assert reason.startswith("Noah is knocked out.")
        assert "Only 2 players are still in play" in reason


async def test_settings_switches_say_on_or_off(app_factory: Callable[[], MindFlayerApp]) -> None:
    from textual.widgets import Static, Switch

    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await key(pilot, "f2")
        word = app.screen.query_one("#settings-announce-word", Static)
        assert str(word.render()) == "off"
        app.screen.query_one("#settings-announce", Switch).toggle()
        await settled(pilot)
        assert str(word.render()) == "on"


async def test_at_80_columns_the_footer_shows_help_first(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await key(pilot, "n")
        await seat_players(pilot, FOUR)  # leaves the roster focused: its keys come first
        assert _footer_keys(app)[0] == "Help"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert _footer_keys(app)[0] == "Help"
        await key(pilot, "question_mark")
        assert type(app.screen).__name__ == "HelpScreen"


async def test_identical_error_toasts_collapse_into_one_with_a_count(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "n", "u", "u", "u", "u")  # nothing to undo, three times over
        errors = [n.message for n in toasts_up(app) if n.severity == "error"]
        assert errors == ["There is nothing to undo. (×3)"]
        await key(pilot, "r", "r")  # redo once, then a different refusal: its own toast
        errors = [n.message for n in toasts_up(app) if n.severity == "error"]
        assert errors == ["There is nothing to undo. (×3)", "There is nothing to redo."]


async def test_the_footer_hides_next_game_once_the_series_is_complete(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        # Games 1 and 2 by the table's controller (Bob and Noah knocked out, Dee growls).
        controller = controller_of(pilot)
        started(controller, FOUR)
        for game in (2, 3):
            if game == 3:
                next_started(controller)
            knocked_out(controller, 1, 2)
            await show(pilot, declared(controller, [3]), SeriesScreen)
            assert "Next game" in _footer_keys(app), f"before game {game}"
        # The last game by keys, as a table plays it.
        await key(pilot, "n", "ctrl+s")  # the same roster, started
        assert isinstance(app.screen, TableScreen)
        await knock_out(pilot, 1)
        await knock_out(pilot, 2)
        await key(pilot, "enter")
        await until(pilot, lambda: app.controller.phase is Phase.RESULT)
        await declare(pilot, [3])
        assert isinstance(app.screen, SeriesScreen)
        assert "Next game" not in _footer_keys(app)
        assert "New series" in _footer_keys(app)
        await key(pilot, "n")  # nothing happens: no fourth game
        assert isinstance(app.screen, SeriesScreen)
        await key(pilot, "u")  # the third game's results reopen; saved again, still no next game
        await until(pilot, lambda: app.controller.phase is Phase.RESULT)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SeriesScreen)
        assert "Next game" not in _footer_keys(app)


async def test_each_switch_word_is_drawn_whole_on_one_line(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    """A user reads "off", not "of" above "f" (the word's box was too narrow for it)."""
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await key(pilot, "f2")
        words = list(app.screen.query(".switch-word"))
        # speech, ambience, announcements, the phone board and the phone remote
        assert len(words) == 5
        for word in words:
            word_text = str(word.render())  # type: ignore[attr-defined]
            box = Region(0, 0, *word.outer_size)  # the padding included, as it is drawn
            drawn = [strip.text.strip() for strip in word.render_lines(box)]
            assert word_text in drawn, f"{word.id}: {word_text!r} drawn as {drawn!r}"
