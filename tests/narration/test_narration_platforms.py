"""Every laptop: the speech driver and the audio player chosen per platform.

The choices for macOS and Windows are checked here with fakes only (no such
machine in CI); NSSS and SAPI5 synthesis run over stand-in OS layers in
test_platform_drivers.py. UNTESTED for real are the system voices themselves,
afplay and winsound playback.
On Linux the real path runs in the other speech tests; the espeakng-loader
wheel's library is forced and checked for real below.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from audio_measures import peak
from event_recorders import Recorder

from moderator.narration import Finished, LineStarted, Notice, VoiceSettings, make_narrator
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.speech.platforms import (
    EngineSetup,
    driver_for,
    engine_setup,
    loader_library,
    player_command,
)
from moderator.narration.speech.players import CommandPlayer, WinsoundPlayer, platform_player
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer


@pytest.mark.parametrize(
    ("system", "driver"),
    [("linux", "espeak"), ("darwin", "nsss"), ("win32", "sapi5"), ("freebsd14", "espeak")],
)
def test_the_driver_is_the_platforms_own(system: str, driver: str) -> None:
    assert driver_for(system) == driver


def test_the_espeak_library_is_checked_only_where_espeak_drives() -> None:
    nowhere = ["libmindflayer-no-such-lib.so.1"]
    assert engine_setup("darwin", nowhere, loader=lambda: None) == EngineSetup("nsss")
    assert engine_setup("win32", nowhere, loader=lambda: None) == EngineSetup("sapi5")
    linux = engine_setup("linux", nowhere, loader=lambda: None)
    assert linux.fault is not None and linux.fault.part == "library"


def test_linux_without_the_system_library_uses_the_loader_wheel() -> None:
    setup = engine_setup(
        "linux", ["libmindflayer-no-such-lib.so.1"], loader=lambda: ("/w/lib.so", "/w/data")
    )
    assert setup == EngineSetup("espeak", "/w/lib.so", "/w/data")
    assert setup.worker_arguments() == [
        "--driver",
        "espeak",
        "--library",
        "/w/lib.so",
        "--data",
        "/w/data",
    ]


def _which(*present: str):  # type: ignore[no-untyped-def]
    return lambda name: f"/usr/bin/{name}" if name in present else None


@pytest.mark.parametrize(
    ("present", "expected"),
    [
        (("aplay", "pw-play", "paplay"), ["aplay", "-q"]),
        (("pw-play", "paplay"), ["pw-play"]),
        (("paplay",), ["paplay"]),
        ((), ["aplay", "-q"]),  # none: aplay, reported missing by the player
    ],
)
def test_linux_players_in_order(present: tuple[str, ...], expected: list[str]) -> None:
    assert player_command("linux", _which(*present)) == expected


def test_macos_plays_with_afplay_and_windows_with_winsound() -> None:
    assert player_command("darwin", _which()) == ["afplay"]
    assert player_command("win32", _which("aplay")) is None
    assert isinstance(platform_player("win32"), WinsoundPlayer)
    mac = platform_player("darwin", _which())
    assert isinstance(mac, CommandPlayer)
    fault = mac.available()  # no afplay on this machine
    assert (fault is None) == (sys.platform == "darwin")


class FakeWinsound(types.ModuleType):
    """Records PlaySound calls as Windows' winsound would receive them."""

    SND_FILENAME = 0x20000
    SND_ASYNC = 0x1

    def __init__(self) -> None:
        super().__init__("winsound")
        self.calls: list[tuple[object, int]] = []

    def PlaySound(self, sound: object, flags: int) -> None:
        self.calls.append((sound, flags))


def test_winsound_player_plays_async_and_stops_at_once(tmp_path: Path) -> None:
    sound = FakeWinsound()
    player = WinsoundPlayer(sound)
    assert player.available() is None
    started: list[bool] = []
    clip = tmp_path / "line.wav"
    player.play(clip, 0.05, lambda: started.append(True))
    assert started == [True]
    assert sound.calls == [(str(clip), FakeWinsound.SND_FILENAME | FakeWinsound.SND_ASYNC)]
    player.stop()
    assert sound.calls[-1] == (None, 0)


def test_winsound_is_missing_off_windows() -> None:
    if sys.platform == "win32":
        pytest.skip("winsound exists here")
    fault = WinsoundPlayer().available()
    assert fault is not None and fault.part == "player"


@pytest.fixture
def loader_speaker(speech: None, tmp_path: Path) -> Iterator[Pyttsx3Synthesizer]:
    found = loader_library()
    if found is None:
        pytest.fail("espeakng-loader is a Linux dependency of the app: it must be installed")
    engine = engine_setup("linux", prefer_loader=True)
    assert (engine.library, engine.data) == found
    speaker = Pyttsx3Synthesizer(tmp_path / "cache", engine=engine)
    yield speaker
    speaker.close()


@pytest.mark.speech
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the wheel path is for Linux")
def test_the_loader_wheels_library_speaks_for_real(
    loader_speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    """A fresh desktop without libespeak-ng1: the wheel's library renders real audio."""
    library = loader_speaker.on_owner(
        lambda: loader_speaker.child(loader_speaker.warm_up_voice).library, timeout=20
    )
    assert library is not None
    assert Path(library).resolve() == Path(loader_speaker.engine.library or "").resolve()
    out = tmp_path / "reveal.wav"
    render_script(ScriptLibrary.load(None), loader_speaker, "reveal", {}, VoiceSettings(), out)
    pcm = read_pcm(out)
    assert pcm.rate == 22050
    assert peak(pcm) > 3000
    assert pcm.duration > 10  # 3 s + 5 s + 2 s of pauses plus four lines


@pytest.mark.speech
def test_a_user_voice_the_engine_lacks_is_told_once_and_the_shipped_one_speaks(
    playback: None, null_sound_home: Path, tmp_path: Path
) -> None:
    user = tmp_path / "scripts" / "fr"
    user.mkdir(parents=True)
    (user / "language.toml").write_text('name = "Français"\nvoice = "frr"\n', "utf-8")
    narrator = make_narrator(VoiceSettings(lang="fr"), tmp_path / "scripts", tmp_path / "cache")
    first, second = Recorder(), Recorder()
    narrator.play("turn", {"player": "Max"}, first)
    assert first.wait(30)
    narrator.play("turn", {"player": "Lucas"}, second)
    assert second.wait(30)
    narrator.close()
    told = [m for m in narrator.warnings if "'frr'" in m]
    assert len(told) == 1 and "Using the shipped voice 'fr'" in told[0], narrator.warnings
    assert [n.message for n in first.of(Notice)] == told
    assert second.of(Notice) == []
    assert first.of(LineStarted) == [LineStarted("Max, à toi de jouer.")]
    assert second.of(Finished) == [Finished(cancelled=False)]
    probe = Pyttsx3Synthesizer(tmp_path / "cache", warm=False)
    rate = VoiceSettings().rate
    assert probe.cache_path("Lucas, à toi de jouer.", "fr", rate, 1.0).is_file()  # French voice
    assert not probe.cache_path("Lucas, à toi de jouer.", "en-us", rate, 1.0).exists()
    probe.close()
