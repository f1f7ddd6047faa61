"""A stand-in for Windows' COM layer under SAPI 5, so pyttsx3's real `sapi5` driver runs here.

Only the operating system's objects are faked; pyttsx3's own driver module is
imported and runs unchanged on top of them. What is modelled is what
Microsoft documents for the automation objects the driver uses:

- `SpVoice.Speak(text, flags)`: with `SVSFDefault` (0) the call is
  synchronous, "the method does not return until the text has been spoken"
  (here: written to `AudioOutputStream`); with `SVSFlagsAsync` (1) it returns
  at once. It returns the stream number (1 for a lone request).
- Events (`StartStream`, `Word`, `EndStream` of `ISpeechVoiceEvents`) are
  queued to the speaking thread's message queue and reach the sink that
  `comtypes.client.GetEvents` connected only when that thread pumps messages
  (`pythoncom.PumpWaitingMessages`), filtered by `EventInterests`.
- `SpFileStream.Open(name, SSFMCreateForWrite)` creates a WAV file; the RIFF
  sizes are right only after `Close`. `Format.Type` picks the PCM format
  (default 22 kHz 16-bit mono); a stand-in option writes the
  WAVE_FORMAT_EXTENSIBLE header that some platform writers use.
- Voice tokens: `Id`, `GetDescription()`, `GetAttribute(name)` ("" when the
  token has no such attribute). `Language` holds hexadecimal LCIDs, possibly
  several separated by ";" ("409;9": en-US, then neutral English).
- comtypes: interfaces generated from a type library are case-insensitive
  (`_case_insensitive_`), so `stream.close()` reaches `Close`; the
  `comtypes.gen.SpeechLib` wrapper exists only after the first CreateObject.

`install(world)` puts the stand-in modules into `sys.modules`.
"""

from __future__ import annotations

import json
import math
import struct
import sys
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SVSF_ASYNC = 1
SVSF_PURGE_BEFORE_SPEAK = 2
SSFM_CREATE_FOR_WRITE = 3
#: SpeechVoiceEvents bits (SVEStartInputStream, SVEEndInputStream, SVEWordBoundary).
SVE_START_STREAM = 2
SVE_END_STREAM = 4
SVE_WORD = 32
#: SpeechAudioFormatType: 22 kHz 16-bit mono is SAFT22kHz16BitMono.
FORMATS = {
    22: (22050, 16, 1),
    23: (22050, 16, 2),
    18: (16000, 16, 1),
    34: (44100, 16, 1),
    38: (48000, 16, 1),
}
KSDATAFORMAT_SUBTYPE_PCM = bytes.fromhex("0100000000001000800000aa00389b71")


@dataclass
class VoiceSpec:
    """One installed voice, as its registry token describes it."""

    id: str
    name: str
    language: str
    gender: str = "Female"
    age: str = "Adult"


@dataclass
class World:
    """What this pretend Windows machine has installed and how it behaves."""

    voices: list[VoiceSpec]
    default_voice: int = 0
    file_format: int = 22
    extensible: bool = False
    #: A file that gets one JSON line per Speak call (text, flags, voice), for a test to read.
    record: str | None = None
    #: Every Speak call as (text, flags, voice id), in this process.
    spoken: list[tuple[str, int, str]] = field(default_factory=list)


class CaseInsensitive:
    """comtypes' `_case_insensitive_` interfaces: any spelling of a member reaches it."""

    def __getattr__(self, name: str) -> Any:
        for member in dir(type(self)):
            if member.lower() == name.lower():
                return getattr(self, member)
        raise AttributeError(name)


