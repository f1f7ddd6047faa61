"""The voice's troubles in the table's language (issue 18): the toast, the header, the reveal.

A German table on a laptop without a sound card was told, in English, "voice
off: no sound device (aplay exited with code 1 after 0.0 s). Is a sound card
or PulseAudio available?..." in a toast, kept "voice off: no sound device" in
its header for the whole evening, and read "ambience" under the eyes-closed
reveal. Each sentence the voice's parts make (the player, the speech engine,
the neural voice, each platform's remedy) is now a msgid translated when it is
made, in the table's language then. Here the real audio player code runs a
stand-in `aplay` that fails as aplay does without a sound card (exit 1); the
English sentences are what they always were (tests/tui/test_voice_state.py,
tests/narration/test_narration_remedies.py).
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest
from driving import key, until
from no_message_left import record_toasts, settled, toasts

from moderator import i18n
from moderator.narration import Clip, SilentSpeaker, SpeechFault, VoiceSettings, make_narrator
from moderator.narration.events import marker_for
from moderator.narration.narrator import Narrator
from moderator.narration.speech.engines import fallback_fault
from moderator.narration.speech.platforms import engine_check, library_missing, voice_missing
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.remedies import player_missing, sound_check
from moderator.tui.app import MindFlayerApp
from moderator.tui.run import make_app
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from tests.tui.app_driver import at_the_reveal
from tests.tui.english_words import english_on

#: The header's marker and the toast's first words when the player finds no sound card.
NO_DEVICE = {
    "fr": (
        "voix coupée : pas de sortie son",
        "voix coupée : pas de sortie son (aplay s'est arrêté",
    ),
    "de": ("Stimme aus: kein Audiogerät", "Stimme aus: kein Audiogerät (aplay endete nach"),
    "es": (
        "voz apagada: sin dispositivo de sonido",
        "voz apagada: sin dispositivo de sonido (aplay",
    ),
}
#: How long the player ran, with the language's decimal mark.
RAN_FOR = {"fr": r"après \d+,\d s\)", "de": r"nach \d+,\d s mit", "es": r"tras \d+,\d s\)"}
#: The reveal's marker when the ambience bed cannot be heard.
UNHEARD = {
    "fr": "♪ ambiance sans son : les bruits de la table ne sont pas couverts",
    "de": "♪ Klangteppich ohne Ton: Die Geräusche am Tisch werden nicht überdeckt",
    "es": "♪ ambiente sin sonido: los ruidos de la mesa no se tapan",
}


def stand_in_aplay(folder: Path) -> Path:
    """An `aplay` that fails as the real one does on a laptop without a sound card."""
    player = folder / "aplay"
    player.write_text("#!/bin/sh\necho 'aplay: main:831: audio open error' >&2\nexit 1\n")
    player.chmod(player.stat().st_mode | stat.S_IXUSR)
    return player


class NoSoundCard(SilentSpeaker):
    """Captions' timing, every clip played by the real player code on the stand-in aplay."""

    def __init__(self, player: Path, clip: Path) -> None:
        self._player = CommandPlayer((str(player), "-q"), system="linux")
        self._clip = clip

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        future: Future[Clip] = Future()
        future.set_result(Clip(text, 0.01, self._clip))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        assert clip.path is not None
        self._player.play(clip.path, clip.duration, on_start)


def _app(
    folders: dict[str, Path], lang: str, tmp_path: Path, time_scale: float
) -> tuple[MindFlayerApp, Narrator]:
    """The real app in `lang`, its voice failing on the stand-in aplay; and its narrator."""
    clip = tmp_path / "line.wav"
    clip.write_bytes(b"")
    speaker = NoSoundCard(stand_in_aplay(tmp_path), clip)
    narrator = make_narrator(VoiceSettings(), None, folders["cache"], speaker, time_scale)
    app = make_app(folders["data"], folders["config"], folders["cache"], None, narrator, lang=lang)
    record_toasts(app)
    return app, narrator


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
async def test_no_sound_card_is_told_and_marked_in_the_tables_language(
    folders: dict[str, Path], tmp_path: Path, lang: str
) -> None:
    app, narrator = _app(folders, lang, tmp_path, 0.01)
    marker, toast_start = NO_DEVICE[lang]
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot)
        narrator.play("turn", {"player": "Max"}, lambda event: None)
        await until(pilot, lambda: marker in app.title)
        told = [message for message in toasts(app) if message.startswith(toast_start)]
        assert len(told) == 1, toasts(app)
        assert english_on(told[0], lang) == {}, told[0]
        assert re.search(RAN_FOR[lang], told[0]), told[0]
        assert english_on(app.title, lang) == {}, app.title


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
async def test_the_reveal_says_its_ambience_is_unheard_in_the_tables_language(
    folders: dict[str, Path], tmp_path: Path, lang: str
) -> None:
    app, _narrator = _app(folders, lang, tmp_path, 1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot)
        marker = screen.query_one(AmbienceMarker)
        await key(pilot, "enter")
        await until(pilot, lambda: marker.display and str(marker.render()) == UNHEARD[lang])
        await key(pilot, "escape")


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
@pytest.mark.parametrize(
    ("system", "driver"), [("linux", "espeak"), ("darwin", "nsss"), ("win32", "sapi5")]
)
def test_each_platforms_remedy_is_in_the_tables_language(
    lang: str, system: str, driver: str
) -> None:
    english = [
        player_missing(system),
        sound_check(system),
        library_missing(driver),
        engine_check(driver),
        voice_missing(driver, "Anna"),
    ]
    i18n.use_language(lang)
    translated = [
        player_missing(system),
        sound_check(system),
        library_missing(driver),
        engine_check(driver),
        voice_missing(driver, "Anna"),
    ]
    for before, after in zip(english, translated, strict=True):
        assert after != before
        assert english_on(after, lang) == {}, after
    assert "'Anna'" in translated[-1]


@pytest.mark.parametrize(
    "part",
    [
        "device",
        "player",
        "player-hang",
        "library",
        "engine",
        "synthesis",
        "cache",
        "voice:x",
        "else",
    ],
)
def test_every_marker_is_in_german(part: str) -> None:
    english = marker_for(part)
    i18n.use_language("de")
    assert marker_for(part) != english
    assert english_on(marker_for(part), "de") == {}


def test_the_neural_voices_fallback_is_told_once_in_the_tables_language() -> None:
    i18n.use_language("de")
    told_already = SpeechFault(
        "neural",
        i18n._(
            "The neural voice could not start ({error}); the system voice speaks instead."
        ).format(error="kaputt"),
        says_fallback=True,
    )
    assert fallback_fault(told_already).message == told_already.message
    other = fallback_fault(SpeechFault("neural", "Die neuronale Stimme ist gescheitert (kaputt)."))
    assert other.message == (
        "Die neuronale Stimme ist gescheitert (kaputt); "
        "Englisch spricht stattdessen die Systemstimme."
    )
    assert fallback_fault(other).message == other.message, "never told twice"
