"""The phone remote meets the table: one press at a time, on the board its player saw."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from driving import FOUR, key, until
from driving import new_game as start_game
from no_message_left import settled
from textual.widgets import Switch

from moderator.board.presses import Press, PressRefused, what_changed
from moderator.board.snapshot import build_snapshot
from moderator.domain import MeetingStarted, PlayerKnockedOut, TurnPassed, apply, new_game
from moderator.tui.app import MindFlayerApp
from moderator.tui.remote import phone_remote
from moderator.tui.screens.finale import FinaleScreen
from tests.tui.app_driver import knock_out

FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")


def test_a_stale_press_is_told_what_changed_first() -> None:
    state = new_game(FIVE, 1)
    seen = build_snapshot(4, "table", state)
    passed = build_snapshot(5, "table", apply(state, TurnPassed()))
    assert what_changed(seen, passed) == "Ben already passed the turn."
    meeting = build_snapshot(5, "meeting", apply(state, MeetingStarted()))
    assert what_changed(seen, meeting) == "A Meeting has already started."
    out = build_snapshot(5, "table", apply(state, PlayerKnockedOut(3)))
    assert what_changed(seen, out) == "Dee was already knocked out."
    assert what_changed(out, seen) == "Dee is back in play (undone on the laptop)."
    assert "moved on" in what_changed(None, seen)


async def test_a_laptop_key_taken_up_first_drops_the_phones_press(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    """The press was fresh when checked; the laptop passed the turn before the app took it."""
    app = board_app(board=False, remote=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_game(pilot, FOUR)
        remote = phone_remote(app)
        await app.board.open_remote(remote.press)
        seen = app.board.last
        assert seen is not None
        pressing = asyncio.ensure_future(remote.press(Press("next_turn", seen.seq)))
        await asyncio.sleep(0)  # the press is checked and its intent posted
        app.controller.pass_turn()  # the laptop's own action lands first
        with pytest.raises(PressRefused) as refused:
            await pressing
        assert (refused.value.status, refused.value.sentence) == (
            409,
            "Ann already passed the turn.",
        )
        assert app.controller.state.turn == 2  # one turn, not two
        await app.board.stop()


async def test_the_phases_the_laptop_runs_and_seats_not_at_the_table_are_refused(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app(board=False, remote=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_game(pilot, FOUR)
        remote = phone_remote(app)
        await app.board.open_remote(remote.press)
        last = app.board.last
        assert last is not None
        with pytest.raises(PressRefused) as refused:
            await remote.press(Press("knock_out", last.seq, 7))
        assert refused.value.status == 400
        await knock_out(pilot, 2)
        await knock_out(pilot, 3)
        await until(pilot, lambda: isinstance(app.screen, FinaleScreen))
        last = app.board.last
        assert last is not None and last.phase == "finale"
        with pytest.raises(PressRefused) as refused:
            await remote.press(Press("undo", last.seq))
        assert refused.value.status == 409 and "laptop runs this part" in refused.value.sentence
        assert app.controller.state.is_over  # the undo did not happen
        await app.board.stop()


async def test_turning_the_remote_off_in_the_settings_closes_it_at_once(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app(board=True, remote=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await start_game(pilot, FOUR)
        await app.board.open_remote(phone_remote(app).press)
        server = app.board.server
        assert server is not None and server.remote_token is not None
        first = server.remote_token
        await key(pilot, "f2")
        app.screen.query_one("#settings-remote", Switch).value = False
        await settled(pilot)
        await key(pilot, "ctrl+s")
        assert server.remote_token is None  # closed by the save itself, no wait
        assert server.running  # the read-only board goes on
        await key(pilot, "p")  # the key says the remote is off, and opens nothing
        assert server.remote_token is None
        await key(pilot, "f2")
        app.screen.query_one("#settings-remote", Switch).value = True
        await settled(pilot)
        await key(pilot, "ctrl+s")
        await app.board.open_remote(phone_remote(app).press)
        assert server.remote_token not in (None, first, server.token)  # a new token
        await app.board.stop()


async def test_a_new_series_closes_the_remote_and_the_next_code_is_new(
    board_app: Callable[..., MindFlayerApp],
) -> None:
    app = board_app(board=False, remote=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_game(pilot, FOUR)
        await app.board.open_remote(phone_remote(app).press)
        server = app.board.server
        assert server is not None
        first = server.remote_token
        assert first is not None
        assert await app.board.open_remote(phone_remote(app).press) == server.remote_url
        assert server.remote_token == first  # the same series keeps its code
        app.show_outcome(app.controller.new_series())  # as the start screen's n, set aside said yes
        assert server.remote_token is None  # the old code acts no more
        await app.board.open_remote(phone_remote(app).press)
        assert server.remote_token not in (None, first)
        await app.board.stop()
