"""What a table sees on the result and finale screens, without relying on colour.

Each test reads the rendered text of the widgets (what is on screen) and the
saved state, so a regression to "same X in another colour", points previewed
for an entry the domain refuses, or a doubled cue fails here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from controller_shortcuts import seated, to_results
from driving import FOUR, key, until
from no_message_left import settled
from textual.widgets import Checkbox, Input, Static

from moderator.domain import ResultsDeclared, Team
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.result import ResultScreen
from tests.tui.app_driver import (
    ReachResults,
    domain_sentence,
    knock_out,
    save_showing_points,
    state_of,
    text_of,
)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_ticked_box_looks_different_from_an_unticked_one_without_colour(
    app_factory: Callable[[], MindFlayerApp], theme: str
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        screen = await to_results(pilot)
        ann = screen.query_one("#possessed-0", Checkbox)
        cy = screen.query_one("#possessed-2", Checkbox)
        cy.value = True
        await settled(pilot)
        assert "X" not in text_of(ann)
        assert "X" in text_of(cy)
        assert text_of(screen.query_one("#team-0", Static)) == "Sane"
        assert text_of(screen.query_one("#team-2", Static)) == "Possessed"
        cy.value = False
        await settled(pilot)
        assert "X" not in text_of(cy)
        assert text_of(screen.query_one("#team-2", Static)) == "Sane"


async def test_the_preview_shows_the_domain_sentence_until_the_entry_is_valid(
    at_results: ReachResults,
) -> None:
    async with at_results() as (app, pilot, screen):
        preview = screen.query_one("#result-winner", Static)
        nobody = domain_sentence(app, ResultsDeclared((), (0, 0, 0, 0)))
        assert text_of(preview) == nobody
        assert "Points" not in text_of(preview)

        screen.query_one("#possessed-2", Checkbox).value = True
        await settled(pilot)
        assert (
            text_of(preview) == "If that is right: the SANE win. Points: Ann 1, Bob 1, Cy 0, Dee 1"
        )

        # A value set from elsewhere (not typed) is judged by the domain too.
        screen.query_one("#waffles-1", Input).value = "-1"
        await settled(pilot)
        negative = domain_sentence(app, ResultsDeclared((2,), (0, -1, 0, 0)))
        assert text_of(preview) == negative and "-1" in negative
        assert "Points" not in text_of(preview)

        screen.query_one("#waffles-1", Input).value = "7"
        screen.query_one("#waffles-0", Input).value = "6"
        await settled(pilot)
        too_many = domain_sentence(app, ResultsDeclared((2,), (6, 7, 0, 0)))
        assert text_of(preview) == too_many
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, ResultScreen) and state_of(app).result is None


async def test_waffle_fields_refuse_what_the_domain_refuses_and_keep_what_was_typed(
    at_results: ReachResults,
) -> None:
    async with at_results() as (app, pilot, screen):
        field = screen.query_one("#waffles-1", Input)
        error = screen.query_one("#result-error", Static)
        field.focus()
        await settled(pilot)
        await key(pilot, "1")
        assert field.value == "1"
        await key(pilot, "a")
        assert field.value == "1"
        assert text_of(error) == "Bob's Waffle cards must be a whole number."
        await key(pilot, "3")
        assert field.value == "1"
        assert text_of(error) == domain_sentence(app, ResultsDeclared((0, 1, 2, 3), (0, 13, 0, 0)))
        assert "13" in text_of(error)
        await key(pilot, "2", "backspace")  # an accepted edit clears the sentence
        assert text_of(error) == ""
        # pilot.press gives these named keys their characters ("-", " ").
        await pilot.press("minus")
        assert field.value == "1"
        assert text_of(error) == "Bob's Waffle cards must be a whole number."
        await key(pilot, "backspace", "1")
        await pilot.press("space")  # Space ticks the row's growled box, never types
        assert field.value == "1"
        assert screen.query_one("#possessed-1", Checkbox).value
        await pilot.press("space")
        assert not screen.query_one("#possessed-1", Checkbox).value
        await key(pilot, "2")
        assert field.value == "12"
        assert text_of(error) == ""
        await key(pilot, "backspace", "backspace")
        assert field.value == ""
        await key(pilot, "4")
        assert field.value == "4"

        screen.query_one("#possessed-2", Checkbox).value = True
        await settled(pilot)
        await key(pilot, "ctrl+s")
        result = state_of(app).result
        assert result is not None and result.waffles == (0, 4, 0, 0)
        assert result.points == (1, 5, 0, 1)


async def test_the_losing_team_waffles_stay_editable_but_say_they_do_not_count(
    at_results: ReachResults,
) -> None:
    async with at_results() as (app, pilot, screen):
        assert "count only for the winning team" in text_of(
            screen.query_one("#result-help", Static)
        )
        note = {seat: screen.query_one(f"#waffle-note-{seat}", Static) for seat in range(4)}
        rows = {seat: screen.query_one(f"#result-row-{seat}") for seat in range(4)}
        screen.query_one("#possessed-2", Checkbox).value = True  # the Sane win
        await settled(pilot)
        assert [text_of(note[seat]) for seat in range(4)] == ["", "", "not counted", ""]
        assert [rows[seat].has_class("-losing") for seat in range(4)] == [
            False,
            False,
            True,
            False,
        ]
        # Both players still in play growled: the Possessed win, the Sane lose.
        screen.query_one("#possessed-0", Checkbox).value = True
        screen.query_one("#possessed-1", Checkbox).value = True
        await settled(pilot)
        assert [text_of(note[seat]) for seat in range(4)] == [
            "",
            "",
            "",
            "not counted",
        ]
        dee = screen.query_one("#waffles-3", Input)
        assert not dee.disabled
        dee.focus()
        await settled(pilot)
        await key(pilot, "2")
        assert dee.value.endswith("2")
        assert "Dee 0" in text_of(screen.query_one("#result-winner", Static))
        await key(pilot, "ctrl+s")
        result = state_of(app).result
        assert result is not None and result.winner is Team.POSSESSED
        assert result.points == (1, 1, 1, 0)


async def test_the_result_screen_works_by_keys_alone(
    at_results: ReachResults,
) -> None:
    """Focus starts on Ann's box; Tab order stays box, Waffles, box...; Space ticks."""
    async with at_results() as (app, pilot, screen):
        await key(pilot, "tab", "tab", "tab")
        assert app.focused is not None and app.focused.id == "waffles-1"
        await key(pilot, "2", "tab", "space")
        assert app.focused is not None and app.focused.id == "possessed-2"
        assert "X" in text_of(screen.query_one("#possessed-2", Checkbox))
        await save_showing_points(pilot, "Points: Ann 1, Bob 3, Cy 0, Dee 1", (1, 3, 0, 1))


async def test_the_finale_says_press_enter_once(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, FOUR)
        await key(pilot, "n")
        await knock_out(pilot, 2)
        await knock_out(pilot, 3)
        screen = app.screen
        assert isinstance(screen, FinaleScreen)
        await until(pilot, lambda: not app.controller.speaking)
        await settled(pilot)
        text = " ".join(text_of(widget) for widget in screen.query(Static)).casefold()
        assert text.count("press enter to enter who growled") == 1
        assert text.count("stand up and applaud") == 1
        # Counting again and finishing again still leaves one.
        await key(pilot, "c")
        await until(pilot, lambda: not app.controller.speaking)
        await settled(pilot)
        text = " ".join(text_of(widget) for widget in screen.query(Static)).casefold()
        assert text.count("press enter to enter who growled") == 1
