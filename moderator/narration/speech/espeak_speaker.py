"""The real Speaker: pyttsx3 in a child process renders, the platform's player plays.

On Linux pyttsx3 drives espeak-ng; on macOS NSSS, on Windows SAPI5 (see
`platforms`).

One thread of the app (`mindflayer-speech-engine`) owns the synthesis child
(see `synth_worker` for why the engine lives in a child process) and handles
one line at a time, in order, so the engine only ever sees one item per
`runAndWait`. Each result is trimmed of the silence espeak adds around it and
stored atomically in the cache, keyed by (text, voice, rate, volume); a cached
line costs one file-header read. Nothing here blocks the caller: `synthesize`
returns a Future and the child starts in the background at construction.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moderator.narration.audio.wavfile import read_pcm, trim_silence, write_pcm_atomic
from moderator.narration.settings import DEFAULT_RATE
from moderator.narration.speech.child_process import LineReader, LineTimeout, end_child, kill_group
from moderator.narration.speech.clip_cache import cached_clip, usable_cache
from moderator.narration.speech.platforms import (
    LIBRARY_NAMES,
    EngineSetup,
    engine_check,
    engine_setup,
    library_missing,
    voice_missing,
)
from moderator.narration.speech.player import Player, platform_player
from moderator.narration.speech.speaker import Clip, SpeechFault

log = logging.getLogger(__name__)

#: Bump when the cached audio would differ for the same key (e.g. trimming rules).
CACHE_FORMAT = 1
START_TIMEOUT = 10.0
#: One line takes ~20 ms; a line still unanswered after this is a hung engine.
SYNTH_TIMEOUT = 3.0
#: After this many hung lines in a row, speech is turned off for the session.
MAX_HUNG_LINES = 2
#: espeak sometimes ignores the rate in a new process (see `synth_worker`): try again.
START_ATTEMPTS = 4
#: Seconds the engine waits before warming up, so the app's first frame gets the CPU first.
WARM_UP_DELAY = 1.0
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]


def default_worker_command() -> list[str]:
    """The synthesis child: this interpreter running `synth_worker`."""
    return [sys.executable, "-m", "moderator.narration.speech.synth_worker"]


def library_present(names: Sequence[str] = LIBRARY_NAMES) -> bool:
    """Whether espeak-ng can be loaded: the system's library, or the espeakng-loader one."""
    return engine_setup(library_names=names).fault is None


Voice = tuple[str, int, float]
"""(espeak voice, rate in words per minute, volume): fixed for one synthesis child."""


