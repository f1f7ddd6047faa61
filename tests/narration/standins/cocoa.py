"""A stand-in for macOS' PyObjC layer, so pyttsx3's real `nsss` driver runs here.

Only the operating system's objects are faked (`objc`, `Foundation`,
`AppKit`, `PyObjCTools.AppHelper`); pyttsx3's driver module runs unchanged.
What is modelled is what Apple (and PyObjC's own AppHelper) document:

- `NSSpeechSynthesizer.startSpeakingString:toURL:` "begins synthesizing text
  into a sound (AIFF) file" and returns at once; "when synthesis finishes
  normally or is stopped, speechSynthesizer:didFinishSpeaking: is sent to the
  delegate", through the run loop of the thread that started it. Here the
  synthesizer makes progress only while that run loop runs (one 0.1 s chunk
  of audio a pass), so a line is never finished at the moment it starts, as
  on a real Mac, and the tests need no clock. `stopSpeaking` ends the file
  where it is and reports didFinishSpeaking with NO. Starting a new line
  while one is spoken stops the first.
- `setVoice:` resets rate and volume (pyttsx3's driver restores them);
  `availableVoices`, `attributesForVoice:` (VoiceIdentifier, VoiceName,
  VoiceLocaleIdentifier "en_US", VoiceLanguage "en-US"...), `defaultVoice`.
- `NSRunLoop`: `limitDateForMode:` fires the timers that are due and gives
  the next fire date (None with no timers and no sources);
  `runMode:beforeDate:` handles input sources and returns NO when the loop
  has neither sources nor timers. `NSTimer.scheduledTimer...` adds a timer
  to the current thread's run loop; its selector "name:" calls `name_`.
- `PyObjCTools.AppHelper.stopEventLoop` schedules `performStop:` on the
  current run loop's registered stopper, as PyObjC's code does.

The AIFF written is big-endian 16-bit PCM (COMM + SSND chunks), at the rate
and channel count the test's `World` gives.
"""

from __future__ import annotations

import json
import math
import struct
import sys
import threading
import time
import types
from dataclasses import dataclass, field
from typing import Any


@dataclass
class VoiceSpec:
    """One installed voice, as `attributesForVoice:` describes it."""

    id: str
    name: str
    locale: str
    gender: str = "VoiceGenderFemale"


@dataclass
class World:
    """What this pretend Mac has installed and how it writes its files."""

    voices: list[VoiceSpec]
    default_voice: int = 0
    sample_rate: int = 22050
    channels: int = 1
    #: The speech service is unreachable: a line "starts", but nothing joins the run loop
    #: and no delegate message ever comes (pyttsx3's loop then ends at once).
    stalls: bool = False
    #: A file that gets one JSON line per finished file (text, voice, seconds, completed).
    record: str | None = None
    spoken: list[tuple[str, str, bool]] = field(default_factory=list)


CHUNK_SECONDS = 0.1


class NSObject:
    """PyObjC's NSObject: `alloc` does not call `__init__`; `init` returns the object."""

    @classmethod
    def alloc(cls) -> Any:
        return object.__new__(cls)

    def init(self) -> Any:
        return self


class NSDate:
    """A point in time (monotonic seconds here)."""

    def __init__(self, when: float) -> None:
        self.when = when

    @classmethod
    def dateWithTimeIntervalSinceNow_(cls, seconds: float) -> NSDate:
        return cls(time.monotonic() + seconds)

    @classmethod
    def distantFuture(cls) -> NSDate:
        return cls(math.inf)

    def earlierDate_(self, other: NSDate) -> NSDate:
        return self if self.when <= other.when else other


class NSURL:
    """A file URL."""

    def __init__(self, path: str) -> None:
        self._path = path

    @classmethod
    def fileURLWithPath_(cls, path: str) -> NSURL:
        return cls(path)

    def path(self) -> str:
        return self._path


class Timer:
    """An NSTimer that fires once."""

    def __init__(self, fire: float, target: Any, selector: str, info: Any) -> None:
        self.fire = fire
        self.target = target
        self.selector = selector
        self.info = info

    def userInfo(self) -> Any:
        return self.info


class NSTimer:
    """Timers go to the current thread's run loop."""

    @staticmethod
    def scheduledTimerWithTimeInterval_target_selector_userInfo_repeats_(
        interval: float, target: Any, selector: str, info: Any, repeats: bool
    ) -> Timer:
        timer = Timer(time.monotonic() + interval, target, selector, info)
        NSRunLoop.currentRunLoop().timers.append(timer)
        return timer


