"""Runs scripts on one background thread: captions, exact pauses, cancel.

The director is the only place that knows about time. It posts a caption as each line's
audio starts, counts a pause from the moment the previous audio ended (on its `Timing`'s
clock, `time.monotonic` in the app, so a late wake-up never lengthens the eyes-open
window), reports whole seconds left, and checks for cancellation at every wait. Every wait
is bounded: synthesis by `SYNTHESIS_BOUND` (real time, `synthesis`), playback by the speaker's own
bound, pauses by their length. Speech faults never stop a script: the line goes on as a
caption with its estimated duration.

A newer script never cuts a line mid-word: it supersedes the running one, which ends at its
next line boundary (the line being spoken finishes, its pauses and later lines are dropped).
Only `cancel()`, the user's own stop, silences at once (a finale must not cut the knock-out
line that ended the game: docs/measurements.md).

Every clip reaches the player at the one loudness, with the settings' lead-in of silence
before it (a line: `lead_in`; a span: mixed in), so a slow sink eats silence, not a word; a
line after a pause is started that much earlier, so the table hears it when the script says.
A script prepared before its key (`prepare`) plays from the finished clips and mixes:
nothing is synthesized on the key's path.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future

from moderator.i18n import _
from moderator.narration.audio.lead_in import led_in
from moderator.narration.audio.span_mix import SpanClip
from moderator.narration.events import AmbienceSpan, Finished, LineStarted, Notice
from moderator.narration.job import Job, Pacer, Timing, emit
from moderator.narration.notices import PLAYER_PARTS, NoticeBoard
from moderator.narration.preparation import Mixes, Preparer
from moderator.narration.scripts.library import Action, Bed, Line, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.span_player import Prepared, SpanPlayer, span_end, span_parts
from moderator.narration.speech.speaker import Clip, Speaker, SpeechFault, estimate_duration
from moderator.narration.synthesis import SYNTHESIS_BOUND, Synthesis

log = logging.getLogger(__name__)

#: Longest a preparation waits for one line: no one waits for it, so a slow start
#: (the engine's child starting on a loaded machine) does not make it give up.
PREPARE_BOUND = 30.0


class Director:
    """Owns the narration thread; `submit` and `cancel` return at once."""

    def __init__(
        self,
        speaker: Speaker,
        settings: Callable[[], VoiceSettings],
        notices: NoticeBoard,
        time_scale: float = 1.0,
        timing: Timing | None = None,
    ) -> None:
        self._speaker = speaker
        self._settings = settings
        self._notices = notices
        self._synthesis = Synthesis(speaker, notices)
        self._scale = max(0.0, time_scale)
        self._pacer = Pacer(timing or Timing(), self._scale)
        self._clock = self._pacer.clock
        self._spans = SpanPlayer(
            speaker,
            settings,
            self._pacer,
            self._synthesis.tell,
            self._player_failed,
            SYNTHESIS_BOUND,
        )
        self._preparer = Preparer(self._start_preparing, settings, PREPARE_BOUND)
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
                emit(job.on_event, Finished(cancelled=True))
                return
            self._supersede_locked()
            self._current = job
            self._jobs.put(job)

    def prepare(self, actions: list[Action]) -> Future[bool]:
        """Build `actions`' clips and mixes in the background; returns at once.

        The future says whether all of it is ready (False: cancelled, or a part
        the play will make itself). A play of the same actions with the same
        settings, even one that comes before it is done, uses its parts.
        """
        return self._preparer.submit(actions)

    def settings_changed(self) -> None:
        """What was prepared is for the old settings: cancel and forget it."""
        self._preparer.stale()

    def _start_preparing(
        self, actions: list[Action], cancelled: threading.Event
    ) -> tuple[Prepared, Mixes]:
        prepared = self._prefetch(actions)
        return prepared, self._spans.premix(actions, prepared, cancelled, PREPARE_BOUND)

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
        self._preparer.close(timeout)
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
            emit(job.on_event, Finished(cancelled=cancelled))

    def _run(self, job: Job) -> bool:
        if job.ending:
            return True
        if self._settings().enabled:
            for fault in self._notices.take_pending():
                emit(job.on_event, Notice(fault.message))
        actions = job.actions
        ready = self._preparer.ready(actions, self._settings())
        if ready is not None:  # prepared before the key: its clips and mixes, as they are
            prepared, mixes = ready.clips, ready.mixes
        else:
            prepared = self._prefetch(actions)
            mixes = self._spans.premix(actions, prepared)
        audio_end: float | None = None
        due: float | None = None  # when the line after a pause is to be heard
        silent_bed = False  # a span whose bed cannot be heard is open
        index = 0
        while index < len(actions):
            if job.ending:
                break
            action = actions[index]
            index += 1
            if isinstance(action, Line):
                audio_end = self._say(job, action, prepared.get(index - 1), due)
                due = None
            elif isinstance(action, Wait):
                start = audio_end if audio_end is not None else self._clock()
                # A line's stream starts its lead-in early, so its first word is on time.
                early = index < len(actions) and isinstance(actions[index], Line)
                if early:
                    self._ready_sound(job, prepared.get(index))
                lead = self._settings().lead_in * self._scale if early else 0.0
                self._pacer.pause(job, action.seconds, start - lead)
                due = start + action.seconds * self._scale if early else None
                audio_end = None
            elif isinstance(action, Bed) and action.start and not silent_bed:
                stop = span_end(actions, index)
                mixing = mixes.get(index)
                played = self._play_span(job, actions, range(index, stop), prepared, mixing)
                if played is not None:
                    audio_end, index = played, stop + 1
                else:  # line by line, captions and timing as usual, the bed unheard
                    silent_bed = True
                    emit(job.on_event, AmbienceSpan(started=True, audible=False))
            elif isinstance(action, Bed) and not action.start and silent_bed:
                silent_bed = False
                emit(job.on_event, AmbienceSpan(started=False, audible=False))
        if silent_bed:  # the span ended with the script (or its cancel)
            emit(job.on_event, AmbienceSpan(started=False, audible=False))
        return job.ending

    def _play_span(
        self,
        job: Job,
        actions: list[Action],
        indexes: range,
        prepared: Prepared,
        mixing: Future[SpanClip] | None = None,
    ) -> float | None:
        """Play an eyes-closed span as one mixed clip; the moment it ended, or None.

        None (nothing played) when the bed cannot be heard: muted, ambience off,
        or a line without audio (captions only); the caller then runs the
        span line by line. Captions and countdowns keep the usual timing,
        taken from the offsets the span was mixed with.
        """
        settings = self._settings()
        if not settings.enabled or settings.bed_level <= 0 or job.player_fault is not None:
            return None

        def clip_of(index: int, line: Line) -> Clip | None:
            ready = prepared.get(index)
            clip = self._synthesis.await_clip(job, ready[1], line, settings) if ready else None
            return None if job.ending else clip

        parts = span_parts(actions, indexes, clip_of)
        if parts is None:
            return None
        shape = (settings.bed_level, settings.lead_in)
        end = self._spans.perform(job, actions, indexes, parts, shape, mixing)
        if end is not None and job.player_fault is None and not job.cancelled.is_set():
            self._notices.recovered(PLAYER_PARTS)  # the whole span played
        return end

    def _prefetch(self, actions: list[Action]) -> Prepared:
        """Ask for every line's audio up front, so line N+1 is ready when N ends."""
        settings = self._settings()
        prepared: Prepared = {}
        if not settings.enabled:
            return prepared
        key = (settings.rate, settings.volume)
        for index, action in enumerate(actions):
            if isinstance(action, Line):
                future = self._synthesis.synthesize(action, settings)
                prepared[index] = ((action.voice, *key), future)
        return prepared

    def _say(
        self,
        job: Job,
        line: Line,
        prepared: tuple[tuple[str, int, float], Future[Clip]] | None,
        due: float | None = None,
    ) -> float:
        """Speak one line (heard at `due` when given); return the moment its audio ended."""
        settings = self._settings()
        clip: Clip | None = None
        if settings.enabled:
            wanted = (line.voice, settings.rate, settings.volume)
            if prepared is not None and prepared[0] == wanted:
                future = prepared[1]
            else:
                future = self._synthesis.synthesize(line, settings)
            clip = self._synthesis.await_clip(job, future, line, settings)
            if job.ending:
                return self._clock()
        if clip is None:
            clip = Clip(line.said, estimate_duration(line.said, settings.rate))
        sound, lead = self._sound(job, clip)
        if due is not None:  # after a pause: the stream starts its lead-in before the line
            self._pacer.sleep_until(job, due - lead * self._scale)
            if job.ending:
                return self._clock()

        started: list[float] = []

        def on_start() -> None:
            if job.cancelled.is_set() or not self._settings().enabled:
                self._speaker.stop()  # cancelled or muted while the player was starting
            if not started:
                started.append(self._clock())
                emit(job.on_event, LineStarted(line.text))

        if sound is not None:
            self._play(job, sound, on_start)
        played_until = self._clock()
        if job.cancelled.is_set():
            return played_until
        on_start()
        end = started[0] + (sound or clip).duration * self._scale
        self._pacer.sleep_until(job, end, hard_only=True)  # a started line is always finished
        return max(end, played_until)

    def _sound(self, job: Job, clip: Clip) -> tuple[Clip | None, float]:
        """What the player gets for `clip` (None: nothing to play) and its lead-in in seconds.

        A leveled, led-in file that cannot be written only costs that: the clip plays as it is.
        """
        settings = self._settings()
        if clip.path is None or not settings.enabled or job.player_fault is not None:
            return None, 0.0
        try:
            sound = led_in(clip, settings.lead_in)
        except (OSError, ValueError):
            log.warning("no lead-in for %s", clip.path, exc_info=True)
            return clip, 0.0
        return sound, sound.duration - clip.duration

    def _ready_sound(self, job: Job, prepared: tuple[object, Future[Clip]] | None) -> None:
        """Level the next line as a pause begins (the pause ends at a set moment): leveled
        after it, in `_say`, the line after the eyes-open window was late by that time."""
        if prepared is not None and prepared[1].done() and prepared[1].exception() is None:
            self._sound(job, prepared[1].result())  # `led_in` caches the file for `_say`

    def _play(self, job: Job, clip: Clip, on_start: Callable[[], None]) -> None:
        """Play one clip; a player fault is told and skips the player for the rest of the job."""
        try:
            self._speaker.play(clip, on_start)
        except Exception as error:
            self._player_failed(job, error)
            return
        if not job.cancelled.is_set() and self._settings().enabled:
            self._notices.recovered(PLAYER_PARTS)

    def _player_failed(self, job: Job, error: BaseException) -> None:
        """Tell a playback fault (any thread) and skip the player for the rest of `job`."""
        if not isinstance(error, SpeechFault):
            error = SpeechFault("player", _("Sound playback failed ({error}).").format(error=error))
        if error.part in PLAYER_PARTS:
            job.player_fault = error
        self._synthesis.tell(job, error)
