"""What every synthesis engine shares: one owner thread, one child at a time, cached clips.

A synthesizer turns a line into a clip and nothing else: playing it is a
player's job (`players`), choosing the engine per line is `engines`'. Each
engine (pyttsx3 with the platform's driver, Piper) subclasses `ClipSynthesizer`
and says only how to start its child process and how to render one line with
it; the skeleton here does the rest, once for both:

* `synthesize` never blocks: a cached line is a finished Future (one WAV
  header read), anything else is queued for the owner thread;
* the owner thread handles one line at a time, in order, with the engine's
  child for that line's settings (a child started with other settings is
  ended first), and stores every clip atomically in the cache;
* a line the child refused (`LineRefused`) leaves the child running; any other
  fault ends it, and the next line starts a new one; the line whose child died
  is tried once more with a new child, so a crash loses no line; a fault marked
  permanent, or `MAX_HUNG_LINES` hung lines in a row, turns the engine off for
  the session;
* `close` ends the child from any thread (unblocking the owner) and then joins.
"""

from __future__ import annotations

import queue
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from moderator.i18n import _
from moderator.narration.audio.wavfile import Pcm, write_pcm_atomic
from moderator.narration.speech.clip_cache import cached_clip, usable_cache
from moderator.narration.speech.speaker import Clip, SpeechFault

#: After this many hung lines in a row, the engine is off for the session.
MAX_HUNG_LINES = 2
#: Bound on joining the owner thread at `close`.
CLOSE_BOUND = 2.0

T = TypeVar("T")


class LineRefused(SpeechFault):
    """The engine could not make this one line, but its child is healthy: keep it."""


class Child(Protocol):
    """An engine's child process as the skeleton needs it."""

    def terminate(self) -> None:
        """Kill the child at once; safe from any thread."""
        ...

    def kill(self) -> None:
        """Kill the child, close its pipes and reap it (bounded); owner thread only."""
        ...


ChildT = TypeVar("ChildT", bound=Child)


class Synthesizer(Protocol):
    """Turns a line into a clip; what `engines.ChoosingSpeaker` needs of an engine."""

    def problems(self) -> list[SpeechFault]:
        """Why this engine cannot speak at all (empty when it may)."""
        ...

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """A future clip; never blocks. The future may hold a SpeechFault."""
        ...

    def close(self) -> None:
        """End the engine's child and thread (bounded)."""
        ...


@dataclass
class Request:
    """One line to synthesize, and where its clip goes."""

    text: str
    voice: str
    rate: int
    volume: float
    path: Path
    future: Future[Clip]
    #: Already tried once with a child that died: the next fault is final.
    retried: bool = False


Job = Request | Callable[[], None] | None