class NSRunLoop:
    """One thread's run loop: timers and input sources (the speech channel)."""

    _local = threading.local()

    def __init__(self) -> None:
        self.timers: list[Timer] = []
        self.sources: list[Any] = []

    @classmethod
    def currentRunLoop(cls) -> NSRunLoop:
        loop = getattr(cls._local, "loop", None)
        if loop is None:
            loop = cls._local.loop = cls()
        return loop

    def _fire_due(self) -> None:
        now = time.monotonic()
        for timer in [t for t in self.timers if t.fire <= now]:
            self.timers.remove(timer)
            getattr(timer.target, timer.selector.replace(":", "_"))(timer)

    def limitDateForMode_(self, mode: str) -> NSDate | None:
        self._fire_due()
        if self.timers:
            return NSDate(min(t.fire for t in self.timers))
        return NSDate.distantFuture() if self.sources else None

    def runMode_beforeDate_(self, mode: str, date: NSDate) -> bool:
        if not self.timers and not self.sources:
            return False
        if not self.sources:  # only timers: block until the first one or the date
            wait = min(date.when, *(t.fire for t in self.timers)) - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        for source in list(self.sources):
            source.perform()
        self._fire_due()
        return True


def aiff(frames: bytes, rate: int, channels: int) -> bytes:
    """An AIFF file: FORM/AIFF with COMM (80-bit extended rate) and SSND chunks."""
    exponent = 16383 + math.floor(math.log2(rate))
    mantissa = int(rate * 2 ** (63 - math.floor(math.log2(rate))))
    extended = struct.pack(">HQ", exponent, mantissa)
    count = len(frames) // (2 * channels)
    comm = struct.pack(">hIh", channels, count, 16) + extended
    ssnd = struct.pack(">II", 0, 0) + frames
    body = b"AIFF" + b"COMM" + struct.pack(">I", len(comm)) + comm
    body += b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    return b"FORM" + struct.pack(">I", len(body)) + body


class Utterance:
    """One line being synthesized: a run-loop source that writes a chunk a pass."""

    def __init__(self, synth: NSSpeechSynthesizer, text: str, path: str | None) -> None:
        self.synth = synth
        self.text = text
        self.path = path
        world = synth.world
        seconds = max(1, len(text.split())) * 60.0 / max(1.0, synth._rate)
        count = int(world.sample_rate * seconds)
        samples = [
            int(9000 * math.sin(2 * math.pi * 200 * i / world.sample_rate)) for i in range(count)
        ]
        self.frames = b"".join(struct.pack(">h", s) * world.channels for s in samples)
        self.chunk = int(world.sample_rate * CHUNK_SECONDS) * 2 * world.channels
        self.written = 0
        self.loop = NSRunLoop.currentRunLoop()
        if not world.stalls:
            self.loop.sources.append(self)
        self.outcome: bool | None = None

    def perform(self) -> None:
        if self.outcome is None:
            self.written = min(len(self.frames), self.written + self.chunk)
            if self.written < len(self.frames):
                return
            self.finish(True)
        self.loop.sources.remove(self)
        delegate = self.synth._delegate
        if delegate is not None:
            delegate.speechSynthesizer_didFinishSpeaking_(self.synth, bool(self.outcome))

    def finish(self, completed: bool) -> None:
        """End the file where synthesis is (all of it when completed)."""
        self.outcome = completed
        world = self.synth.world
        if self.path is not None:
            with open(self.path, "wb") as out:
                out.write(aiff(self.frames[: self.written], world.sample_rate, world.channels))
        seconds = self.written / (2 * world.channels * world.sample_rate)
        world.spoken.append((self.text, self.synth._voice, completed))
        if world.record is not None:
            with open(world.record, "a", encoding="utf-8") as record:
                line = [self.text, self.synth._voice, seconds, completed]
                record.write(json.dumps(line) + "\n")
        if self.synth._current is self:
            self.synth._current = None


