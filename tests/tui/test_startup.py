"""Start-up: the voice is built after the first frame, off the UI thread, and still warns."""

from __future__ import annotations

import argparse
import gc
import threading
from pathlib import Path

from driving import key, until
from no_message_left import toasts

from moderator.cli import pause_collector_for_start_up
from moderator.narration import SilentSpeaker, VoiceSettings, make_narrator
from moderator.storage import Store
from moderator.table.ports import NarratorLike
from moderator.table.voice import DeferredNarrator
from moderator.tui.run import run_app
from moderator.tui.screens.start import StartScreen
from tests.tui.app_driver import app_on


async def test_the_voice_is_built_after_the_first_frame_and_its_warnings_shown(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    scripts = tmp_path / "scripts" / "en"
    scripts.mkdir(parents=True)
    (scripts / "reveal.toml").write_text("[[step]]\nsay = 'Close {nothing}'\n", encoding="utf-8")
    built_on: list[threading.Thread] = []

    def build() -> NarratorLike:
        built_on.append(threading.current_thread())
        return make_narrator(
            VoiceSettings(enabled=False),
            tmp_path / "scripts",
            folders["cache"],
            speaker=SilentSpeaker(),
            time_scale=0.01,
        )

    narrator = DeferredNarrator(build)
    app = app_on(folders, narrator)
    assert not narrator.built, "building the app must not build the voice"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        assert isinstance(app.screen, StartScreen)
        await until(pilot, lambda: any("reveal.toml" in message for message in toasts(app)))
        assert built_on and built_on[0] is not threading.main_thread()
        await key(pilot, "v")  # mute reaches the built narrator
        assert narrator.ready().settings.enabled is False  # type: ignore[attr-defined]


def test_settings_and_close_before_the_build_reach_the_narrator(tmp_path: Path) -> None:
    narrator = DeferredNarrator(
        lambda: make_narrator(
            VoiceSettings(), None, tmp_path / "cache", speaker=SilentSpeaker(), time_scale=0.01
        )
    )
    narrator.cancel()  # nothing to silence yet: nothing is built
    narrator.update_settings(VoiceSettings(rate=210))
    assert not narrator.built
    assert narrator.ready().settings.rate == 210  # type: ignore[attr-defined]
    narrator.close()


async def test_the_collector_paused_for_the_start_up_resumes_frozen_after_the_first_frame(
    folders: dict[str, Path],
) -> None:
    """As `mindflayer` starts: the collector paused, then on again with start-up objects frozen."""
    narrator = make_narrator(
        VoiceSettings(enabled=False), None, folders["cache"], speaker=SilentSpeaker()
    )
    app = app_on(folders, narrator)
    # Read at the first frame itself, not after a pause: on a loaded machine one
    # `pilot.pause()` can outlast the half second after which the collector resumes.
    at_first_frame: list[bool] = []
    app.first_frame_observers.append(lambda: at_first_frame.append(gc.isenabled()))
    pause_collector_for_start_up()
    try:
        assert not gc.isenabled()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, gc.isenabled)
            assert isinstance(app.screen, StartScreen)
            assert at_first_frame == [False], "resumed before the first frame had settled"
            assert gc.get_freeze_count() > 10_000  # what the start-up loaded, frozen
            await key(pilot, "n")  # the app goes on as usual
            assert type(app.screen).__name__ == "SetupScreen"
    finally:
        gc.unfreeze()  # the test process's objects go back to the collector
        gc.enable()


def test_run_app_resumes_the_collector_when_the_app_cannot_start(
    folders: dict[str, Path],
) -> None:
    pause_collector_for_start_up()
    try:
        with Store.open(folders["data"]):  # the database in use: the app cannot start
            code = run_app(argparse.Namespace(data_dir=str(folders["data"]), voice_scripts=None))
        assert code != 0
        assert gc.isenabled()
    finally:
        gc.enable()
