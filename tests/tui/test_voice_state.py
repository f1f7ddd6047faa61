"""Speech faults reach the table on every screen: a toast once, a marker in the header."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from textual.widgets._header import HeaderTitle

from moderator.narration import Clip, SilentSpeaker, SpeechFault, VoiceSettings, make_narrator
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.title_bar import TitleBar
from tests.tui.helpers import app_on, key, wait_for

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


def _header(app) -> str:  # type: ignore[no-untyped-def]
    """The title line as drawn: the start screen's `TitleBar`, elsewhere the Header's title."""
    bars = app.screen.query(TitleBar)
    if bars:
        return str(bars.first().render())
    return str(app.screen.query_one(HeaderTitle).render())


async def test_a_fault_outside_any_screen_is_toasted_once_and_marked_everywhere(
    folders: dict[str, Path],
) -> None:
    narrator, app = _app(folders)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "voice off" not in _header(app)
        # A script nobody shows (its listener drops every event), e.g. the setup read aloud.
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await wait_for(pilot, lambda: "voice off: no sound device" in _header(app))
        toasts = [n.message for n in app._notifications]
        assert toasts.count(NO_DEVICE) == 1
        await key(pilot, "n")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert "voice off: no sound device" in _header(app)
        # The same fault again: no second toast, the marker stays.
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await pilot.pause(0.2)
        assert [n.message for n in app._notifications].count(NO_DEVICE) == 1
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
        await wait_for(pilot, lambda: "voice off: no audio player" in _header(app))
        toasts = [n.message for n in app._notifications]
        assert toasts.count("No audio player found: install alsa-utils.") == 1


async def test_a_fault_during_the_reveal_is_toasted_once(folders: dict[str, Path]) -> None:
    """The reveal's playback reports the fault as a notice too: the app shows it once."""
    from moderator.tui.screens.reveal import RevealScreen
    from tests.tui.helpers import new_game

    _narrator, app = _app(folders)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await new_game(pilot, ("Ann", "Bob", "Cy", "Dee", "Eve", "Fin"))
        assert isinstance(app.screen, RevealScreen)
        await key(pilot, "enter")
        await wait_for(pilot, lambda: "voice off: no sound device" in _header(app))
        await pilot.pause(0.3)
        toasts = [n.message for n in app._notifications]
        assert toasts.count(NO_DEVICE) == 1, toasts


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
        await pilot.pause()
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await wait_for(pilot, lambda: "voice off: no sound device" in _header(app))
        narrator.play("turn", {"player": "Max"}, lambda event: None)  # this clip plays
        await wait_for(pilot, lambda: "voice off" not in _header(app))
        assert "·" not in app.title
