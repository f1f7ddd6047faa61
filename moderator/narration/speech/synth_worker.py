"""The speech-engine child process: owns pyttsx3, turns lines into WAV files.

Why a child process rather than a thread in the app: pyttsx3 2.99 prints
"Audio saved to ..." on stdout for every file, and espeak-ng/ALSA write to
fd 2 from C code. Inside the TUI those bytes would land on the terminal that
Textual owns; redirecting fd 1 in the app would also swallow Textual's own
output while a line is synthesized. In a child process both descriptors can
point at /dev/null for good. The child also makes every fault recoverable: a
synthesis that never finishes, an engine that hangs on start-up or a crash in
the C library is ended by killing the process, which no thread can offer.

Voice, rate and volume are fixed for the life of a child, given on its command
line (`--voice en --rate 160 --volume 1.0`): measured with pyttsx3 2.99,
properties set before the first `runAndWait` always apply, while changing them
between utterances is racy (espeak's callback thread re-enters the property
queue) and sometimes keeps the old rate. The app starts a new child when the
settings change, which happens rarely (a language or rate change).

Protocol: one JSON object per line. The parent writes requests on stdin; the
child answers on a private copy of its original stdout (taken before fd 1 is
pointed at /dev/null), first `{"ready": true}` or `{"ready": false, "part":
..., "error": ...}`, then one answer per request:

    {"op": "synth", "id": 1, "text": ..., "path": "..."}  ->  {"id": 1, "ok": true}
    {"op": "synth", ..., "markup": true}   (espeak: `text` is SSML with [[phonemes]])
    {"op": "voices", "id": 2}        ->  {"id": 2, "ok": true, "voices": [...]}

Within the child, the main thread owns the engine; `finished-utterance`
arrives on espeak's own thread and only sets an Event. Windows' and macOS'
drivers need other rules for when a line is done and which voice speaks
(see `platform_driver`).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from moderator.narration.speech.platform_audio import convert_to_wav
from moderator.narration.speech.platform_driver import (
    FINISHES_ON_RETURN,
    before_save,
    platform_file,
    voice_offers,
    voice_records,
)
from moderator.narration.speech.voice_choice import choose_voice

#: The child's own bound on one utterance; the parent's bound is longer.
UTTERANCE_TIMEOUT = 2.5
ATTEMPTS = 3
RETRY_PAUSE = 0.02
#: Time for espeak's callback thread to finish after `finished-utterance`.
SETTLE = 0.005


def _silence_stdio() -> IO[str]:
    """Keep a private channel to the parent, then send fd 1 and fd 2 to /dev/null."""
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process' life
    sys.stderr = sys.stdout
    return reply


def _send(reply: IO[str], message: dict[str, Any]) -> None:
    reply.write(json.dumps(message) + "\n")
    reply.flush()


def preload_espeak(library: str | None, data: str | None) -> None:
    """Use a libespeak-ng file that is not on the loader's path (espeakng-loader's).

    Loaded globally first, so pyttsx3's own `LoadLibrary("libespeak-ng.so.1")`
    finds it by its soname; espeak reads `ESPEAK_DATA_PATH` for its data.
    """
    if data is not None:
        os.environ["ESPEAK_DATA_PATH"] = data
    if library is not None:
        ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)


class EngineOwner:
    """The pyttsx3 engine and the one-item-per-runAndWait discipline it needs."""

    def __init__(self, voice: str, rate: int, volume: float, driver: str = "espeak") -> None:
        import pyttsx3  # imported here: a missing libespeak-ng raises at import

        self.driver = driver
        # Keep a strong reference: pyttsx3 keeps engines in a WeakValueDictionary.
        self.engine = pyttsx3.init(driver)
        self._finished = threading.Event()
        self._errors: list[str] = []
        self._completed = False
        self.engine.connect("finished-utterance", self._on_finished)
        self.engine.connect("error", self._on_error)
        # Measured: in about 1 start in 30 the rate is lost (espeak keeps
        # pyttsx3's initial 200 wpm) and setting it again in the same process
        # never helps. So: set, speak a throw-away word, read the values back
        # from espeak, and refuse to start when they did not hold; the app then
        # starts a fresh child (see `SettingsLost`).
        self.engine.setProperty("voice", self._engine_voice(voice))
        self.engine.setProperty("rate", rate)
        self.engine.setProperty("volume", volume)
        self._warm_up()
        if driver != "espeak":
            return
        wanted = {_RATE: rate, _VOLUME: round(volume * 100)}
        for parameter, value in wanted.items():
            current = _current_parameter(parameter)
            if current is not None and current != value:
                raise SettingsLost(f"espeak parameter {parameter} is {current}, not {value}")

    def _engine_voice(self, voice: str) -> str:
        """The engine's id for `voice`; UnknownVoice when the engine lacks it.

        espeak: pyttsx3 only reports a bad voice through an error callback and
        then speaks with its default voice (a French script read in English),
        so the name is checked with espeak itself. NSSS and SAPI5 name voices
        by ids: the best voice for the language and region is chosen
        (`voice_choice`), the system's default voice first among equals.
        """
        if self.driver == "espeak":
            from pyttsx3.drivers import _espeak

            if _espeak.SetVoiceByName(voice.encode("utf-8")) != 0:
                raise UnknownVoice(voice)
            return voice
        default = str(self.engine.getProperty("voice"))  # before any is set: the system's
        chosen = choose_voice(voice, voice_offers(self.engine, self.driver), default)
        if chosen is None:
            raise UnknownVoice(voice)
        return chosen

    def _warm_up(self) -> None:
        handle, name = tempfile.mkstemp(prefix="mindflayer-warm-up-", suffix=".wav")
        os.close(handle)
        try:
            self.synthesize("Ready.", Path(name))
        finally:
            Path(name).unlink(missing_ok=True)

    def _on_finished(self, name: object = None, completed: object = True) -> None:
        self._completed = bool(completed)
        self._finished.set()

    def _on_error(self, name: object = None, exception: object = None) -> None:
        self._errors.append(str(exception))

    def synthesize(self, text: str, path: Path, markup: bool = False) -> None:
        """Write `text` to `path` as a WAV; raise when it did not happen in time.

        With `markup` (espeak only) the text is SSML with `[[phonemes]]`, as
        `espeak_markup` writes it: pyttsx3 always passes plain-text flags, so
        they are added to its `Synth` call for this line (see `_markup_flags`).

        Measured with pyttsx3 2.99: when a line is queued right after the
        previous one, the tail of espeak's callback thread can cancel it and
        report `finished-utterance` with completed=False and no file (about 1
        in 20 back-to-back lines). Such a line is simply synthesized again.
        """
        deadline = time.monotonic() + UTTERANCE_TIMEOUT
        for _attempt in range(ATTEMPTS):
            self._finished.clear()
            self._errors.clear()
            self._completed = False
            path.unlink(missing_ok=True)
            target = platform_file(path, self.driver)
            before_save(self.engine, self.driver)
            self.engine.save_to_file(text, str(target))
            with _markup_flags(markup and self.driver == "espeak"):
                self.engine.runAndWait()
            if self.driver in FINISHES_ON_RETURN and not self._finished.is_set():
                self._on_finished(completed=not self._errors)  # the synchronous Speak returned
            if not self._finished.wait(max(0.0, deadline - time.monotonic())):
                raise TimeoutError("the engine did not finish the line")
            if self._errors and not self._completed:
                raise RuntimeError("; ".join(self._errors))
            if self._completed and _has_audio(target):
                time.sleep(SETTLE)  # espeak's thread is still finishing its callback
                if target != path:
                    try:
                        convert_to_wav(target, path)
                    finally:
                        target.unlink(missing_ok=True)
                return
            time.sleep(RETRY_PAUSE)  # let espeak's thread settle before the retry
        raise RuntimeError("the engine wrote no audio")

    def voices(self) -> list[dict[str, object]]:
        """Every voice the engine offers."""
        return voice_records(self.engine, self.driver)


_RATE = 1
_VOLUME = 2


@contextmanager
def _markup_flags(on: bool) -> Iterator[None]:
    """While on, pyttsx3's espeak `Synth` also reads SSML and `[[phonemes]]`.

    pyttsx3 2.99 calls `_espeak.Synth(text, flags=ENDPAUSE | CHARS_UTF8)` from
    its driver with no way to pass other flags; the call goes through the
    module attribute, so it is wrapped for the one `runAndWait` of a marked-up
    line and put back after (the main thread owns the engine, see above).
    """
    if not on:
        yield
        return
    from pyttsx3.drivers import _espeak

    original = _espeak.Synth

    def synth(*args: Any, **kwargs: Any) -> Any:
        kwargs["flags"] = int(kwargs.get("flags", 0)) | _espeak.SSML | _espeak.PHONEMES
        return original(*args, **kwargs)

    _espeak.Synth = synth
    try:
        yield
    finally:
        _espeak.Synth = original


class UnknownVoice(ValueError):
    """The engine has no voice of this name."""


class SettingsLost(RuntimeError):
    """espeak did not take the rate or volume; a new process will."""


def _current_parameter(parameter: int) -> int | None:
    """espeak's current value of a parameter (None when it cannot be read).

    pyttsx3 binds `espeak_GetParameter` without its `current` argument, so its
    own `getProperty("rate")` is unreliable; this binds it fully.
    """
    try:
        from pyttsx3.drivers import _espeak

        function = _espeak.dll.espeak_GetParameter
        function.restype = ctypes.c_int
        function.argtypes = [ctypes.c_int, ctypes.c_int]
        return int(function(parameter, 1))
    except Exception:
        return None


def _loaded_espeak() -> str | None:
    """Which libespeak-ng file this process mapped (Linux), to tell the parent."""
    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in maps.splitlines():
        if "libespeak" in line and "/" in line:
            return line[line.index("/") :].strip()
    return None


def _has_audio(path: Path) -> bool:
    """Whether `path` is a WAV with at least one sample (more than its 44-byte header)."""
    try:
        return path.stat().st_size > 44
    except OSError:
        return False


def serve(
    requests: IO[str],
    reply: IO[str],
    voice: str,
    rate: int,
    volume: float,
    driver: str = "espeak",
) -> int:
    """Start the engine, then answer requests until stdin closes."""
    try:
        owner = EngineOwner(voice, rate, volume, driver)
    except SettingsLost as error:
        _send(reply, {"ready": False, "part": "retry", "error": str(error)})
        return 1
    except UnknownVoice as error:
        _send(reply, {"ready": False, "part": "voice", "error": str(error)})
        return 1
    except ImportError as error:  # the platform's packages (pyobjc, comtypes) or espeak
        _send(reply, {"ready": False, "part": "library", "error": str(error)})
        return 1
    except TimeoutError as error:  # an OSError, but no sign of a missing library
        _send(reply, {"ready": False, "part": "engine", "error": str(error)})
        return 1
    except OSError as error:  # espeak: the library did not load; elsewhere the engine failed
        part = "library" if driver == "espeak" else "engine"
        _send(reply, {"ready": False, "part": part, "error": str(error)})
        return 1
    except RuntimeError as error:
        part = "library" if "espeak" in str(error).lower() else "engine"
        _send(reply, {"ready": False, "part": part, "error": str(error)})
        return 1
    except Exception as error:
        _send(reply, {"ready": False, "part": "engine", "error": repr(error)})
        return 1
    _send(reply, {"ready": True, "library": _loaded_espeak()})
    for raw in requests:
        ident: object = None
        try:
            request = json.loads(raw)
            ident = request.get("id")
            if request.get("op") == "voices":
                _send(reply, {"id": ident, "ok": True, "voices": owner.voices()})
                continue
            owner.synthesize(
                str(request["text"]), Path(request["path"]), bool(request.get("markup"))
            )
            _send(reply, {"id": ident, "ok": True})
        except Exception as error:
            _send(reply, {"id": ident, "ok": False, "error": repr(error)})
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m moderator.narration.speech.synth_worker --voice V --rate R ...`."""
    parser = argparse.ArgumentParser(prog="synth_worker")
    parser.add_argument("--voice", default="en")
    parser.add_argument("--rate", type=int, default=160)
    parser.add_argument("--volume", type=float, default=1.0)
    parser.add_argument("--driver", default="espeak", choices=("espeak", "nsss", "sapi5"))
    parser.add_argument("--library", default=None, help="a libespeak-ng file to preload")
    parser.add_argument("--data", default=None, help="the espeak-ng-data folder for --library")
    args = parser.parse_args(argv)
    reply = _silence_stdio()
    try:
        preload_espeak(args.library, args.data)
    except OSError as error:
        _send(reply, {"ready": False, "part": "library", "error": str(error)})
        return 1
    return serve(sys.stdin, reply, args.voice, args.rate, args.volume, args.driver)


if __name__ == "__main__":
    sys.exit(main())
