"""The game screens' notice strip: what its rows say, and that it follows the notices.

The newest notice is always shown in full; older ones still running fold into
the rows left, one each; a long notice makes the strip grow (never cut off),
and the strip keeps its two rows when empty, so the board does not jump.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from driving import FOUR, key, shown, until
from no_message_left import settled, toasts
from textual.notifications import Notification

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.notice_strip import MAX_ROWS, MIN_ROWS, notice_rows
from tests.tui.app_driver import TEN, at_the_table
from tests.tui.notices_drawn import keep_clear, strip_of, strip_text


def unmarked(rows: list[object]) -> list[str]:
    """The rows as plain text, marks removed."""
    return [str(row).removeprefix("▌ ") for row in rows]


def notice(message: str, severity: str = "information") -> Notification:
    return Notification(message, "", severity, 3)  # type: ignore[arg-type]


# --- the rows (pure) ---


def test_the_newest_notice_is_whole_and_the_one_before_folds_into_the_row_left() -> None:
    notices = [notice("Ann is knocked out."), notice("Bob is knocked out."), notice("Cy is out.")]
    assert unmarked(notice_rows(notices, 40)) == ["Bob is knocked out.", "Cy is out."]


def test_a_notice_of_two_rows_takes_both_and_an_older_one_is_not_shown() -> None:
    words = "Voice muted. " * 5
    rows = unmarked(notice_rows([notice("Ann is knocked out."), notice(words.strip())], 40))
    assert len(rows) == MIN_ROWS
    assert " ".join(row.strip() for row in rows) == words.strip()


def test_an_older_notice_too_long_for_its_row_is_cut_with_an_ellipsis() -> None:
    older = notice("The speech engine could not start: " + "espeak " * 10)
    rows = unmarked(notice_rows([older, notice("Voice on.")], 30))
    assert rows[0].endswith("…") and rows[1] == "Voice on."


def test_a_very_long_notice_takes_at_most_max_rows_and_says_it_was_cut() -> None:
    rows = unmarked(notice_rows([notice("word " * 80, "warning")], 40))
    assert len(rows) == MAX_ROWS
    assert rows[-1].endswith("…")


def test_nothing_running_draws_nothing() -> None:
    assert notice_rows([], 80) == []


# --- on the game screens ---


async def test_refusals_fold_into_one_counted_notice_in_the_strip(
    app_factory: Callable[..., MindFlayerApp], pinned_clock: float
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await at_the_table(pilot, FOUR)
        await key(pilot, "n", "u", "u", "u", "u")  # nothing to undo, three times over
        await until(pilot, lambda: "(×3)" in strip_text(app), "the folded refusal in the strip")
        assert strip_text(app).endswith("There is nothing to undo. (×3)")
        assert strip_text(app).count("nothing to undo") == 1


async def test_a_notice_raised_over_a_dialog_shows_in_the_strip_once_it_closes(
    app_factory: Callable[..., MindFlayerApp], pinned_clock: float
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await at_the_table(pilot, FOUR)
        await key(pilot, "question_mark")
        await until(pilot, lambda: not isinstance(app.screen, TableScreen), "the help open")
        app.notify("Raised over the help.", markup=False)
        await settled(pilot)
        await key(pilot, "escape")
        await shown(pilot, TableScreen)
        await until(pilot, lambda: "Raised over the help." in strip_text(app), "the notice")


async def test_a_long_notice_grows_the_strip_clear_of_the_tiles_and_it_shrinks_back(
    app_factory: Callable[..., MindFlayerApp], pinned_clock: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    long = "The voice script on line 3 of reveal.toml names no line to say, so it was skipped: " * 2
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await at_the_table(pilot, TEN)
        strip = strip_of(app)
        assert strip.size.height == MIN_ROWS
        app.notify(long.strip(), severity="warning", markup=False)
        await until(pilot, lambda: strip.size.height > MIN_ROWS, "the strip grown")
        keep_clear(app, long.strip())
        # The clock moves on past the notice's timeout: the strip empties to its two rows.
        monkeypatch.setattr("textual.notifications.time", lambda: pinned_clock + 3600)
        strip.follow(strip.notices)
        await until(pilot, lambda: strip.size.height == MIN_ROWS, "the strip back to two rows")
        assert strip_text(app) == ""


async def test_a_notice_leaves_the_strip_when_its_time_is_up(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await at_the_table(pilot, FOUR)
        strip = strip_of(app)
        app.notify("Short-lived.", markup=False, timeout=0.2)
        await until(pilot, lambda: any(n.message == "Short-lived." for n in strip.notices), "in")
        await until(pilot, lambda: strip.notices == (), "the notice gone by its own timer")
        assert strip.size.height == MIN_ROWS
        assert strip_text(app) == ""


async def test_with_notifications_off_the_strip_stays_empty(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_table(pilot, FOUR)
        app.notify("Not shown.", markup=False)
        await settled(pilot)
        assert "Not shown." in toasts(app)
        assert strip_of(app).notices == ()
