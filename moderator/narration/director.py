"""Runs scripts on one background thread: captions, exact pauses, cancel.

The director is the only place that knows about time. It posts a caption as
each line's audio starts, counts a pause from the moment the previous audio
ended (`time.monotonic`, so a late wake-up never lengthens the eyes-open
window), reports whole seconds left, and checks for cancellation at every
wait. Every wait is bounded: synthesis by `SYNTHESIS_BOUND`, playback by the
speaker's own bound, pauses by their length. Speech faults never stop a
script: the line continues as a caption with its estimated duration.

A newer script never cuts a line mid-word: it supersedes the running one,
which ends at its next line boundary (the line being spoken finishes, its
pauses and later lines are dropped). Only `cancel()`, the user's own stop,
silences at once. Measured before: a knock-out that ended the game had its
"<name> is knocked out." cut 17 ms after it began by the finale.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path

from moderator.narration.events import (
    AmbienceSpan,
    Countdown,
    Finished,
    LineStarted,
    NarrationEvent,
    Notice,
    SpeechFaulted,
    marker_for,
)
from moderator.narration.scripts import Action, Bed, Line, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.span_mix import SpanClip, mixed_span
from moderator.narration.speaker import Clip, Speaker, SpeechFault, estimate_duration

log = logging.getLogger(__name__)

#: Longest the director waits for one line's audio: past it the line goes on as a
#: caption (the engine's own bound is the same; a healthy line takes ~20 ms).
SYNTHESIS_BOUND = 3.5
#: How often a wait on synthesis looks at the cancel flag.
_POLL = 0.02
#: Longest the director waits for a mixed span's audio to start before timing it anyway.
SPAN_START_BOUND = 5.0

EventSink = Callable[[NarrationEvent], None]


@dataclass
class Job:
    """One `play()` call."""

    actions: list[Action]
    on_event: EventSink
    #: Stop at once (the user's stop): audio killed mid-line.
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: A newer script is waiting: end after the line being spoken.
    superseded: threading.Event = field(default_factory=threading.Event)
    #: Set with either of the two, so a wait wakes for both.
    wake: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        """Stop at once."""
        self.cancelled.set()
        self.wake.set()

    def supersede(self) -> None:
        """End at the next line boundary."""
        self.superseded.set()
        self.wake.set()

    @property
    def ending(self) -> bool:
        """Whether the job should start nothing new."""
        return self.wake.is_set()


class NoticeBoard:
    """Remembers which missing parts the table was told about, so each is told once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._told: set[str] = set()
        self._pending: list[SpeechFault] = []
        #: Every notice so far, for `Narrator.warnings`.
        self.messages: list[str] = []
        #: Every fault so far, in order, for watchers that arrive late.
        self.faults: list[SpeechFaulted] = []
        self._watchers: list[Callable[[SpeechFaulted], None]] = []

    def add(self, fault: SpeechFault) -> bool:
        """Record `fault`; True the first time its part goes missing."""
        event = SpeechFaulted(fault.part, fault.message, marker_for(fault.part))
        with self._lock:
            if fault.part in self._told:
                return False
            self._told.add(fault.part)
            self.messages.append(fault.message)
            self.faults.append(event)
            watchers = list(self._watchers)
        for watcher in watchers:
            _safe_call(watcher, event)
        return True

    def watch(self, watcher: Callable[[SpeechFaulted], None]) -> None:
        """Call `watcher` with every fault, those already told first (any thread)."""
        with self._lock:
            self._watchers.append(watcher)
            earlier = list(self.faults)
        for event in earlier:
            _safe_call(watcher, event)

    def defer(self, fault: SpeechFault) -> None:
        """Record a fault found at start-up, to be told at the next play."""
        if self.add(fault):
            with self._lock:
                self._pending.append(fault)

    def take_pending(self) -> list[SpeechFault]:
        """Start-up faults not yet told to a listener."""
        with self._lock:
            pending, self._pending = self._pending, []
        return pending


