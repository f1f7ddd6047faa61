"""Windows and macOS speech without the machines: the real path over stand-in OS layers.

Each test runs the app's own synthesis path (Pyttsx3Synthesizer, its child process,
`synth_worker`, pyttsx3's real `sapi5` or `nsss` driver module) on top of a
stand-in COM or PyObjC layer (see `standins`), which fakes only the operating
system's objects, as documented. Two Windows bugs of pyttsx3 2.99 are
reproduced here: `save_to_file` never sends `finished-utterance`, and a voice
whose Language is "409;9" crashes the voice list (upstream #429).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from audio_measures import peak
from standins import WORLD_ENV, cocoa, sapi, save_world, worker_command

from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.speech.platforms import EngineSetup
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import Clip, SpeechFault

ZIRA = sapi.VoiceSpec(
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\TTS_MS_EN-US_ZIRA_11.0",
    "Microsoft Zira Desktop - English (United States)",
    "409",
)
DAVID = sapi.VoiceSpec(
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\TTS_MS_EN-US_DAVID_11.0",
    "Microsoft David Desktop - English (United States)",
    "409",
    gender="Male",
)
HAZEL = sapi.VoiceSpec(
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\TTS_MS_EN-GB_HAZEL_11.0",
    "Microsoft Hazel Desktop - English (Great Britain)",
    "809",
)
HORTENSE = sapi.VoiceSpec(
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\TTS_MS_FR-FR_HORTENSE_11.0",
    "Microsoft Hortense Desktop - French",
    "40C",
)
#: A voice added by an adapter (NaturalVoiceSAPIAdapter): en-US, then neutral English.
ARIA = sapi.VoiceSpec("HKEY_CURRENT_USER\\...\\Tokens\\Aria", "Microsoft Aria (Natural)", "409;9")

SAMANTHA = cocoa.VoiceSpec("com.apple.voice.compact.en-US.Samantha", "Samantha", "en_US")
DANIEL = cocoa.VoiceSpec("com.apple.voice.compact.en-GB.Daniel", "Daniel", "en_GB")
ZARVOX = cocoa.VoiceSpec("com.apple.speech.synthesis.voice.Zarvox", "Zarvox", "en_US")
THOMAS = cocoa.VoiceSpec("com.apple.voice.compact.fr-FR.Thomas", "Thomas", "fr_FR")

#: Makes a speaker over a stand-in machine (None: the driver's packages are missing).
MachineFactory = Callable[[sapi.World | cocoa.World | None, str], Pyttsx3Synthesizer]
LINES = ["Everyone, close your eyes.", "Possessed, open your eyes.", "Everyone, open your eyes."]


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MachineFactory]:
    """Speakers over a stand-in machine; each is closed at the end."""
    made: list[Pyttsx3Synthesizer] = []

    def make(world: sapi.World | cocoa.World | None, driver: str) -> Pyttsx3Synthesizer:
        world_file = tmp_path / "world.json"
        if world is None:  # the driver's Python packages are not installed
            world_file.write_text(json.dumps({"kind": "none"}), encoding="utf-8")
        else:
            world.record = str(tmp_path / "record.jsonl")
            save_world(world, world_file)
        monkeypatch.setenv(WORLD_ENV, str(world_file))
        speaker = Pyttsx3Synthesizer(
            tmp_path / "cache",
            worker_command=worker_command(),
            engine=EngineSetup(driver),
            warm=False,
            start_timeout=30.0,
            synth_timeout=30.0,
        )
        made.append(speaker)
        return speaker

    yield make
    for speaker in made:
        speaker.close()


def _records(tmp_path: Path) -> list[list[object]]:
    path = tmp_path / "record.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines]


def _speak(speaker: Pyttsx3Synthesizer, text: str, voice: str = "en-us") -> Clip:
    return speaker.synthesize(text, voice, 160, 1.0).result(timeout=60)


def _fault(speaker: Pyttsx3Synthesizer, text: str, voice: str = "en-us") -> SpeechFault:
    error = speaker.synthesize(text, voice, 160, 1.0).exception(timeout=60)
    assert isinstance(error, SpeechFault), error
    return error


# -- Windows -----------------------------------------------------------------


def test_windows_speaks_lines_although_sapi5_never_sends_finished_utterance(
    machine: MachineFactory, tmp_path: Path
) -> None:
    """pyttsx3's save_to_file Speaks synchronously and never says it finished: the call is it."""
    speaker = machine(sapi.World([ZIRA]), "sapi5")
    clips = [_speak(speaker, line) for line in LINES]
    for clip, line in zip(clips, LINES, strict=True):
        assert clip.path is not None and clip.text == line
        pcm = read_pcm(clip.path)
        assert pcm.rate == 22050 and peak(pcm) > 3000
        # four words at 0.3 s each, a little faster at SAPI Rate 0..1 (160 wpm)
        assert 0.9 < clip.duration < 1.3, clip.duration
    assert [(text, voice) for text, _flags, voice in _records(tmp_path)][-3:] == [
        (line, ZIRA.id) for line in LINES
    ]


