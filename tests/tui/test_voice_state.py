"""Speech faults reach the table on every screen: a toast once, a marker in the header."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from controller_shortcuts import seated
from driving import key, until
from no_message_left import settled, toasts

from moderator.narration import (
    Clip,
    Finished,
    SilentSpeaker,
    SpeechFault,
    VoiceSettings,
    make_narrator,
)
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.title_bar import TitleBar
from tests.tui.app_driver import app_on

NO_DEVICE = "Could not play sound (aplay exited with code 1): is a sound card available?"


class NoSoundDevice(SilentSpeaker):
    """Real timing, but every clip fails to play as aplay does without a sound card."""

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        future: Future[Clip] = Future()
        future.set_result(Clip(text, 0.01, Path("line.wav")))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        on_start()
        raise SpeechFault("device", NO_DEVICE)


def _app(folders: dict[str, Path]):  # type: ignore[no-untyped-def]
    """The app on a narrator whose every clip fails to play, and that narrator."""
    narrator = make_narrator(VoiceSettings(), None, folders["cache"], NoSoundDevice(), 0.01)
    return narrator, app_on(folders, narrator)


def _finished(event: object, done: threading.Event) -> None:
    """A listener that sets `done` once its playback reports Finished."""
    if isinstance(event, Finished):
        done.set()


def _header(app) -> str:  # type: ignore[no-untyped-def]
    """The title line as drawn: the start screen's `TitleBar`, elsewhere the Header's title."""
    bars = app.screen.query(TitleBar)
    if bars:
        return str(bars.first().render())
    return str(app.screen.query_one("HeaderTitle").render())


async def test_a_fault_outside_any_screen_is_toasted_once_and_marked_everywhere(
    folders: dict[str, Path],
) -> None:
    narrator, app = _app(folders)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, StartScreen)
        assert "voice off" not in _header(app)
        # A script nobody shows (its listener drops every event), e.g. the setup read aloud.
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await until(pilot, lambda: "voice off: no sound device" in _header(app))
        messages = toasts(app)
        assert messages.count(NO_DEVICE) == 1
        await key(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert "voice off: no sound device" in _header(app)
        # The same fault again: no second toast, the marker stays.
        done = threading.Event()
        narrator.play("turn", {"player": "Max"}, lambda event: _finished(event, done))
        await until(pilot, done.is_set, "the second playback finished")  # its fault told first
        assert toasts(app).count(NO_DEVICE) == 1
        assert _header(app).count("no sound device") == 1


async def test_a_fault_known_at_start_is_marked_without_a_second_toast(
    folders: dict[str, Path],
) -> None:
    class NoPlayer(SilentSpeaker):
        def problems(self) -> list[SpeechFault]:
            return [SpeechFault("player", "No audio player found: install alsa-utils.")]

    narrator = make_narrator(VoiceSettings(), None, folders["cache"], NoPlayer(), 0.01)
    app = app_on(folders, narrator)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: "voice off: no audio player" in _header(app))
        messages = toasts(app)
        assert messages.count("No audio player found: install alsa-utils.") == 1


async def test_a_fault_during_the_reveal_is_toasted_once(folders: dict[str, Path]) -> None:
    """The reveal's playback reports the fault as a notice too: the app shows it once."""
    from moderator.tui.screens.reveal import RevealScreen

    _narrator, app = _app(folders)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await seated(pilot, ("Ann", "Bob", "Cy", "Dee", "Eve", "Fin"))
        reveal = app.screen
        assert isinstance(reveal, RevealScreen)
        await key(pilot, "enter")
        await until(pilot, lambda: "voice off: no sound device" in _header(app))
        # Its Notice comes before its Finished: once the reveal stops, both were handled.
        await until(pilot, lambda: not reveal.running, "the reveal finished")
        messages = toasts(app)
        assert messages.count(NO_DEVICE) == 1, messages


class DeviceBackOnce(NoSoundDevice):
    """The sound device fails the first clip, then works (unplugged, plugged back)."""

    def __init__(self) -> None:
        self.plays = 0

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        self.plays += 1
        if self.plays == 1:
            super().play(clip, on_start)
        on_start()


async def test_the_marker_goes_when_the_voice_works_again(folders: dict[str, Path]) -> None:
    narrator = make_narrator(VoiceSettings(), None, folders["cache"], DeviceBackOnce(), 0.01)
    app = app_on(folders, narrator)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot)
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await until(pilot, lambda: "voice off: no sound device" in _header(app))
        narrator.play("turn", {"player": "Max"}, lambda event: None)  # this clip plays
        await until(pilot, lambda: "voice off" not in _header(app))
        assert "·" not in app.title