class ClipSynthesizer(ABC, Generic[ChildT]):
    """The owner thread, the child it owns and the clip cache; see the module docstring.

    Subclasses implement `cache_path`, `_child_key`, `_start_child`, `_render`
    and `_hung_fault` (and may `_known_fault`), and call `_start()` at the end of their `__init__`.
    """

    #: The owner thread's name (seen in thread dumps and the tests).
    thread_name = "mindflayer-synthesis"

    def __init__(
        self,
        cache_dir: Path,
        warm_up: Callable[[], object] | None = None,
        warm_up_delay: float = 0.0,
    ) -> None:
        """Args:
        cache_dir: The app's cache folder (clips go to its `speech` folder).
        warm_up: Run on the owner thread when no line comes within
            `warm_up_delay` (starts the child, so the first line is quick).
        warm_up_delay: Seconds the warm-up waits, so the app's first frame gets
            the CPU first.
        """
        self.cache_dir = Path(cache_dir)
        self._cache = usable_cache(self.cache_dir / "speech")
        self._broken: SpeechFault | None = None
        self._child: ChildT | None = None
        self._child_for: Hashable = None
        self._hung_lines = 0
        self._warm_up = warm_up
        self._warm_up_delay = warm_up_delay
        self._jobs: queue.Queue[Job] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def _start(self) -> None:
        self._thread.start()

    # -- what each engine says ------------------------------------------------

    @abstractmethod
    def cache_path(self, text: str, voice: str, rate: int, volume: float) -> Path:
        """Where the clip for this line and these settings is cached."""

    @abstractmethod
    def _child_key(self, request: Request) -> Hashable:
        """The settings a child is started with; a line with other ones needs a new child."""

    @abstractmethod
    def _start_child(self, key: Hashable) -> ChildT:
        """Start a child for `key` (owner thread; bounded). Raises SpeechFault."""

    @abstractmethod
    def _render(self, child: ChildT, request: Request) -> Pcm:
        """The line's audio, made by `child` (owner thread; bounded). Raises SpeechFault."""

    @abstractmethod
    def _hung_fault(self) -> SpeechFault:
        """The permanent fault after `MAX_HUNG_LINES` hung lines in a row."""

    def _known_fault(self, request: Request) -> SpeechFault | None:
        """A fault this line is known to meet (no child start for it), or None."""
        return None

    # -- the caller's side ------------------------------------------------------

    def problems(self) -> list[SpeechFault]:
        """Why this engine cannot speak (empty when it may)."""
        return [self._broken] if self._broken is not None else []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """A future clip; already done when the line is cached or the engine is off."""
        future: Future[Clip] = Future()
        path = self.cache_path(text, voice, rate, volume)
        cached = cached_clip(text, path)
        if cached is not None:
            future.set_result(cached)
        elif self._broken is not None:
            future.set_exception(self._broken)
        else:
            self._jobs.put(Request(text, voice, int(rate), float(volume), path, future))
        return future

    def on_owner(self, task: Callable[[], T], timeout: float) -> T:
        """Run `task` on the owner thread (after the lines queued before it); its result.

        Raises:
            SpeechFault: what `task` raised (the child is then ended), or the engine is off.
            TimeoutError: the owner thread did not get to it within `timeout`.
        """
        result: Future[T] = Future()

        def run() -> None:
            try:
                result.set_result(task())
            except SpeechFault as fault:
                self._forget(fault)
                result.set_exception(fault)

        if self._broken is not None:
            raise self._broken
        self._jobs.put(run)
        return result.result(timeout=timeout)

    def close(self) -> None:
        """End the child and the owner thread (bounded)."""
        child = self._child
        if child is not None:
            child.terminate()  # unblocks the owner thread if it waits on the child
        self._jobs.put(None)
        self._thread.join(timeout=CLOSE_BOUND)
        child, self._child = self._child, None
        if child is not None and not self._thread.is_alive():
            child.kill()

    # -- the owner thread -------------------------------------------------------

    def child(self, key: Hashable) -> ChildT:
        """The child for `key`, replacing one started with other settings (owner thread)."""
        if self._broken is not None:
            raise self._broken
        if self._child is not None and self._child_for != key:
            self._child.kill()
            self._child = None
        if self._child is None:
            self._child = self._start_child(key)
            self._child_for = key
        return self._child

    def _run(self) -> None:
        job = self._first_job()
        while job is not None:
            if callable(job):
                job()
            else:
                self._handle(job)
            job = self._jobs.get()

    def _first_job(self) -> Job:
        """The first job; the warm-up runs first when none comes for `warm_up_delay`."""
        if self._warm_up is None:
            return self._jobs.get()
        try:
            return self._jobs.get(timeout=self._warm_up_delay)
        except queue.Empty:
            pass
        if self._broken is None:
            try:
                self._warm_up()
            except SpeechFault as fault:
                self._forget(fault)
        return self._jobs.get()

    def _worth_retrying(self, request: Request, fault: SpeechFault) -> bool:
        """Whether a line whose child died gets one more try with a new child.

        Not a hung line (it already cost its bound), not a permanent fault, not twice.
        """
        return not (request.retried or fault.permanent or fault.part == "synthesis")

    def _forget(self, fault: SpeechFault) -> None:
        """After a fault the child may be stuck or dead: end it; the next line starts anew."""
        if fault.permanent:
            self._broken = fault
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    def _handle(self, request: Request) -> None:
        cached = cached_clip(request.text, request.path)
        if cached is not None:
            request.future.set_result(cached)
            return
        known = self._known_fault(request)
        if known is not None:
            request.future.set_exception(known)
            return
        try:
            request.path.parent.mkdir(parents=True, exist_ok=True)
            pcm = self._render(self.child(self._child_key(request)), request)
            self._hung_lines = 0
            write_pcm_atomic(request.path, pcm)
            request.future.set_result(Clip(request.text, pcm.duration, request.path))
        except LineRefused as fault:
            request.future.set_exception(fault)
        except SpeechFault as fault:
            if fault.part == "synthesis":
                self._hung_lines += 1
                if self._hung_lines >= MAX_HUNG_LINES:
                    fault = self._hung_fault()
            self._forget(fault)
            if self._worth_retrying(request, fault):
                request.retried = True
                self._handle(request)  # a new child, once: the line is not lost
                return
            request.future.set_exception(fault)
        except (OSError, ValueError) as error:
            request.future.set_exception(
                SpeechFault(
                    "cache", _("Could not store synthesized speech ({error}).").format(error=error)
                )
            )
