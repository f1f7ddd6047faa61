"""The start-up integrity check runs after the first frame and still repairs and tells."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from driving import key, until
from no_message_left import settled, toasts

from moderator.storage import database
from moderator.storage import store as store_module
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.choice import ChoiceList
from tests.storage.damage import corrupt_files
from tests.storage.test_storage_deferred_check import orphaned_page_database


async def test_the_integrity_check_runs_after_the_first_frame_and_salvages(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It ran in `Store.open`, before the first frame: ~0.5 s of it at 20,000 games."""
    original = orphaned_page_database(folders["data"])
    apps: list[MindFlayerApp] = []
    #: For each integrity check: was the start screen already on screen?
    after_first_frame: list[bool] = []
    check = database.integrity_problem

    def watched(conn: object) -> str | None:
        app = apps[0] if apps else None
        on_screen = app is not None and app.is_running and isinstance(app.screen, StartScreen)
        after_first_frame.append(on_screen and app is not None and app.screen.is_mounted)
        return check(conn)  # type: ignore[arg-type]

    monkeypatch.setattr(database, "integrity_problem", watched)
    monkeypatch.setattr(store_module, "integrity_problem", watched)
    app = app_factory()
    apps.append(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: any("damaged" in message for message in toasts(app)))
        await settled(pilot)
        assert after_first_frame and all(after_first_frame), after_first_frame
        (kept,) = corrupt_files(folders["data"])
        assert kept.read_bytes() == original
        (notice,) = [message for message in toasts(app) if "damaged" in message]
        assert "failed its integrity check" in notice and str(kept) in notice
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert "Its 1 game was recovered in full." in notice
        choices = screen.query_one("#start-choices", ChoiceList)
        assert choices.offers("start-resume"), "the salvaged game is there to resume"
        await key(pilot, "c")
        assert type(app.screen).__name__ == "TableScreen", "the table goes on, on the new file"


async def test_the_integrity_check_waits_for_the_start_up_to_settle(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """Started on the first refresh, its CPU delayed the start screen settling.

    bench/bench_history.py: the first frame at 20,000 games was 1.52x an empty
    database's. It starts with the voice, `DEFER_PAST_FIRST_FRAME` later, and still runs.
    """
    orphaned_page_database(folders["data"])
    #: For each first-frame callback: was a database check already started?
    started_on_first_frame: list[bool] = []
    app = app_factory()
    app.first_frame_observers.append(
        lambda: started_on_first_frame.append(any(w.name == "database-check" for w in app.workers))
    )
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: started_on_first_frame)
        assert started_on_first_frame == [False], "the check started on the first frame"
        try:
            await until(pilot, lambda: any("damaged" in message for message in toasts(app)))
        except AssertionError as error:  # once seen in a loaded full run: say what was there
            workers = [(worker.name, worker.state.name, worker.error) for worker in app.workers]
            raise AssertionError(f"{error}; toasts {toasts(app)}; workers {workers}") from None
        assert corrupt_files(folders["data"]), "the deferred check still moves a damaged file"


async def test_a_check_that_fails_unexpectedly_is_told(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug in the check must not pass in silence (Textual keeps a worker's error to itself)."""
    orphaned_page_database(folders["data"])

    def broken(conn: object) -> str | None:
        raise RuntimeError("a bug in the check")

    monkeypatch.setattr(store_module, "integrity_problem", broken)
    app = app_factory()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: any("could not be checked" in m for m in toasts(app)))
        (notice,) = [message for message in toasts(app) if "could not be checked" in message]
        assert notice == "The score database could not be checked (a bug in the check)."
        assert isinstance(app.screen, StartScreen), "the table goes on"
