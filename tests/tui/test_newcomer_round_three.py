"""Issue 35: what a newcomer stumbled on in a full series (items 3, 7 and 10 here).

The real app, driven with Textual's Pilot at the sizes a table uses.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import (
    accepted,
    controller_of,
    declared,
    knocked_out,
    show,
    started,
    to_results,
)
from driving import FOUR, key, press, seat_players, shown, to_setup, until
from no_message_left import settled, toasts
from textual.widgets import Button, Digits, Select, Switch

from moderator.table.config import TableSettings
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from tests.tui.app_driver import at_the_reveal, footer, speaking, tracked_app
from tests.tui.drawn import drawn_rows


def title_line(app: MindFlayerApp) -> str:
    """The title line the app gives its header, read where it is made: the start screen
    shows no header to read it from (app_driver.header reads the drawn one)."""
    return app.format_title(app.title, app.screen.sub_title or "").plain


async def test_muted_stays_visible_on_every_screen_and_the_footer_says_unmute(
    folders: dict[str, Path],
) -> None:
    """Item 3: the toast fades; the header's marker and the footer's Unmute stay until unmuted."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, started(controller_of(pilot), FOUR), TableScreen)
        await key(pilot, "v")
        pilot.app.clear_notifications()  # the toast faded
        await settled(pilot)
        assert "voice muted" in title_line(app)
        assert " v Unmute " in footer(app), footer(app)
        await show(pilot, accepted(controller_of(pilot).draw_meeting()), MeetingScreen)
        await settled(pilot)
        assert "voice muted" in title_line(app)
        assert " v Unmute " in footer(app), footer(app)
        await key(pilot, "escape", "escape")
        await settled(pilot)
        if not isinstance(app.screen, StartScreen):
            await key(pilot, "escape")
        await settled(pilot)
        assert "voice muted" in title_line(app)
        await key(pilot, "v")
        await settled(pilot)
        assert "voice muted" not in title_line(app)
        await show(pilot, accepted(controller_of(pilot).resume()), MeetingScreen)
        await settled(pilot)
        assert " v Mute " in footer(app), footer(app)


@pytest.mark.parametrize(
    ("lang", "undo"), [("en", "Undo"), ("fr", "Annuler"), ("de", "Zurück"), ("es", "Deshacer")]
)
async def test_the_tables_footer_keeps_undo_at_80x24(
    folders: dict[str, Path], lang: str, undo: str
) -> None:
    """Item 7: after a mistake Undo is the key a table needs most; it stays at 80 columns."""
    speaking(folders, lang)
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, started(controller_of(pilot), FOUR), TableScreen)
        line = footer(app)
    assert f" u {undo}" in line, line
    for kept in (" ? ", " n ", " m ", " k ", " esc ", " v ", " f2 "):
        assert kept in line, (kept, line)


async def test_knocking_out_the_current_player_says_whose_turn_it_is_now(
    folders: dict[str, Path],
) -> None:
    """Item 10: the turn passes on; the notice names the new player and seat."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, ["Ann", "Bob", "Cy", "Dee", "Eve"])
        accepted(controller.pass_turn())  # Bob's turn
        outcome = accepted(controller.knock_out(1))
        assert controller.state.current == 2
        other = accepted(controller.knock_out(4))  # not the current player: no turn notice
    assert outcome.notice == "Bob is knocked out. Now it is Cy's turn (seat 3)."
    assert other.notice == "Eve is knocked out."
    assert toasts(app) == [] or "Now it is" not in toasts(app)[-1]


async def test_the_tables_tiles_show_their_seat_numbers(folders: dict[str, Path]) -> None:
    """Item 8: the status line says "Seat 6: your turn"; tile 6 says 6 too (seat 10 says 10)."""
    app, _narrator = tracked_app(folders)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jo"]
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, names)
        accepted(controller.finish_reveal())
        for _turn in range(5):
            accepted(controller.pass_turn())
        screen = await show(pilot, accepted(controller.knock_out(2)), TableScreen)
        await settled(pilot)
        tiles = {seat: str(screen.query_one(f"#seat-{seat}").render()) for seat in range(10)}
        status = str(screen.query_one("#table-current-label").render())
    assert status.startswith("Seat 6: your turn"), status
    for seat, text in tiles.items():
        assert text.startswith(f"{seat + 1} {names[seat]}"), (seat, text)


async def test_the_result_screen_says_how_to_tick_and_reach_the_waffles(
    folders: dict[str, Path],
) -> None:
    """Item 6: Space ticks, Tab reaches the Waffles; the screen says both at 80x24."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_results(pilot)
        words = str(screen.query_one("#result-keys").render())
        region = screen.query_one("#result-keys").region
    assert words == "Space: tick the row · Tab: its Waffles · ↑ ↓: other rows"
    assert region.height == 1 and region.bottom <= 24 and region.width >= len(words)