class NSSpeechSynthesizer(NSObject):
    """AppKit's synthesizer over the World's voices."""

    world: World

    def initWithVoice_(self, voice: str | None) -> NSSpeechSynthesizer:
        self._voice = voice or self.defaultVoice()
        self._rate = 175.0
        self._volume = 1.0
        self._delegate: Any = None
        self._current: Utterance | None = None
        return self

    @classmethod
    def availableVoices(cls) -> list[str]:
        return [v.id for v in cls.world.voices]

    @classmethod
    def defaultVoice(cls) -> str:
        return cls.world.voices[cls.world.default_voice].id

    @classmethod
    def attributesForVoice_(cls, voice: str) -> dict[str, Any]:
        spec = next(v for v in cls.world.voices if v.id == voice)
        return {
            "VoiceIdentifier": spec.id,
            "VoiceName": spec.name,
            "VoiceLocaleIdentifier": spec.locale,
            "VoiceLanguage": spec.locale.replace("_", "-"),
            "VoiceGender": spec.gender,
            "VoiceAge": 35,
        }

    def setDelegate_(self, delegate: Any) -> None:
        self._delegate = delegate

    def setVoice_(self, voice: str) -> bool:
        if voice not in self.availableVoices():
            return False
        self._voice, self._rate, self._volume = voice, 175.0, 1.0
        return True

    def voice(self) -> str:
        return self._voice

    def setRate_(self, rate: float) -> None:
        self._rate = float(rate)

    def rate(self) -> float:
        return self._rate

    def setVolume_(self, volume: float) -> None:
        self._volume = float(volume)

    def volume(self) -> float:
        return self._volume

    def isSpeaking(self) -> bool:
        return self._current is not None

    def startSpeakingString_(self, text: str) -> bool:
        return self._start(text, None)

    def startSpeakingString_toURL_(self, text: str, url: NSURL) -> bool:
        return self._start(text, url.path())

    def _start(self, text: str, path: str | None) -> bool:
        if not text:
            return False
        self.stopSpeaking()
        self._current = Utterance(self, text, path)
        return True

    def stopSpeaking(self) -> None:
        current = self._current
        if current is not None and current.outcome is None:
            current.finish(False)


class PyObjCAppHelperRunLoopStopper(NSObject):
    """PyObjC's stopper: one per run loop, `performStop:` ends the loop it watches."""

    singletons: dict[NSRunLoop, PyObjCAppHelperRunLoopStopper] = {}

    def init(self) -> Any:
        self = super().init()
        self.shouldStop = False
        return self

    def shouldRun(self) -> bool:
        return not self.shouldStop

    @classmethod
    def currentRunLoopStopper(cls) -> PyObjCAppHelperRunLoopStopper | None:
        return cls.singletons.get(NSRunLoop.currentRunLoop())

    @classmethod
    def addRunLoopStopper_toRunLoop_(cls, stopper: Any, loop: NSRunLoop) -> None:
        if loop in cls.singletons:
            raise ValueError("Stopper already registered for this runLoop")
        cls.singletons[loop] = stopper

    @classmethod
    def removeRunLoopStopperFromRunLoop_(cls, loop: NSRunLoop) -> None:
        if loop not in cls.singletons:
            raise ValueError("Stopper not registered for this runLoop")
        del cls.singletons[loop]

    def stop(self) -> None:
        self.shouldStop = True

    def performStop_(self, sender: Any) -> None:
        self.stop()


def stop_event_loop() -> bool:
    """PyObjCTools.AppHelper.stopEventLoop (no NSApp in a command-line child)."""
    stopper = PyObjCAppHelperRunLoopStopper.currentRunLoopStopper()
    if stopper is None:
        return False
    NSTimer.scheduledTimerWithTimeInterval_target_selector_userInfo_repeats_(
        0.0, stopper, "performStop:", None, False
    )
    return True


def install(world: World) -> None:
    """Put `objc`, `Foundation`, `AppKit` and `PyObjCTools.AppHelper` into sys.modules."""
    NSSpeechSynthesizer.world = world
    objc = types.ModuleType("objc")
    objc.super = super  # type: ignore[attr-defined]
    objc.python_method = lambda function: function  # type: ignore[attr-defined]
    foundation = types.ModuleType("Foundation")
    for name, value in {
        "NSURL": NSURL,
        "NSDate": NSDate,
        "NSDefaultRunLoopMode": "kCFRunLoopDefaultMode",
        "NSObject": NSObject,
        "NSRunLoop": NSRunLoop,
        "NSTimer": NSTimer,
    }.items():
        setattr(foundation, name, value)
    appkit = types.ModuleType("AppKit")
    appkit.NSSpeechSynthesizer = NSSpeechSynthesizer  # type: ignore[attr-defined]
    appkit.NSApp = lambda: None  # type: ignore[attr-defined]
    tools = types.ModuleType("PyObjCTools")
    tools.__path__ = []
    helper = types.ModuleType("PyObjCTools.AppHelper")
    helper.PyObjCAppHelperRunLoopStopper = PyObjCAppHelperRunLoopStopper  # type: ignore[attr-defined]
    helper.stopEventLoop = stop_event_loop  # type: ignore[attr-defined]
    tools.AppHelper = helper  # type: ignore[attr-defined]
    sys.modules.update(
        {
            "objc": objc,
            "Foundation": foundation,
            "AppKit": appkit,
            "PyObjCTools": tools,
            "PyObjCTools.AppHelper": helper,
        }
    )
    for name in [n for n in sys.modules if n.startswith("pyttsx3.drivers.nsss")]:
        del sys.modules[name]