class MessageQueue:
    """One thread's window-message queue: events wait here until the thread pumps."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _queue(self) -> list[Callable[[], None]]:
        if not hasattr(self._local, "queue"):
            self._local.queue = []
        queue: list[Callable[[], None]] = self._local.queue
        return queue

    def post(self, message: Callable[[], None]) -> None:
        self._queue().append(message)

    def pump(self) -> int:
        queue = self._queue()
        while queue:
            queue.pop(0)()
        return 0


MESSAGES = MessageQueue()


class Token(CaseInsensitive):
    """An SpObjectToken for one voice."""

    def __init__(self, spec: VoiceSpec) -> None:
        self.spec = spec

    @property
    def Id(self) -> str:
        return self.spec.id

    def GetDescription(self, locale: int = 0) -> str:
        return self.spec.name

    def GetAttribute(self, name: str) -> str:
        if self.spec.language == "damaged":  # a broken registry entry: COM raises
            raise OSError(-2147200966, "SPERR_NOT_FOUND")
        return {"Language": self.spec.language, "Gender": self.spec.gender}.get(
            name, self.spec.age if name == "Age" else ""
        )


class Tokens(CaseInsensitive):
    """ISpeechObjectTokens: a collection with Count, Item(i) and iteration."""

    def __init__(self, tokens: list[Token]) -> None:
        self._tokens = tokens

    @property
    def Count(self) -> int:
        return len(self._tokens)

    def Item(self, index: int) -> Token:
        return self._tokens[index]

    def __iter__(self) -> Any:
        return iter(self._tokens)


class AudioFormat(CaseInsensitive):
    """SpAudioFormat: Type is a SpeechAudioFormatType."""

    def __init__(self, kind: int) -> None:
        self.Type = kind


class FileStream(CaseInsensitive):
    """SpFileStream writing a WAV; the header sizes are filled in at Close."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.Format = AudioFormat(world.file_format)
        self._file: Any = None
        self._data = 0

    def Open(self, name: str, mode: int = 0, do_events: bool = False) -> None:
        if mode != SSFM_CREATE_FOR_WRITE:
            raise OSError("the stand-in writes files only")
        self._file = open(name, "wb")  # noqa: SIM115 - closed by Close, like the COM object
        self._file.write(self._header(0))

    def write_samples(self, samples: bytes) -> None:
        self._file.write(samples)
        self._data += len(samples)

    @property
    def wave_format(self) -> tuple[int, int, int]:
        return FORMATS[self.Format.Type]

    def _header(self, data_size: int) -> bytes:
        rate, bits, channels = self.wave_format
        align = channels * bits // 8
        common = struct.pack("<HIIHH", channels, rate, rate * align, align, bits)
        if self._world.extensible:
            mask = 0x4 if channels == 1 else 0x3
            fmt = struct.pack("<H", 0xFFFE) + common
            fmt += struct.pack("<HHI", 22, bits, mask) + KSDATAFORMAT_SUBTYPE_PCM
        else:
            fmt = struct.pack("<H", 1) + common + struct.pack("<H", 0)  # WAVEFORMATEX, cbSize 0
        chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt
        chunks += b"data" + struct.pack("<I", data_size)
        return b"RIFF" + struct.pack("<I", 4 + len(chunks) + data_size) + b"WAVE" + chunks

    def Close(self) -> None:
        if self._file is None:
            return
        self._file.seek(0)
        self._file.write(self._header(self._data))
        self._file.close()
        self._file = None


class SpeakerOut(CaseInsensitive):
    """SpMMAudioOut, the sound card: audio sent here is simply played."""

    wave_format = FORMATS[22]

    def write_samples(self, samples: bytes) -> None:
        pass