class WorkerClient:
    """The app's side of one synthesis child: start, ask with a bound, kill."""

    def __init__(
        self, command: Sequence[str], voice: Voice, start_timeout: float, driver: str = "espeak"
    ) -> None:
        self.voice = voice
        name, rate, volume = voice
        self._process = subprocess.Popen(
            [*command, "--voice", name, "--rate", str(rate), "--volume", str(volume)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
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
                "engine",
                f"Speech is off: the speech engine did not start ({fault.message}). "
                f"{engine_check(driver)} Showing captions only.",
                permanent=True,
            ) from fault
        #: The espeak library file the child loaded (Linux), for diagnostics and tests.
        self.library = ready.get("library")
        if not ready.get("ready"):
            self.kill()
            part = str(ready.get("part", "engine"))
            if part == "retry":
                raise SpeechFault("retry", f"The speech engine lost its settings: {ready}")
            if part == "voice":
                raise SpeechFault(f"voice:{name}", voice_missing(driver, name))
            if part == "library":
                raise SpeechFault("library", library_missing(driver), permanent=True)
            raise SpeechFault(
                "engine",
                f"Speech is off: the speech engine could not start ({ready.get('error')}). "
                f"{engine_check(driver)} Showing captions only.",
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
            raise SpeechFault("engine", f"The speech engine stopped ({error}).") from error
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
                "The speech engine did not answer in time; showing captions only for that line.",
            ) from None
        if line is None:
            raise SpeechFault("engine", "The speech engine stopped unexpectedly.")
        try:
            answer = json.loads(line)
        except ValueError as error:
            raise SpeechFault("engine", "The speech engine sent garbage.") from error
        return answer if isinstance(answer, dict) else {}

    def terminate(self) -> None:
        """Kill the child; safe from any thread (the owner then reads end-of-file)."""
        kill_group(self._process)

    def kill(self) -> None:
        """End the child at once, close its pipes and reap it (bounded); owner thread only."""
        end_child(self._process)


@dataclass
class _Request:
    text: str
    voice: str
    rate: int
    volume: float
    path: Path
    future: Future[Clip]


class EspeakSpeaker:
    """Speaker backed by espeak-ng (pyttsx3 in a child process) and aplay."""

    def __init__(
        self,
        cache_dir: Path,
        worker_command: Sequence[str] | None = None,
        player: Player | None = None,
        library_names: Sequence[str] = LIBRARY_NAMES,
        engine: EngineSetup | None = None,
        start_timeout: float = START_TIMEOUT,
        synth_timeout: float = SYNTH_TIMEOUT,
        warm_up: Voice = ("en-us", DEFAULT_RATE, 1.0),
        warm: bool = True,
        warm_up_delay: float = WARM_UP_DELAY,
    ) -> None:
        self._cache = usable_cache(Path(cache_dir) / "speech")
        self.engine = engine or engine_setup(library_names=library_names)
        self._command = [
            *(worker_command or default_worker_command()),
            *self.engine.worker_arguments(),
        ]
        self._player = player or platform_player()
        self._start_timeout = start_timeout
        self._warm_up = warm_up
        #: Start the engine at once (the app) or on the first uncached line (renders).
        self._warm = warm
        self._warm_up_delay = warm_up_delay
        self._synth_timeout = synth_timeout
        self._problems: list[SpeechFault] = []
        self._broken: SpeechFault | None = None
        if self.engine.fault is not None:
            self._broken = self.engine.fault
            self._problems.append(self._broken)
        player_fault = self._player.available()
        if player_fault is not None:
            self._problems.append(player_fault)
        self._jobs: queue.Queue[_Request | Callable[[], None] | None] = queue.Queue()
        self._worker: WorkerClient | None = None
        self._hung_lines = 0
        #: Voices the engine said it does not have, with that fault.
        self._bad_voices: dict[str, SpeechFault] = {}
        self._thread = threading.Thread(
            target=self._run, name="mindflayer-speech-engine", daemon=True
        )
        self._thread.start()

    # -- Speaker protocol -------------------------------------------------

    def problems(self) -> list[SpeechFault]:
        """Missing parts found at construction (library, player)."""
        return list(self._problems)

    def cache_path(self, text: str, voice: str, rate: int, volume: float) -> Path:
        """Where the clip for this (text, voice, rate, volume) is cached."""
        key = json.dumps(
            [CACHE_FORMAT, self.engine.driver, text, voice, int(rate), round(float(volume), 3)]
        )
        return self._cache / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.wav"

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """A future clip; already done when the line is cached."""
        future: Future[Clip] = Future()
        path = self.cache_path(text, voice, rate, volume)
        cached = cached_clip(text, path)
        if cached is not None:
            future.set_result(cached)
        elif self._broken is not None:
            future.set_exception(self._broken)
        else:
            self._jobs.put(_Request(text, voice, int(rate), float(volume), path, future))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        """Play the clip through aplay (bounded); a clip without audio just starts."""
        if clip.path is None:
            on_start()
            return
        self._player.play(clip.path, clip.duration, on_start)

    def stop(self) -> None:
        """Kill the playing audio at once."""
        self._player.stop()

    def close(self) -> None:
        """Stop the engine thread and its child (bounded)."""
        self._player.stop()
        worker = self._worker
        if worker is not None:
            worker.terminate()  # unblocks the engine thread if it waits on the child
        self._jobs.put(None)
        self._thread.join(timeout=2.0)
        worker, self._worker = self._worker, None
        if worker is not None and not self._thread.is_alive():
            worker.kill()

    # -- extras ------------------------------------------------------------

    def engine_library(self, timeout: float = START_TIMEOUT) -> str | None:
        """The espeak library file the synthesis child runs on (Linux; None elsewhere)."""
        result: Future[str | None] = Future()

        def ask() -> None:
            try:
                worker = self._ensure_worker(self._worker.voice if self._worker else self._warm_up)
                result.set_result(worker.library)
            except SpeechFault as fault:
                self._forget_worker(fault)
                result.set_exception(fault)

        self._jobs.put(ask)
        return result.result(timeout=timeout + self._synth_timeout)

    def voices(self, timeout: float = START_TIMEOUT) -> list[dict[str, Any]]:
        """The engine's voices (for `mindflayer voices`).

        Raises:
            SpeechFault: when the engine is missing or does not answer.
        """
        result: Future[list[dict[str, Any]]] = Future()

        def ask() -> None:
            try:
                worker = self._ensure_worker(self._worker.voice if self._worker else self._warm_up)
                answer = worker.ask({"op": "voices"}, self._synth_timeout)
                result.set_result(list(answer.get("voices", [])))
            except SpeechFault as fault:
                self._forget_worker(fault)
                result.set_exception(fault)

        if self._broken is not None:
            raise self._broken
        self._jobs.put(ask)
        return result.result(timeout=timeout + self._synth_timeout)

    # -- the engine thread ---------------------------------------------------

    def _run(self) -> None:
        job = self._first_job()
        while job is not None:
            if callable(job):
                job()
            else:
                self._handle(job)
            job = self._jobs.get()

    def _first_job(self) -> _Request | Callable[[], None] | None:
        """The first job; the engine is warmed up first if none comes for a moment.

        Starting the synthesis child costs a Python start and a pyttsx3 init
        (CPU the app needs for its first frame on a small machine), so the
        warm-up waits `warm_up_delay`; a line asked for sooner starts the
        child at once, as the warm-up would have.
        """
        if not self._warm:
            return self._jobs.get()
        try:
            return self._jobs.get(timeout=self._warm_up_delay)
        except queue.Empty:
            pass
        if self._broken is None:
            try:  # warm up, so the first line does not pay for the start-up
                self._ensure_worker(self._warm_up)
            except SpeechFault as fault:
                self._forget_worker(fault)
        return self._jobs.get()

    def _ensure_worker(self, voice: Voice) -> WorkerClient:
        """The child for `voice`, replacing one started with other settings."""
        if self._broken is not None:
            raise self._broken
        if self._worker is not None and self._worker.voice != voice:
            self._worker.kill()
            self._worker = None
        for attempt in range(1, START_ATTEMPTS + 1):
            if self._worker is not None:
                break
            try:
                self._worker = WorkerClient(
                    self._command, voice, self._start_timeout, self.engine.driver
                )
            except SpeechFault as fault:
                if fault.part != "retry":
                    raise
                if attempt == START_ATTEMPTS:
                    raise SpeechFault(
                        "engine",
                        "Speech is off: the speech engine keeps ignoring the speech rate. "
                        "Showing captions only.",
                        permanent=True,
                    ) from fault
        assert self._worker is not None
        return self._worker

    def _forget_worker(self, fault: SpeechFault) -> None:
        """After a fault the child may be stuck: end it; the next line starts a new one."""
        if fault.permanent:
            self._broken = fault
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.kill()

    def _handle(self, request: _Request) -> None:
        cached = cached_clip(request.text, request.path)
        if cached is not None:
            request.future.set_result(cached)
            return
        bad_voice = self._bad_voices.get(request.voice)
        if bad_voice is not None:  # known missing: no child start for every line
            request.future.set_exception(bad_voice)
            return
        raw = request.path.with_name(f".{request.path.stem}.{os.getpid()}.{id(self)}.raw.wav")
        try:
            request.path.parent.mkdir(parents=True, exist_ok=True)
            worker = self._ensure_worker((request.voice, request.rate, request.volume))
            answer = worker.ask(
                {"op": "synth", "text": request.text, "path": str(raw)}, self._synth_timeout
            )
            if not answer.get("ok"):
                # The engine raised on this line but the child is healthy: keep it.
                request.future.set_exception(
                    SpeechFault(
                        "engine",
                        f"The speech engine failed on a line ({answer.get('error')}); "
                        "showing captions only for it.",
                    )
                )
                return
            self._hung_lines = 0
            pcm = trim_silence(read_pcm(raw))
            write_pcm_atomic(request.path, pcm)
            request.future.set_result(Clip(request.text, pcm.duration, request.path))
        except SpeechFault as fault:
            if fault.part.startswith("voice:"):
                self._bad_voices[request.voice] = fault
            if fault.part == "synthesis":
                self._hung_lines += 1
                if self._hung_lines >= MAX_HUNG_LINES:
                    fault = SpeechFault(
                        "synthesis",
                        "Speech is off: the speech engine keeps hanging. Showing captions "
                        "only; restart the app to try again.",
                        permanent=True,
                    )
            self._forget_worker(fault)
            request.future.set_exception(fault)
        except (OSError, ValueError) as error:
            request.future.set_exception(
                SpeechFault("cache", f"Could not store synthesized speech ({error}).")
            )
        finally:
            raw.unlink(missing_ok=True)