class Director:
    """Owns the narration thread; `submit` and `cancel` return at once."""

    def __init__(
        self,
        speaker: Speaker,
        settings: Callable[[], VoiceSettings],
        notices: NoticeBoard,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._speaker = speaker
        self._settings = settings
        self._notices = notices
        self._scale = max(0.0, time_scale)
        self._clock = clock
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._current: Job | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="mindflayer-narration", daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> None:
        """Queue `job`; the running script ends once its current line is spoken."""
        with self._lock:
            if self._closed:
                _emit(job.on_event, Finished(cancelled=True))
                return
            self._supersede_locked()
            self._current = job
            self._jobs.put(job)

    def cancel(self) -> None:
        """Silence at once and end the running script (it reports Finished(cancelled=True))."""
        with self._lock:
            self._cancel_locked()

    def silence(self) -> None:
        """Stop the audio but keep the script's captions and timing (mute)."""
        self._speaker.stop()

    def close(self, timeout: float = 2.0) -> None:
        """Cancel, stop the thread (bounded) and release the speaker."""
        with self._lock:
            self._closed = True
            self._cancel_locked()
            self._jobs.put(None)
        self._thread.join(timeout)
        self._speaker.close()

    def _cancel_locked(self) -> None:
        # Older queued jobs were superseded when this one was submitted: they
        # end without starting anything.
        if self._current is not None:
            self._current.cancel()
        self._speaker.stop()

    def _supersede_locked(self) -> None:
        if self._current is not None:
            self._current.supersede()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                cancelled = self._run(job)
            except Exception:  # a bug here must not kill narration for the session
                log.exception("narration failed")
                cancelled = job.ending
            _emit(job.on_event, Finished(cancelled=cancelled))

    def _run(self, job: Job) -> bool:
        if job.ending:
            return True
        if self._settings().enabled:
            for fault in self._notices.take_pending():
                _emit(job.on_event, Notice(fault.message))
        prepared = self._prefetch(job.actions)
        actions = job.actions
        mixes = self._premix(actions, prepared)
        audio_end: float | None = None
        silent_bed = False  # a span whose bed cannot be heard is open
        index = 0
        while index < len(actions):
            if job.ending:
                break
            action = actions[index]
            index += 1
            if isinstance(action, Line):
                audio_end = self._say(job, action, prepared.get(index - 1))
            elif isinstance(action, Wait):
                start = audio_end if audio_end is not None else self._clock()
                self._pause(job, action.seconds, start)
                audio_end = None
            elif isinstance(action, Bed) and action.start and not silent_bed:
                stop = _span_end(actions, index)
                mixing = mixes.get(index)
                played = self._play_span(job, actions, range(index, stop), prepared, mixing)
                if played is not None:
                    audio_end, index = played, stop + 1
                else:  # line by line, captions and timing as usual, the bed unheard
                    silent_bed = True
                    _emit(job.on_event, AmbienceSpan(started=True, audible=False))
            elif isinstance(action, Bed) and not action.start and silent_bed:
                silent_bed = False
                _emit(job.on_event, AmbienceSpan(started=False, audible=False))
        if silent_bed:  # the span ended with the script (or its cancel)
            _emit(job.on_event, AmbienceSpan(started=False, audible=False))
        return job.ending

    def _play_span(
        self,
        job: Job,
        actions: list[Action],
        indexes: range,
        prepared: dict[int, tuple[tuple[str, int, float], Future[Clip]]],
        mixing: Future[SpanClip] | None = None,
    ) -> float | None:
        """Play an eyes-closed span as one mixed clip; the moment it ended, or None.

        None (nothing played) when the bed cannot be heard: muted, ambience off,
        or a line without audio (captions only); the caller then runs the
        span line by line. Captions and countdowns keep the usual timing,
        taken from the offsets the span was mixed with.
        """
        settings = self._settings()
        if not settings.enabled or settings.bed_level <= 0:
            return None
        parts: list[Clip | float] = []
        for index in indexes:
            action = actions[index]
            if isinstance(action, Wait):
                parts.append(action.seconds)
            elif isinstance(action, Line):
                ready = prepared.get(index)
                clip = self._await(job, ready[1], action, settings) if ready else None
                if clip is None or clip.path is None or job.ending:
                    return None
                parts.append(clip)
        clips = [part for part in parts if isinstance(part, Clip) and part.path is not None]
        if not clips or clips[0].path is None:
            return None
        try:
            span = self._mixed(job, mixing, parts, settings.bed_level, clips[0].path.parent)
            if span is None:
                return None
        except (OSError, ValueError) as error:
            self._tell(job, SpeechFault("cache", f"Could not mix the ambience ({error})."))
            return None
        return self._run_span(job, actions, indexes, span)

    def _premix(
        self,
        actions: list[Action],
        prepared: dict[int, tuple[tuple[str, int, float], Future[Clip]]],
    ) -> dict[int, Future[SpanClip]]:
        """Start mixing each span in the background, so the lines before it hide the cost.

        Mixing a span the first time costs CPU (about 0.1 s per second of audio
        measured on 2 busy cores); the Meeting's span starts after two lines,
        which is enough to hide most of it. Keyed by the index after the bed mark.
        """
        settings = self._settings()
        mixes: dict[int, Future[SpanClip]] = {}
        if not settings.enabled or settings.bed_level <= 0:
            return mixes
        for index, action in enumerate(actions):
            if not (isinstance(action, Bed) and action.start):
                continue
            indexes = range(index + 1, _span_end(actions, index + 1))
            if any(isinstance(actions[i], Line) and i not in prepared for i in indexes):
                continue
            future: Future[SpanClip] = Future()
            threading.Thread(
                target=_build_span,
                args=(actions, indexes, prepared, settings.bed_level, future),
                name="mindflayer-mix",
                daemon=True,
            ).start()
            mixes[index + 1] = future
        return mixes

    def _mixed(
        self,
        job: Job,
        mixing: Future[SpanClip] | None,
        parts: list[Clip | float],
        level: float,
        folder: Path,
    ) -> SpanClip | None:
        """The background mix when it is of these parts, else one made now (None: cancelled)."""
        if mixing is not None:
            while not mixing.done():
                if job.ending:
                    return None
                wait_futures([mixing], timeout=_POLL * 5)
            if mixing.exception() is None and mixing.result().parts == tuple(parts):
                return mixing.result()
        return mixed_span(parts, level, folder)

    def _run_span(self, job: Job, actions: list[Action], indexes: range, span: SpanClip) -> float:
        """Play `span` on a helper thread; post its captions and countdowns at their offsets."""
        started = threading.Event()
        start_at: list[float] = []
        faults: list[SpeechFault] = []

        def on_start() -> None:
            if job.cancelled.is_set() or not self._settings().enabled:
                self._speaker.stop()
            if not start_at:
                start_at.append(self._clock())
                started.set()

        def play() -> None:
            try:
                self._speaker.play(span.clip, on_start)
            except SpeechFault as fault:
                faults.append(fault)
            except Exception as error:
                faults.append(SpeechFault("player", f"Sound playback failed ({error})."))
            finally:
                started.set()

        player = threading.Thread(target=play, name="mindflayer-span", daemon=True)
        player.start()
        started.wait(SPAN_START_BOUND)
        begin = start_at[0] if start_at else self._clock()
        for fault in faults:
            self._tell(job, fault)
        audible = not faults
        _emit(job.on_event, AmbienceSpan(started=True, audible=audible))
        for part, index in enumerate(indexes):
            action = actions[index]
            at = begin + span.starts[part] * self._scale
            if isinstance(action, Line):
                self._sleep_until(job, at)
                if job.ending:
                    break
                _emit(job.on_event, LineStarted(action.text))
                # A started line is always finished, even when a newer script waits.
                self._sleep_until(job, begin + span.ends[part] * self._scale, hard_only=True)
            elif isinstance(action, Wait):
                self._pause(job, action.seconds, at)
            if job.ending:
                break
        end = begin + span.clip.duration * self._scale
        if job.ending:
            self._speaker.stop()
            end = self._clock()
        else:
            self._sleep_until(job, end, hard_only=True)
        player.join(timeout=SPAN_START_BOUND)
        _emit(job.on_event, AmbienceSpan(started=False, audible=audible))
        return end

    def _prefetch(
        self, actions: list[Action]
    ) -> dict[int, tuple[tuple[str, int, float], Future[Clip]]]:
        """Ask for every line's audio up front, so line N+1 is ready when N ends."""
        settings = self._settings()
        prepared: dict[int, tuple[tuple[str, int, float], Future[Clip]]] = {}
        if not settings.enabled:
            return prepared
        key = (settings.rate, settings.volume)
        for index, action in enumerate(actions):
            if isinstance(action, Line):
                future = self._synthesize(action, settings)
                prepared[index] = ((action.voice, *key), future)
        return prepared

    def _synthesize(self, line: Line, settings: VoiceSettings) -> Future[Clip]:
        try:
            return self._speaker.synthesize(line.text, line.voice, settings.rate, settings.volume)
        except Exception as error:  # a speaker must not raise here, but never trust it
            future: Future[Clip] = Future()
            future.set_exception(
                error
                if isinstance(error, SpeechFault)
                else SpeechFault("engine", f"The speech engine failed ({error}); captions only.")
            )
            return future

    def _say(
        self,
        job: Job,
        line: Line,
        prepared: tuple[tuple[str, int, float], Future[Clip]] | None,
    ) -> float:
        """Speak one line; return the moment its audio ended."""
        settings = self._settings()
        clip: Clip | None = None
        if settings.enabled:
            wanted = (line.voice, settings.rate, settings.volume)
            if prepared is not None and prepared[0] == wanted:
                future = prepared[1]
            else:
                future = self._synthesize(line, settings)
            clip = self._await(job, future, line, settings)
            if job.ending:
                return self._clock()
        if clip is None:
            clip = Clip(line.text, estimate_duration(line.text, settings.rate))

        started: list[float] = []

        def on_start() -> None:
            if job.cancelled.is_set() or not self._settings().enabled:
                self._speaker.stop()  # cancelled or muted while the player was starting
            if not started:
                started.append(self._clock())
                _emit(job.on_event, LineStarted(line.text))

        if clip.path is not None and self._settings().enabled:
            try:
                self._speaker.play(clip, on_start)
            except SpeechFault as fault:
                self._tell(job, fault)
            except Exception as error:
                self._tell(job, SpeechFault("player", f"Sound playback failed ({error})."))
        played_until = self._clock()
        if job.cancelled.is_set():
            return played_until
        on_start()
        end = started[0] + clip.duration * self._scale
        self._sleep_until(job, end, hard_only=True)  # a started line is always finished
        return max(end, played_until)

    def _await(
        self,
        job: Job,
        future: Future[Clip],
        line: Line | None = None,
        settings: VoiceSettings | None = None,
    ) -> Clip | None:
        """The clip, or None (captions only) on a fault, a timeout or a cancel.

        A voice the engine lacks (a user's language.toml) is told once, naming
        it, and the line is spoken with the language's shipped voice instead:
        never silently in another language.
        """
        deadline = self._clock() + SYNTHESIS_BOUND
        while not future.done():
            if job.ending:
                return None
            remaining = deadline - self._clock()
            if remaining <= 0:
                self._tell(
                    job,
                    SpeechFault(
                        "synthesis",
                        "The speech engine did not answer in time; showing captions only.",
                    ),
                )
                return None
            wait_futures([future], timeout=min(_POLL, remaining))
        error = future.exception()
        if error is None:
            return future.result()
        if (
            isinstance(error, SpeechFault)
            and error.part.startswith("voice:")
            and line is not None
            and settings is not None
            and line.fallback_voice
        ):
            fallback = line.fallback_voice
            self._tell(
                job,
                SpeechFault(error.part, f"{error.message} Using the shipped voice {fallback!r}."),
            )
            return self._await(job, self._synthesize(Line(line.text, fallback), settings))
        if isinstance(error, SpeechFault):
            self._tell(job, error)
        else:
            self._tell(job, SpeechFault("engine", f"The speech engine failed ({error})."))
        return None

    def _pause(self, job: Job, seconds: float, start: float) -> None:
        """Wait `seconds` from `start`, reporting whole seconds left."""
        end = start + seconds * self._scale
        if seconds >= 1:
            for left in range(math.ceil(seconds - 1e-9), 0, -1):
                self._sleep_until(job, start + (seconds - left) * self._scale)
                if job.ending:
                    return
                _emit(job.on_event, Countdown(left))
            self._sleep_until(job, end)
            if not job.ending:
                _emit(job.on_event, Countdown(0))
        else:
            self._sleep_until(job, end)

    def _sleep_until(self, job: Job, moment: float, hard_only: bool = False) -> None:
        remaining = moment - self._clock()
        if remaining > 0:
            (job.cancelled if hard_only else job.wake).wait(remaining)

    def _tell(self, job: Job, fault: SpeechFault) -> None:
        if self._notices.add(fault):
            _emit(job.on_event, Notice(fault.message))


def _build_span(
    actions: list[Action],
    indexes: range,
    prepared: dict[int, tuple[tuple[str, int, float], Future[Clip]]],
    level: float,
    result: Future[SpanClip],
) -> None:
    """Wait (bounded) for a span's clips and mix them; any trouble leaves it to the director."""
    try:
        parts: list[Clip | float] = []
        for index in indexes:
            action = actions[index]
            if isinstance(action, Wait):
                parts.append(action.seconds)
            elif isinstance(action, Line):
                clip = prepared[index][1].result(timeout=SYNTHESIS_BOUND)
                if clip.path is None:
                    raise ValueError("a line without audio")
                parts.append(clip)
        first = next(p for p in parts if isinstance(p, Clip))
        assert first.path is not None
        result.set_result(mixed_span(parts, level, first.path.parent))
    except Exception as error:  # the director mixes (or falls back) itself
        result.set_exception(error)


def _span_end(actions: list[Action], start: int) -> int:
    """The index of the bed's stop mark at or after `start` (the end when there is none)."""
    for index in range(start, len(actions)):
        action = actions[index]
        if isinstance(action, Bed) and not action.start:
            return index
    return len(actions)


def _safe_call(watcher: Callable[[SpeechFaulted], None], event: SpeechFaulted) -> None:
    try:
        watcher(event)
    except Exception:
        log.exception("speech fault watcher failed on %r", event)


def _emit(on_event: EventSink, event: NarrationEvent) -> None:
    """Deliver an event; a failing listener must not stop the narration thread."""
    try:
        on_event(event)
    except Exception:
        log.exception("narration listener failed on %r", event)
