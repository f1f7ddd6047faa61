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
    {"op": "voices", "id": 2}        ->  {"id": 2, "ok": true, "voices": [...]}

Within the child, the main thread owns the engine; `finished-utterance`
arrives on espeak's own thread and only sets an Event.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path
from typing import IO, Any

#: The child's own bound on one utterance; the parent's bound is longer.
UTTERANCE_TIMEOUT = 2.5


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


class EngineOwner:
    """The pyttsx3 engine and the one-item-per-runAndWait discipline it needs."""

    def __init__(self, voice: str, rate: int, volume: float) -> None:
        import pyttsx3  # imported here: a missing libespeak-ng raises at import

        # Keep a strong reference: pyttsx3 keeps engines in a WeakValueDictionary.
        self.engine = pyttsx3.init()
        self._finished = threading.Event()
        self._errors: list[str] = []
        self.engine.connect("finished-utterance", self._on_finished)
        self.engine.connect("error", self._on_error)
        # Queued now, applied by the first runAndWait before the first utterance.
        self.engine.setProperty("voice", voice)
        self.engine.setProperty("rate", rate)
        self.engine.setProperty("volume", volume)

    def _on_finished(self, name: object = None, completed: object = True) -> None:
        self._finished.set()

    def _on_error(self, name: object = None, exception: object = None) -> None:
        self._errors.append(str(exception))

    def synthesize(self, text: str, path: Path) -> None:
        """Write `text` to `path` as a WAV; raise when it did not happen in time."""
        self._finished.clear()
        self._errors.clear()
        path.unlink(missing_ok=True)
        self.engine.save_to_file(text, str(path))
        self.engine.runAndWait()
        if not self._finished.wait(UTTERANCE_TIMEOUT):
            raise TimeoutError("the engine did not finish the line")
        if self._errors:
            raise RuntimeError("; ".join(self._errors))
        if not path.is_file() or path.stat().st_size <= 44:
            raise RuntimeError("the engine wrote no audio")

    def voices(self) -> list[dict[str, object]]:
        """Every voice the engine offers."""
        return [
            {
                "id": voice.id,
                "name": voice.name,
                "languages": list(voice.languages or []),
                "gender": voice.gender,
            }
            for voice in self.engine.getProperty("voices")
        ]


def serve(requests: IO[str], reply: IO[str], voice: str, rate: int, volume: float) -> int:
    """Start the engine, then answer requests until stdin closes."""
    try:
        owner = EngineOwner(voice, rate, volume)
    except (ImportError, OSError) as error:
        _send(reply, {"ready": False, "part": "library", "error": str(error)})
        return 1
    except RuntimeError as error:
        part = "library" if "espeak" in str(error).lower() else "engine"
        _send(reply, {"ready": False, "part": part, "error": str(error)})
        return 1
    except Exception as error:
        _send(reply, {"ready": False, "part": "engine", "error": repr(error)})
        return 1
    _send(reply, {"ready": True})
    for raw in requests:
        ident: object = None
        try:
            request = json.loads(raw)
            ident = request.get("id")
            if request.get("op") == "voices":
                _send(reply, {"id": ident, "ok": True, "voices": owner.voices()})
                continue
            owner.synthesize(str(request["text"]), Path(request["path"]))
            _send(reply, {"id": ident, "ok": True})
        except Exception as error:
            _send(reply, {"id": ident, "ok": False, "error": repr(error)})
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m moderator.narration.synth_worker --voice V --rate R --volume V`."""
    parser = argparse.ArgumentParser(prog="synth_worker")
    parser.add_argument("--voice", default="en")
    parser.add_argument("--rate", type=int, default=160)
    parser.add_argument("--volume", type=float, default=1.0)
    args = parser.parse_args(argv)
    reply = _silence_stdio()
    return serve(sys.stdin, reply, args.voice, args.rate, args.volume)


if __name__ == "__main__":
    sys.exit(main())