async def test_the_ambience_marker_says_what_it_means_whole_at_80x24(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Item 1: not a lone word "ambience" but what it is for, drawn whole."""
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot, TableSettings(enabled=False))
        marker = screen.query_one(AmbienceMarker)
        await key(pilot, "enter")
        await until(pilot, lambda: marker.display)
        drawn = str(marker.render())
        width = marker.region.width
        await key(pilot, "escape")
    assert drawn == "♪ ambience without sound: the table's noises are not covered"
    assert width >= len(drawn)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_settings_show_save_and_cancel_and_the_first_tab_lands_on_language(
    folders: dict[str, Path], size: tuple[int, int]
) -> None:
    """Item 2: the buttons in view without scrolling; Tab then Enter opens the language."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=size) as pilot:
        await key(pilot, "f2")
        dialog = await shown(pilot, SettingsScreen)
        box = dialog.query_one("#settings-box").content_region
        for button in ("#settings-save", "#settings-cancel"):
            region = dialog.query_one(button).region
            assert region.height == 1 and box.contains_region(region), (button, region, box)
        await key(pilot, "tab")
        assert app.focused is dialog.query_one("#settings-lang", Select)
        await key(pilot, "enter")
        assert dialog.query_one("#settings-enabled", Switch).value, "the voice is still on"


async def test_a_removal_at_setup_can_be_put_back_and_the_stars_move_is_said(
    folders: dict[str, Path],
) -> None:
    """Item 5: Delete on the first player says where the star went; ^z puts them back."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_setup(pilot)
        await seat_players(pilot, ["Ann", "Bob", "Cy", "Dee"], first=2)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await press(pilot, "delete")  # Cy, the first player (highlighted by seat_players)
        assert screen.players == ["Ann", "Bob", "Dee"] and screen.first_player == 0
        said = toasts(app)[-1]
        await press(pilot, "ctrl+z")
        assert screen.players == ["Ann", "Bob", "Cy", "Dee"]
        assert screen.first_player == 2, "the star is back on Cy"
        back = toasts(app)[-1]
    assert said == "Cy removed (^z: put back). ★ Ann now plays first: press f on the youngest."
    assert back == "Cy is back in seat 3."


async def test_two_presses_of_n_ask_the_set_aside_question_once(folders: dict[str, Path]) -> None:
    """Item 4: two `n` at once with an unfinished series: one question, one Esc closes it."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        await show(pilot, accepted(controller.go_home()), StartScreen)
        app.simulate_key("n")  # two people at once: both keys queued before either is handled
        app.simulate_key("n")
        await settled(pilot)
        asked = [screen for screen in app.screen_stack if isinstance(screen, PickPlayerScreen)]
        assert len(asked) == 1, app.screen_stack
        await press(pilot, "escape")
        await settled(pilot)
        assert isinstance(app.screen, StartScreen), app.screen_stack
        await press(pilot, "h")  # the keys work again at once
        await settled(pilot)
        assert not isinstance(app.screen, StartScreen)


async def test_the_setup_greets_an_empty_roster_and_says_which_game_it_seats(
    folders: dict[str, Path],
) -> None:
    """Item 11: no "not 0" refusal to greet a table; game 2's setup says "Game 2 of 3"."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        greeting = str(setup.query_one("#setup-checklist").render())
        first = title_line(app)
        controller = controller_of(pilot)
        started(controller, FOUR)
        knocked_out(controller, 2, 3)
        declared(controller, [0])
        await show(pilot, accepted(controller.next_game()), SetupScreen)
        await settled(pilot)
        second = title_line(app)
    assert "not 0" not in greeting and greeting.startswith("Type each player's name"), greeting
    assert "Game 1 of 3" in first, first
    assert "Game 2 of 3" in second, second


async def test_every_value_of_the_reveals_countdown_is_counted_down_with_no_stray_zero(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    """Item 11: every value the countdown is given to draw, in order: never a "0" (seen
    once between the eyes-closing pause and the window), each pause counted down, the
    eyes-open window from 5 to 1.

    The values are taken as the screen hands them to the widget, not as frames: a frame
    shows only the value of its moment, and on a busy machine a tenth of a second (a
    second of the script here) can pass unpainted, so frames would miss a stray value
    or skip a good one by the machine's load.
    """
    app = app_factory(time_scale=0.1)  # a second of the script in 0.1 s
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot, TableSettings(enabled=False, reveal_seconds=5))
        digits = screen.query_one("#reveal-countdown", Digits)
        given: list[str] = []
        update = digits.update

        def shown_next(value: str) -> None:
            given.append(value)
            update(value)

        digits.update = shown_next  # type: ignore[method-assign]
        await key(pilot, "enter")
        await shown(pilot, TableScreen)
    values = [value for value, _ in itertools.groupby(given)]
    assert "0" not in values, values
    pauses = [
        [int(value) for value in run] for drawn, run in itertools.groupby(values, bool) if drawn
    ]
    assert [5, 4, 3, 2, 1] in pauses, values
    for pause in pauses:
        assert pause == sorted(pause, reverse=True) and 0 not in pause, values


async def test_the_series_board_names_its_start_screen_key_once(folders: dict[str, Path]) -> None:
    """Item 11: the button said Esc and the footer b for one action; both say b now."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(120, 40)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        knocked_out(controller, 2, 3)
        screen = await show(pilot, declared(controller, [0]), SeriesScreen)
        await settled(pilot)
        label = str(screen.query_one("#series-start", Button).label)
        line = footer(app)
    assert label == "Start screen (b)"
    assert " b Start screen " in line, line


async def test_the_setup_names_the_how_to_play_key_one_way(folders: dict[str, Path]) -> None:
    """Item 11: "^g How to play" from the field and "^g Rules" from the roster were one key."""
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(120, 40)) as pilot:
        await to_setup(pilot)
        await seat_players(pilot, FOUR)  # the roster focused
        roster = footer(app)
        app.screen.query_one("#setup-name").focus()
        await key(pilot)
        field = footer(app)
    assert " ^g Rules " in roster and " ^g Rules " in field, (roster, field)
    assert "How to play" not in roster + field


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "s Say it as"),
        ("fr", "s Prononciation"),
        ("de", "s Aussprache"),
        ("es", "s Pronunciación"),
    ],
)
async def test_the_say_it_as_key_stays_in_sight_while_typing(
    folders: dict[str, Path], lang: str, title: str
) -> None:
    """Item 11: `s` (say it as) was named only in the field's placeholder, gone once a
    player's words are typed; the field's title names the key at 80x24, typing or not."""
    speaking(folders, lang)
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_setup(pilot)
        await seat_players(pilot, FOUR)  # the roster focused
        await key(pilot, "s")  # the first player's words, typed into the field
        field = app.screen.query_one("#setup-say-as")
        assert app.screen.focused is field
        await press(pilot, "A", "n", "n", "e")
        rows = drawn_rows(app)
        top, typed = rows[field.region.y], rows[field.region.y + 1]
    assert title in top, (title, top)
    assert "Anne" in typed, typed