def test_a_voice_with_several_languages_does_not_silence_windows(
    machine: MachineFactory, tmp_path: Path
) -> None:
    """Language "409;9" (upstream #429) is read as en-US, the first of its languages.

    A token whose attributes cannot be read (a damaged registry entry) does not
    take the other voices down either.
    """
    damaged = sapi.VoiceSpec("HKEY_LOCAL_MACHINE\\...\\Tokens\\Broken", "Broken", "damaged")
    speaker = machine(sapi.World([HAZEL, ARIA, damaged, HORTENSE], default_voice=0), "sapi5")
    clip = _speak(speaker, LINES[0])
    assert clip.path is not None
    assert _records(tmp_path)[-1][2] == ARIA.id
    voices = {voice["id"]: voice["languages"] for voice in speaker.voices()}
    assert voices == {
        HAZEL.id: ["en-GB"],
        ARIA.id: ["en-US", "en"],
        damaged.id: [],  # a token whose attributes raise is listed, without a language
        HORTENSE.id: ["fr-FR"],
    }


@pytest.mark.parametrize(
    ("wanted", "chosen"),
    [("en-us", DAVID), ("en", DAVID), ("en-gb", HAZEL), ("fr", HORTENSE)],
)
def test_windows_picks_the_voice_by_language_and_region(
    machine: MachineFactory, tmp_path: Path, wanted: str, chosen: sapi.VoiceSpec
) -> None:
    """en-US before en-GB for "en"; the system's default voice first among equals."""
    world = sapi.World([HAZEL, ZIRA, DAVID, HORTENSE], default_voice=2)
    speaker = machine(world, "sapi5")
    _speak(speaker, "Max, it is your turn.", wanted)
    assert _records(tmp_path)[-1][2] == chosen.id


def test_windows_writes_extensible_wav_headers_and_other_rates(
    machine: MachineFactory,
) -> None:
    """A 48 kHz file with a WAVE_FORMAT_EXTENSIBLE header is read (Python 3.11 refuses it)."""
    speaker = machine(sapi.World([ZIRA], file_format=38, extensible=True), "sapi5")
    clip = _speak(speaker, LINES[1])
    assert clip.path is not None
    pcm = read_pcm(clip.path)
    assert pcm.rate == 48000 and peak(pcm) > 3000 and 0.9 < clip.duration < 1.3


def test_a_windows_language_without_a_voice_names_the_windows_remedy(
    machine: MachineFactory,
) -> None:
    speaker = machine(sapi.World([ZIRA]), "sapi5")
    fault = _fault(speaker, "Max, à toi de jouer.", "fr")
    assert fault.part == "voice:fr"
    assert "Windows" in fault.message and "apt-get" not in fault.message, fault.message


@pytest.mark.parametrize(("driver", "remedy"), [("sapi5", "comtypes"), ("nsss", "pyobjc")])
def test_missing_platform_packages_name_the_platforms_own_remedy(
    machine: MachineFactory, driver: str, remedy: str
) -> None:
    speaker = machine(None, driver)
    fault = _fault(speaker, LINES[0])
    assert fault.part == "library" and fault.permanent
    assert remedy in fault.message, fault.message
    assert "apt-get" not in fault.message and "espeak" not in fault.message, fault.message


def test_a_stuck_engine_is_not_reported_as_a_missing_library(machine: MachineFactory) -> None:
    """The child's own time bound (a TimeoutError, an OSError) used to read as "library"."""
    speaker = machine(cocoa.World([SAMANTHA], stalls=True), "nsss")
    fault = _fault(speaker, LINES[0])
    assert fault.part == "engine" and fault.permanent, fault.message
    assert "did not finish the line" in fault.message
    assert "Spoken Content" in fault.message and "pyobjc" not in fault.message, fault.message


# -- macOS -------------------------------------------------------------------


def test_macos_speaks_lines_in_a_row_at_full_length(
    machine: MachineFactory, tmp_path: Path
) -> None:
    """NSSS writes AIFF asynchronously; each line is whole and converted to WAV here."""
    speaker = machine(cocoa.World([SAMANTHA]), "nsss")
    clips = [_speak(speaker, line) for line in LINES]
    for clip in clips:
        assert clip.path is not None
        pcm = read_pcm(clip.path)
        assert pcm.rate == 22050 and peak(pcm) > 3000
        assert abs(clip.duration - 4 * 60 / 160) < 0.05, clip.duration  # four words at 160 wpm
    records = _records(tmp_path)[-3:]
    assert [(text, voice, done) for text, voice, _s, done in records] == [
        (line, SAMANTHA.id, True) for line in LINES
    ]


def test_macos_stereo_aiff_at_another_rate_is_read(machine: MachineFactory) -> None:
    speaker = machine(cocoa.World([SAMANTHA], sample_rate=44100, channels=2), "nsss")
    clip = _speak(speaker, LINES[2])
    assert clip.path is not None
    pcm = read_pcm(clip.path)
    assert pcm.rate == 44100 and abs(clip.duration - 1.5) < 0.05


@pytest.mark.parametrize(
    ("wanted", "chosen"),
    [("en-us", SAMANTHA), ("en", SAMANTHA), ("en-gb", DANIEL), ("fr", THOMAS)],
)
def test_macos_picks_the_voice_by_locale(
    machine: MachineFactory, tmp_path: Path, wanted: str, chosen: cocoa.VoiceSpec
) -> None:
    """Region counts, and Apple's standard voices come before its novelty ones."""
    world = cocoa.World([ZARVOX, DANIEL, SAMANTHA, THOMAS], default_voice=1)
    speaker = machine(world, "nsss")
    _speak(speaker, "Max, it is your turn.", wanted)
    assert _records(tmp_path)[-1][1] == chosen.id
