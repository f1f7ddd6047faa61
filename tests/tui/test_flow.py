"""Complete games through the real screens, the real store and a silent narrator."""

from __future__ import annotations

from collections.abc import Callable

from driving import key, new_game, until
from no_message_left import settled, toasts

from moderator.domain import GameOver, Team
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.choice import ChoiceList
from moderator.tui.widgets.table_picture import SeatTile
from tests.tui.app_driver import declare, knock_out, state_of

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


async def test_seven_player_game_with_reveal_meetings_and_knockouts(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SEVEN, first=2)
        assert isinstance(app.screen, RevealScreen)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        state = state_of(app)
        assert state.current == 2
        assert app.screen.query_one("#table-current", BigText).text == "Cy"
        await key(pilot, "n", "n")
        assert state_of(app).current == 4 and state_of(app).turn == 3
        # Meeting 1 with Bob sitting out (number key 2 = seat 1).
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "2")
        assert state_of(app).meeting is not None
        assert state_of(app).meeting.sitting_out == frozenset({1})
        await key(pilot, "enter")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).meetings_resolved == 1
        # Knock out Fay (seat 5) from the table: k, pick her, Enter.
        await knock_out(pilot, 5)
        assert state_of(app).knocked_out == frozenset({5})
        assert "knocked-out" in app.screen.query_one("#seat-5", SeatTile).marks
        assert "KNOCKED OUT" in str(app.screen.query_one("#seat-5").render())
        for _ in range(2):
            await key(pilot, "n", "m")
            assert isinstance(app.screen, MeetingScreen)
            await key(pilot, "enter")
        assert isinstance(app.screen, FinaleScreen)
        assert state_of(app).over is GameOver.THIRD_MEETING
        await key(pilot, "enter")
        assert isinstance(app.screen, ResultScreen)
        app.screen.query_one("#possessed-0").value = True  # type: ignore[attr-defined]
        app.screen.query_one("#possessed-3").value = True  # type: ignore[attr-defined]
        app.screen.query_one("#waffles-1").value = "2"  # type: ignore[attr-defined]
        await settled(pilot)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SeriesScreen)
        result = state_of(app).result
        assert result is not None and result.winner is Team.SANE
        assert result.points[1] == 3 and result.points[0] == 0


FOUR = ["Ann", "Bob", "Cy", "Dee"]


async def test_four_player_game_ends_early_by_knockouts(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR)
        assert isinstance(app.screen, TableScreen), "no reveal with 4 players"
        await key(pilot, "n")
        await knock_out(pilot, 2)
        assert isinstance(app.screen, TableScreen)
        await knock_out(pilot, 3)
        assert isinstance(app.screen, FinaleScreen)
        assert state_of(app).over is GameOver.FEW_IN_PLAY
        reason = str(app.screen.query_one("#finale-reason").render())
        assert "Only 2 players are still in play" in reason
        await key(pilot, "enter")
        await declare(pilot, [2])
        result = state_of(app).result
        assert result is not None and result.winner is Team.SANE
        assert result.points == (1, 1, 0, 1)


async def test_possessed_win_when_no_sane_player_is_left_in_play(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR)
        await knock_out(pilot, 0)
        await knock_out(pilot, 1)
        await key(pilot, "enter")
        await declare(pilot, [2, 3], {2: 1})
        result = state_of(app).result
        assert result is not None and result.winner is Team.POSSESSED
        assert result.points == (0, 0, 2, 1)


