"""The result screen at the table: refused keystrokes, keys alone, undo, one sentence.

Each test drives the real app with Pilot's keys and reads what a player sees
(the rendered widgets, the toasts) and what was saved (the game's state).
"""

from __future__ import annotations

from driving import key
from no_message_left import settled, toasts
from textual.widgets import Checkbox, Input, Static

from moderator.domain import ResultsDeclared
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.series import SeriesScreen
from tests.tui.app_driver import (
    ReachResults,
    declare,
    domain_sentence,
    save_showing_points,
    state_of,
    text_of,
)


def focused_id(app: MindFlayerApp) -> str | None:
    return app.focused.id if app.focused is not None else None


async def test_a_refused_waffle_keystroke_never_saves_the_shorter_number(
    at_results: ReachResults,
) -> None:
    """Typing 99 shows 9 and "cannot hold 99": no points, no save, until it is retyped."""
    async with at_results() as (app, pilot, screen):
        preview = screen.query_one("#result-winner", Static)
        error = screen.query_one("#result-error", Static)
        bob = screen.query_one("#waffles-1", Input)
        screen.query_one("#possessed-2", Checkbox).value = True  # Cy growled: the Sane win
        await settled(pilot)
        await key(pilot, "down", "9", "9")
        assert bob.value == "9"  # the box is as it was before the refused keystroke
        assert text_of(error) == domain_sentence(app, ResultsDeclared((0, 1, 2, 3), (0, 99, 0, 0)))
        assert "Points" not in text_of(preview)  # the leftover 9 counts for nothing yet
        assert "Bob's box still shows 9, not 99" in text_of(preview)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, ResultScreen) and state_of(app).result is None
        assert text_of(error).startswith("Not saved")

        # Ann: 13 is refused after the 1; saving is refused too.
        await key(pilot, "up", "1", "3")
        ann = screen.query_one("#waffles-0", Input)
        assert ann.value == "1" and "13" in text_of(error)
        await key(pilot, "ctrl+s")
        assert state_of(app).result is None

        # Retyping settles each box; then what is text_of is exactly what is saved.
        await key(pilot, "backspace", "1", "down", "backspace", "9")
        assert (ann.value, bob.value) == ("1", "9")
        assert text_of(preview).endswith("Points: Ann 2, Bob 10, Cy 0, Dee 1")
        await key(pilot, "ctrl+s")
        result = state_of(app).result
        assert result is not None and result.waffles == (1, 9, 0, 0)
        assert isinstance(app.screen, SeriesScreen)


async def test_the_result_screen_opens_on_the_first_row_and_arrows_move_between_rows(
    at_results: ReachResults,
) -> None:
    """No Tab needed: Space ticks, digits type Waffles, Up and Down change rows."""
    async with at_results() as (app, pilot, screen):
        assert focused_id(app) == "possessed-0"
        await key(pilot, "down", "down", "space")
        assert focused_id(app) == "possessed-2"
        assert screen.query_one("#possessed-2", Checkbox).value
        await key(pilot, "up", "2")
        assert focused_id(app) == "waffles-1"
        assert screen.query_one("#waffles-1", Input).value == "2"
        await key(pilot, "down")
        assert focused_id(app) == "waffles-2"
        await key(pilot, "up", "up")
        assert focused_id(app) == "waffles-0"
        await key(pilot, "up")  # from the first row round to the last
        assert focused_id(app) == "waffles-3"
        await save_showing_points(pilot, "Points: Ann 1, Bob 3, Cy 0, Dee 1", (1, 3, 0, 1))


async def test_undo_on_the_series_board_brings_back_the_saved_results(
    at_results: ReachResults,
) -> None:
    async with at_results() as (app, pilot, _):
        await declare(pilot, [2], {1: 2})  # Cy growled, Bob holds 2
        assert isinstance(app.screen, SeriesScreen)
        await key(pilot, "u")
        screen = app.screen
        assert isinstance(screen, ResultScreen) and state_of(app).result is None
        ticked = [screen.query_one(f"#possessed-{seat}", Checkbox).value for seat in range(4)]
        assert ticked == [False, False, True, False]
        counts = [screen.query_one(f"#waffles-{seat}", Input).value for seat in range(4)]
        assert counts == ["0", "2", "0", "0"]
        await save_showing_points(pilot, "Points: Ann 1, Bob 3, Cy 0, Dee 1", (1, 3, 0, 1))


async def test_a_refused_results_save_says_its_sentence_once(
    at_results: ReachResults,
) -> None:
    async with at_results(notifications=True) as (app, pilot, screen):
        sentence = domain_sentence(app, ResultsDeclared((), (0, 0, 0, 0)))
        await key(pilot, "ctrl+s")  # nobody ticked: refused
        assert isinstance(app.screen, ResultScreen) and state_of(app).result is None
        texts = [text_of(widget) for widget in screen.query(Static)]
        texts += toasts(app)
        assert sum(text.count(sentence) for text in texts) == 1
        assert text_of(screen.query_one("#result-error", Static)).startswith("Not saved")


async def test_space_ticks_growled_from_the_waffle_column_and_retyping_settles_a_box(
    at_results: ReachResults,
) -> None:
    """Issue 20 item 1: Space after a Waffle digit ticks, never types; retyping settles.

    A refused keystroke is named in words ("a space"), never quoted invisibly,
    and typing the number the box shows again settles the box so Ctrl+S saves.
    """
    async with at_results() as (app, pilot, screen):
        preview = screen.query_one("#result-winner", Static)
        bob = screen.query_one("#waffles-1", Input)
        await key(pilot, "down", "2", "space")  # Bob holds 2, then Bob growled
        assert focused_id(app) == "waffles-1"
        assert bob.value == "2"
        assert screen.query_one("#possessed-1", Checkbox).value
        await key(pilot, "space")  # untick from the Waffle column too
        assert not screen.query_one("#possessed-1", Checkbox).value

        # A pasted space is refused and named in words.
        bob.insert_text_at_cursor(" ")
        await settled(pilot)
        assert bob.value == "2"
        assert "Bob's box still shows 2: a space is no Waffle count" in text_of(preview)
        assert "not  " not in text_of(preview)
        await key(pilot, "2")  # the count the box shows, typed again
        assert bob.value == "2" and "still shows" not in text_of(preview)

        # 29 is refused; typing the 2 the box shows again settles it.
        await key(pilot, "9")
        assert "Bob's box still shows 2, not 29" in text_of(preview)
        await key(pilot, "2")
        assert bob.value == "2" and "still shows" not in text_of(preview)
        await key(pilot, "down", "space")  # Cy growled: the Sane win
        await save_showing_points(pilot, "Points: Ann 1, Bob 3, Cy 0, Dee 1", (1, 3, 0, 1))
