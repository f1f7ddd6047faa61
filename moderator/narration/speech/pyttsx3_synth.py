"""The platform's own voice through pyttsx3, in a child process: lines in, cached clips out.

On Linux pyttsx3 drives espeak-ng; on macOS NSSS, on Windows SAPI5 (see
`platforms`). The child (`synth_worker`, see there why the engine lives in a
child process) is owned by `ClipSynthesizer`'s thread (`mindflayer-speech-engine`),
which hands it one line at a time, so the engine only ever sees one item per
`runAndWait`. Each result is trimmed of the silence the engine adds around it
and cached, keyed by (driver, text, voice, rate, volume). Playing the clips is
a player's job (`players`), not this one's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from moderator.i18n import _
from moderator.narration.audio.wavfile import Pcm, read_pcm, trim_silence
from moderator.narration.settings import DEFAULT_RATE
from moderator.narration.speech.child_process import (
    LineReader,
    LineTimeout,
    end_child,
    kill_tree,
    spawn,
)
from moderator.narration.speech.espeak_markup import ROLE_WORDS, SayAs, marked_up
from moderator.narration.speech.platforms import (
    LIBRARY_NAMES,
    EngineSetup,
    engine_check,
    engine_setup,
    library_missing,
    voice_missing,
)
from moderator.narration.speech.speaker import SpeechFault
from moderator.narration.speech.synthesizer import ClipSynthesizer, LineRefused, Request

#: Bump when the cached audio would differ for the same key (e.g. trimming rules).
CACHE_FORMAT = 1
START_TIMEOUT = 10.0
#: One line takes ~20 ms; a line still unanswered after this is a hung engine.
SYNTH_TIMEOUT = 3.0
#: espeak sometimes ignores the rate in a new process (see `synth_worker`): try again.
START_ATTEMPTS = 4
#: Seconds the engine waits before warming up, so the app's first frame gets the CPU first.
WARM_UP_DELAY = 1.0
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]


def default_worker_command() -> list[str]:
    """The synthesis child: this interpreter running `synth_worker`."""
    return [sys.executable, "-m", "moderator.narration.speech.synth_worker"]


Voice = tuple[str, int, float]
"""(engine voice, rate in words per minute, volume): fixed for one synthesis child."""


def _did_not_start(error: object, driver: str) -> str:
    return _(
        "Speech is off: the speech engine did not start ({error}). {check} Showing captions only."
    ).format(error=error, check=engine_check(driver))


def _could_not_start(error: object, driver: str) -> str:
    return _(
        "Speech is off: the speech engine could not start ({error}). {check} Showing captions only."
    ).format(error=error, check=engine_check(driver))


class Pyttsx3Child:
    """The app's side of one synthesis child: start, ask with a bound, kill."""

    def __init__(
        self, command: Sequence[str], voice: Voice, start_timeout: float, driver: str = "espeak"
    ) -> None:
        """Start the child for `voice`; `driver` names the remedy a failure sentence gives."""
        self.voice = voice
        name, rate, volume = voice
        self._process = spawn(
            # `--voice=NAME`: one argument, so a name can never become an option.
            [*command, f"--voice={name}", "--rate", str(rate), "--volume", str(volume)],
            stdout=subprocess.PIPE,
            cwd=_PACKAGE_ROOT,
        )
        assert self._process.stdout is not None
        self._reader = LineReader(self._process.stdout)
        self._next_id = 0
        try:
            ready = self._read(time.monotonic() + start_timeout)
        except SpeechFault as fault:
            self.kill()
            raise SpeechFault(
                "engine", _did_not_start(fault.message, driver), permanent=True
            ) from fault
        #: The espeak library file the child loaded (Linux), for diagnostics and tests.
        self.library = ready.get("library")
        if not ready.get("ready"):
            self.kill()
            part = str(ready.get("part", "engine"))
            if part == "retry":
                raise SpeechFault(
                    "retry", _("The speech engine lost its settings: {answer}").format(answer=ready)
                )
            if part == "voice":
                raise SpeechFault(f"voice:{name}", voice_missing(driver, name))
            if part == "library":
                raise SpeechFault("library", library_missing(driver), permanent=True)
            raise SpeechFault(
                "engine",
                _could_not_start(ready.get("error"), driver),
                permanent=True,
            )

    def ask(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait (bounded) for its answer."""
        self._next_id += 1
        message = {**message, "id": self._next_id}
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            stdin.flush()
        except OSError as error:
            raise SpeechFault(
                "engine", _("The speech engine stopped ({error}).").format(error=error)
            ) from error
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") == self._next_id:
                return answer

    def _read(self, deadline: float) -> dict[str, Any]:
        """The child's next answer, by `deadline` (time.monotonic)."""
        try:
            line = self._reader.read_line(deadline)
        except LineTimeout:
            raise SpeechFault(
                "synthesis",
                _("The speech engine did not answer in time; showing captions only for that line."),
            ) from None
        if line is None:
            raise SpeechFault("engine", _("The speech engine stopped unexpectedly."))
        try:
            answer = json.loads(line)
        except ValueError as error:
            raise SpeechFault("engine", _("The speech engine sent garbage.")) from error
        return answer if isinstance(answer, dict) else {}

    def terminate(self) -> None:
        """Kill the child; safe from any thread (the owner then reads end-of-file)."""
        kill_tree(self._process)

    def kill(self) -> None:
        """End the child at once, close its pipes and reap it (bounded); owner thread only."""
        end_child(self._process)


class Pyttsx3Synthesizer(ClipSynthesizer[Pyttsx3Child]):
    """Lines to cached, trimmed clips through pyttsx3 (espeak-ng, NSSS or SAPI5) in a child."""

    thread_name = "mindflayer-speech-engine"

    def __init__(
        self,
        cache_dir: Path,
        worker_command: Sequence[str] | None = None,
        library_names: Sequence[str] = LIBRARY_NAMES,
        engine: EngineSetup | None = None,
        start_timeout: float = START_TIMEOUT,
        synth_timeout: float = SYNTH_TIMEOUT,
        warm_up: Voice = ("en-us", DEFAULT_RATE, 1.0),
        warm: bool = True,
        warm_up_delay: float = WARM_UP_DELAY,
        say_as: dict[str, dict[str, SayAs]] | None = None,
    ) -> None:
        """Args:
        cache_dir: The app's cache folder.
        worker_command: Replaces the child's command line (tests inject faults).
        library_names: The system espeak library's names (tests pass a missing one).
        engine: The driver and library to use (default: this platform's).
        start_timeout: Bound on the child's start.
        synth_timeout: Bound on one line.
        warm_up: The voice whose child starts after `warm_up_delay` (the app's language).
        warm: Start that child at all (the app) or only on the first uncached line (renders).
        warm_up_delay: Seconds before the warm-up, so the first frame gets the CPU first.
        say_as: How espeak says each language's role words (default `ROLE_WORDS`;
            the benches pass {} for the engine's own reading).
        """
        super().__init__(
            cache_dir,
            warm_up=(lambda: self.child(warm_up)) if warm else None,
            warm_up_delay=warm_up_delay,
        )
        self.engine = engine or engine_setup(library_names=library_names)
        self.warm_up_voice = warm_up
        self._command = [
            *(worker_command or default_worker_command()),
            *self.engine.worker_arguments(),
        ]
        self._say_as = ROLE_WORDS if say_as is None else say_as
        self._start_timeout = start_timeout
        self._synth_timeout = synth_timeout
        self._broken = self.engine.fault
        #: Voices the engine said it does not have, with that fault.
        self._bad_voices: dict[str, SpeechFault] = {}
        self._start()

    def engine_input(self, text: str, voice: str) -> str | None:
        """The marked-up input for a line with a role word (espeak only), or None."""
        return marked_up(text, voice, self._say_as) if self.engine.driver == "espeak" else None

    def cache_path(self, text: str, voice: str, rate: int, volume: float) -> Path:
        """Where the clip for this (text, voice, rate, volume) is cached.

        The engine's input is part of the key, so a change in how a role word
        is said (`espeak_markup`) is heard at once, not read from the cache.
        """
        spoken = self.engine_input(text, voice) or text
        key = json.dumps(
            [CACHE_FORMAT, self.engine.driver, spoken, voice, int(rate), round(float(volume), 3)]
        )
        return self._cache / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.wav"

    def voices(self, timeout: float = START_TIMEOUT) -> list[dict[str, Any]]:
        """The engine's voices (for `mindflayer voices`).

        Raises:
            SpeechFault: when the engine is missing or does not answer.
        """

        def ask() -> list[dict[str, Any]]:
            child = self.child(self._child_for or self.warm_up_voice)
            return list(child.ask({"op": "voices"}, self._synth_timeout).get("voices", []))

        return self.on_owner(ask, timeout + self._synth_timeout)

    # -- ClipSynthesizer ---------------------------------------------------------

    def _child_key(self, request: Request) -> Hashable:
        return (request.voice, request.rate, request.volume)

    def _known_fault(self, request: Request) -> SpeechFault | None:
        return self._bad_voices.get(request.voice)  # known missing: no child start per line

    def _start_child(self, key: Hashable) -> Pyttsx3Child:
        voice: Voice = key  # type: ignore[assignment]
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                return Pyttsx3Child(self._command, voice, self._start_timeout, self.engine.driver)
            except SpeechFault as fault:
                if fault.part.startswith("voice:"):
                    self._bad_voices[voice[0]] = fault
                if fault.part != "retry":
                    raise
                if attempt == START_ATTEMPTS:
                    raise SpeechFault(
                        "engine",
                        _(
                            "Speech is off: the speech engine keeps ignoring the speech rate. "
                            "Showing captions only."
                        ),
                        permanent=True,
                    ) from fault
        raise AssertionError("unreachable")  # pragma: no cover

    def _render(self, child: Pyttsx3Child, request: Request) -> Pcm:
        raw = request.path.with_name(f".{request.path.stem}.{os.getpid()}.{id(self)}.raw.wav")
        try:
            markup = self.engine_input(request.text, request.voice)
            message: dict[str, object] = {
                "op": "synth",
                "text": markup or request.text,
                "path": str(raw),
            }
            if markup is not None:
                message["markup"] = True
            answer = child.ask(message, self._synth_timeout)
            if not answer.get("ok"):
                raise LineRefused(
                    "engine",
                    _(
                        "The speech engine failed on a line ({error}); "
                        "showing captions only for it."
                    ).format(error=answer.get("error")),
                )
            return trim_silence(read_pcm(raw))
        finally:
            raw.unlink(missing_ok=True)

    def _hung_fault(self) -> SpeechFault:
        return SpeechFault(
            "synthesis",
            _(
                "Speech is off: the speech engine keeps hanging. Showing captions "
                "only; restart the app to try again."
            ),
            permanent=True,
        )