async def play_quick_game(
    pilot: object, possessed: int, knocked: tuple[int, int], waffles: dict[int, int]
) -> None:
    """A 4-player game ended by two knock-outs, results entered."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    for seat in knocked:
        await knock_out(pilot, seat)
    assert isinstance(pilot.app.screen, FinaleScreen)
    await key(pilot, "enter")
    await declare(pilot, [possessed], waffles)
    assert isinstance(pilot.app.screen, SeriesScreen)


async def test_full_series_with_tied_winners(app_factory: Callable[[], MindFlayerApp]) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        await play_quick_game(pilot, 0, (2, 3), {})  # Bob, Cy, Dee +1
        board = app.screen.query_one("#series-board")
        assert board.row_count == 4  # type: ignore[attr-defined]
        assert app.screen.query_one("#series-next").display
        await key(pilot, "n")  # next game: same roster offered
        await settled(pilot)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, TableScreen)
        assert app.controller.game is not None and app.controller.game.number == 2
        await play_quick_game(pilot, 1, (2, 3), {})  # Ann, Cy, Dee +1
        await key(pilot, "n")
        await settled(pilot)
        await key(pilot, "ctrl+s")
        await play_quick_game(pilot, 2, (0, 1), {0: 1})  # Ann +2, Bob +1, Dee +1
        # Totals: Ann 3, Bob 2, Cy 2, Dee 3 -> Ann and Dee share the series.
        assert app.screen.query_one("#series-winner", BigText).text == "Ann & Dee"
        assert not app.screen.query_one("#series-next").display
        leader = str(app.screen.query_one("#series-leader").render())
        assert "Ann, Dee" in leader
        await key(pilot, "n")  # refused: the series is complete
        assert isinstance(app.screen, SeriesScreen)
        assert not app.controller.unfinished_summary()[0]


async def test_undo_redo_across_a_meeting_and_the_game_end(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, TableScreen) and state_of(app).meeting is None
        await key(pilot, "r")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "enter")
        assert isinstance(app.screen, TableScreen)
        assert state_of(app).meetings_resolved == 1 and state_of(app).current == 1
        await key(pilot, "u")
        assert isinstance(app.screen, MeetingScreen)
        assert state_of(app).meetings_resolved == 0 and state_of(app).current == 0
        await key(pilot, "r")
        assert isinstance(app.screen, TableScreen)
        # Across the end of the game.
        await knock_out(pilot, 2)
        await knock_out(pilot, 3)
        assert isinstance(app.screen, FinaleScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, TableScreen)
        assert not state_of(app).is_over and state_of(app).knocked_out == frozenset({2})
        assert any("Undone: Dee knocked out." in message for message in toasts(app))
        await key(pilot, "r")
        assert isinstance(app.screen, FinaleScreen)
        await key(pilot, "enter")
        await declare(pilot, [0])
        assert isinstance(app.screen, SeriesScreen)
        await key(pilot, "u")
        assert isinstance(app.screen, ResultScreen) and state_of(app).result is None
        await key(pilot, "r")
        assert isinstance(app.screen, SeriesScreen) and state_of(app).result is not None


async def test_resume_after_closing_mid_game(app_factory: Callable[[], MindFlayerApp]) -> None:
    first = app_factory()
    async with first.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, SEVEN, first=1)
        await key(pilot, "t")  # skip the reveal
        await key(pilot, "n", "m", "3", "enter", "n")
        await knock_out(pilot, 6)
        await key(pilot, "m", "u")  # an undone Meeting card stays redoable
        before = state_of(first)
    second = app_factory()
    async with second.run_test(size=(100, 30)) as pilot:
        assert second.screen.query_one(ChoiceList).offers("start-resume")
        await key(pilot, "c")
        assert isinstance(second.screen, TableScreen)
        assert state_of(second) == before
        assert "knocked-out" in second.screen.query_one("#seat-6", SeatTile).marks
        await key(pilot, "r")
        assert isinstance(second.screen, MeetingScreen)
    third = app_factory()
    async with third.run_test(size=(100, 30)) as pilot:
        await key(pilot, "c")
        assert isinstance(third.screen, MeetingScreen), "resumed in the middle of a Meeting"
        assert state_of(third).meeting is not None


async def test_resume_between_games_offers_the_next_game(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    first = app_factory()
    async with first.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR, first=3)
        await play_quick_game(pilot, 0, (1, 2), {3: 2})
    second = app_factory()
    async with second.run_test(size=(80, 24)) as pilot:
        assert "next game" in str(second.screen.query_one("#start-unfinished").render())
        await key(pilot, "c")
        assert isinstance(second.screen, SeriesScreen)
        assert second.screen.query_one("#series-board").row_count == 4  # type: ignore[attr-defined]
        await key(pilot, "n")
        assert isinstance(second.screen, SetupScreen)
        assert second.screen.players == FOUR
        await key(pilot, "ctrl+s")
        assert isinstance(second.screen, TableScreen)
        game = second.controller.game
        assert game is not None and game.number == 2


async def test_escape_on_the_final_board_goes_to_the_start_screen_in_one_press(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Issue 20 item 5: the footer says "esc Start screen"; one Esc does that.

    The winners' announcement is still speaking (real waits, time_scale 1.0):
    Esc stops it and leaves in the same press, not only silences.
    """
    from moderator.tui.screens.start import StartScreen

    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        for game in range(3):
            await play_quick_game(pilot, game, (2, 3) if game < 2 else (0, 1), {})
            if game < 2:
                await key(pilot, "n")
                await settled(pilot)
                await key(pilot, "ctrl+s")
        assert app.screen.query_one("#series-winner", BigText).text
        assert app.controller.speaking  # the winners' announcement
        await key(pilot, "escape")
        assert isinstance(app.screen, StartScreen)
        assert not app.controller.speaking


async def test_the_sit_out_list_marks_who_already_sits_out(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Issue 20 item 6: `o` in a Meeting lists "(sits out)" beside those who do."""
    from tests.tui.app_driver import asked

    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "m")
        assert isinstance(app.screen, MeetingScreen)
        await key(pilot, "o")
        picker = await asked(pilot)
        assert not any("sits out" in name for _seat, name in picker.choices)
        picker.answer(1)  # Bob sits out
        await settled(pilot)
        meeting = state_of(app).meeting
        assert meeting is not None and 1 in meeting.sitting_out
        await key(pilot, "o")
        picker = await asked(pilot)
        names = dict(picker.choices)
        assert names[1] == "Bob  (sits out)" and names[0] == "Ann"


async def test_the_finale_shows_the_applaud_line_once(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Issue 20 item 6: the voice's applaud caption and the written cue are never both text_of."""
    from textual.widgets import Static

    from tests.tui.app_driver import text_of

    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, FOUR)
        await knock_out(pilot, 2)
        await knock_out(pilot, 3)
        screen = app.screen
        assert isinstance(screen, FinaleScreen)
        await until(pilot, lambda: not app.controller.speaking)

        def applauds() -> int:
            return sum(
                "applaud" in text_of(widget).lower()
                for widget in screen.query(Static)
                if widget.display
            )

        assert applauds() == 1
        # The voice's own line, as the narration hands it to the screen.
        screen.show_line("Everyone who is Sane and still in the game: stand up and applaud!")
        await settled(pilot)
        assert applauds() == 1
        screen.narration_finished(cancelled=True)  # Esc silenced it on that line
        await settled(pilot)
        assert applauds() == 1