def tone(words: int, rate: int, wave_format: tuple[int, int, int]) -> bytes:
    """A voice-like tone: 0.3 s a word at Rate 0 (SAPI's -10..10 speeds it by ~1.11 a step)."""
    sample_rate, bits, channels = wave_format
    seconds = max(1, words) * 0.3 / (1.11**rate)
    count = int(sample_rate * seconds)
    lead = int(sample_rate * 0.05)
    frames = bytearray()
    for index in range(count + 2 * lead):
        value = 0
        if lead <= index < lead + count:
            value = int(9000 * math.sin(2 * math.pi * 220 * index / sample_rate))
        sample = struct.pack("<h", value) if bits == 16 else struct.pack("<B", 128 + value // 256)
        frames += sample * channels
    return bytes(frames)


class SpVoice(CaseInsensitive):
    """SpVoice: Speak, Voice, Rate, Volume, AudioOutputStream, GetVoices, events."""

    def __init__(self, world: World) -> None:
        self._world = world
        self._tokens = [Token(spec) for spec in world.voices]
        self.Voice = self._tokens[world.default_voice]
        self._rate = 0
        self._volume = 100
        self.EventInterests = 0
        self.AudioOutputStream: Any = SpeakerOut()
        self.sinks: list[Any] = []
        self._streams = 0

    @property
    def Rate(self) -> int:
        return self._rate

    @Rate.setter
    def Rate(self, value: int) -> None:
        self._rate = max(-10, min(10, int(value)))

    @property
    def Volume(self) -> int:
        return self._volume

    @Volume.setter
    def Volume(self, value: int) -> None:
        self._volume = max(0, min(100, int(value)))

    def GetVoices(self, required: str = "", optional: str = "") -> Tokens:
        return Tokens(self._tokens)

    def Speak(self, text: str, flags: int = 0) -> int:
        self._world.spoken.append((text, flags, self.Voice.Id))
        if self._world.record is not None:
            with open(self._world.record, "a", encoding="utf-8") as record:
                record.write(json.dumps([text, flags, self.Voice.Id]) + "\n")
        self._streams += 1
        number = self._streams
        if flags & SVSF_PURGE_BEFORE_SPEAK and not text:
            self._event(SVE_END_STREAM, "EndStream", number, 0)
            return number
        output = self.AudioOutputStream
        samples = tone(len(text.split()), self._rate, output.wave_format)
        self._event(SVE_START_STREAM, "StartStream", number, 0)
        position = 0
        for word in text.split():
            self._event(SVE_WORD, "Word", number, 0, text.index(word, position), len(word))
            position = text.index(word, position) + len(word)
        output.write_samples(samples)  # synchronous or not, the audio is made now
        self._event(SVE_END_STREAM, "EndStream", number, len(samples))
        return number

    def _event(self, bit: int, name: str, *args: int) -> None:
        if not self.EventInterests & bit:
            return
        for sink in list(self.sinks):
            handler = getattr(sink, f"_ISpeechVoiceEvents_{name}", None) or getattr(
                sink, name, None
            )
            if handler is not None:
                MESSAGES.post(lambda handler=handler: handler(*args))


class Connection:
    """What comtypes.client.GetEvents returns: the advise lasts as long as it is kept."""

    def __init__(self, source: SpVoice, sink: Any) -> None:
        source.sinks.append(sink)


def install(world: World) -> None:
    """Put `comtypes`, `comtypes.client`, `comtypes.gen` and `pythoncom` into sys.modules."""
    comtypes = types.ModuleType("comtypes")
    client = types.ModuleType("comtypes.client")
    gen = types.ModuleType("comtypes.gen")
    speech_lib = types.ModuleType("comtypes.gen.SpeechLib")
    speech_lib.SSFMCreateForWrite = SSFM_CREATE_FOR_WRITE  # type: ignore[attr-defined]
    comtypes.client = client  # type: ignore[attr-defined]
    comtypes.gen = gen  # type: ignore[attr-defined]
    comtypes.__path__ = []  # a package, so `comtypes.gen` imports
    gen.__path__ = []

    def create_object(progid: str) -> Any:
        if not hasattr(gen, "SpeechLib"):  # comtypes generates the wrapper on first use
            gen.SpeechLib = speech_lib  # type: ignore[attr-defined]
            sys.modules["comtypes.gen.SpeechLib"] = speech_lib
        kind = progid.lower()  # ProgIDs are not case-sensitive
        if kind == "sapi.spvoice":
            return SpVoice(world)
        if kind == "sapi.spfilestream":
            return FileStream(world)
        raise OSError(f"Invalid class string: {progid}")

    client.CreateObject = create_object  # type: ignore[attr-defined]
    client.GetEvents = Connection  # type: ignore[attr-defined]
    pythoncom = types.ModuleType("pythoncom")
    pythoncom.PumpWaitingMessages = MESSAGES.pump  # type: ignore[attr-defined]
    sys.modules.update(
        {
            "comtypes": comtypes,
            "comtypes.client": client,
            "comtypes.gen": gen,
            "pythoncom": pythoncom,
        }
    )
    for name in [n for n in sys.modules if n.startswith("pyttsx3.drivers.sapi5")]:
        del sys.modules[name]
