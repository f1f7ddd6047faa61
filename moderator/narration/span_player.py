"""Plays an eyes-closed span as one mixed clip, captions and countdowns at its offsets.

The ambience bed must run on under the pauses and duck at exact sample
offsets, so a span (its lines and pauses between two bed marks) is played as
the single WAV `span_mix` builds, and its captions and countdowns are posted
from the offsets it was mixed with, not from the player's progress. Mixing
starts in the background when the script starts (`premix`), so the lines
before the span hide its cost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from pathlib import Path

from moderator.i18n import N_, _
from moderator.narration.audio.span_mix import SpanClip, mixed_span
from moderator.narration.events import AmbienceSpan, LineStarted
from moderator.narration.job import Job, Pacer, emit
from moderator.narration.scripts.library import Action, Bed, Line, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.speaker import Clip, Speaker, SpeechFault

#: Longest the player waits for a mixed span's audio to start before timing it anyway.
SPAN_START_BOUND = 5.0
HUNG = N_(
    "The audio player stopped responding during the eyes-closed span and was ended; "
    "check the sound settings."
)
#: How often a wait on the background mix looks at the cancel flag.
_MIX_POLL = 0.1

#: Each line's voice settings and its clip to come, by the line's index in the script.
Prepared = dict[int, tuple[tuple[str, int, float], Future[Clip]]]


class SpanPlayer:
    """Mixes and plays the director's ambience spans on its thread (the span's own helper)."""

    def __init__(
        self,
        speaker: Speaker,
        settings: Callable[[], VoiceSettings],
        pacer: Pacer,
        tell: Callable[[Job, SpeechFault], None],
        player_failed: Callable[[Job, BaseException], None],
        synthesis_bound: float,
    ) -> None:
        """`tell` a fault once; `player_failed` tells a playback fault and skips the player."""
        self._speaker = speaker
        self._settings = settings
        self._pacer = pacer
        self._tell = tell
        self._player_failed = player_failed
        self._synthesis_bound = synthesis_bound

    def premix(
        self,
        actions: list[Action],
        prepared: Prepared,
        cancelled: threading.Event | None = None,
        bound: float | None = None,
    ) -> dict[int, Future[SpanClip]]:
        """Start mixing each span in the background, so the lines before it hide the cost.

        Mixing a span the first time costs CPU (about 0.1 s per second of audio
        measured on 2 busy cores); the Meeting's span starts after two lines,
        which is enough to hide most of it, and the reveal, which starts with
        its span, is prepared before its key (`preparation`). Keyed by the
        index after the bed mark; `cancelled` (set) leaves a mix not yet begun;
        `bound` is the wait for each clip (the synthesis bound when None).
        """
        settings = self._settings()
        level = settings.bed_level
        mixes: dict[int, Future[SpanClip]] = {}
        if not settings.enabled or level <= 0:
            return mixes
        for index, action in enumerate(actions):
            if not (isinstance(action, Bed) and action.start):
                continue
            indexes = range(index + 1, span_end(actions, index + 1))
            if any(isinstance(actions[i], Line) and i not in prepared for i in indexes):
                continue
            future: Future[SpanClip] = Future()
            threading.Thread(
                target=_build_span,
                args=(
                    actions,
                    indexes,
                    prepared,
                    (settings.bed_level, settings.lead_in),
                    self._synthesis_bound if bound is None else bound,
                    future,
                    cancelled,
                ),
                name="mindflayer-mix",
                daemon=True,
            ).start()
            mixes[index + 1] = future
        return mixes

    def perform(
        self,
        job: Job,
        actions: list[Action],
        indexes: range,
        parts: list[Clip | float],
        shape: tuple[float, float],
        mixing: Future[SpanClip] | None,
    ) -> float | None:
        """Play the span of `parts` (its clips all with audio); the moment it ended, or None.

        `shape` is the bed's level and the lead-in. None (nothing played) when
        it has no line, when cancelled while the mix is made, or when it
        cannot be mixed (told once).
        """
        folder = _cache_folder(parts)
        if folder is None:
            return None
        try:
            span = self._mixed(job, mixing, parts, shape, folder)
            if span is None:
                return None
        except (OSError, ValueError) as error:
            self._tell(
                job,
                SpeechFault(
                    "cache", _("Could not mix the ambience ({error}).").format(error=error)
                ),
            )
            return None
        return self._run(job, actions, indexes, span)

    def _mixed(
        self,
        job: Job,
        mixing: Future[SpanClip] | None,
        parts: list[Clip | float],
        shape: tuple[float, float],
        folder: Path,
    ) -> SpanClip | None:
        """The background mix when it is of these parts, else one made now (None: cancelled)."""
        level, lead_in = shape
        if mixing is not None:
            while not mixing.done():
                if job.ending:
                    return None
                wait_futures([mixing], timeout=_MIX_POLL)
            if mixing.exception() is None:
                made = mixing.result()
                if made.parts == tuple(parts) and made.lead_in == lead_in:
                    return made
        return mixed_span(parts, level, folder, lead_in)

    def _run(self, job: Job, actions: list[Action], indexes: range, span: SpanClip) -> float:
        """Play `span` on a helper thread; post its captions and countdowns at their offsets.

        A player that fails while the span plays (dies, or hangs past its
        bound) is told at once, from the helper thread: the captions go on at
        their offsets, the audio is gone, and the rest of the script skips the
        player.
        """
        clock, scale = self._pacer.clock, self._pacer.scale
        started = threading.Event()
        start_at: list[float] = []
        early: list[BaseException] = []

        def on_start() -> None:
            if job.cancelled.is_set() or not self._settings().enabled:
                self._speaker.stop()
            if not start_at:
                start_at.append(clock())
                started.set()

        def sound() -> None:
            try:
                self._speaker.play(span.clip, on_start)
            except Exception as error:
                if started.is_set():
                    self._player_failed(job, error)  # told now, not at the span's end
                else:
                    early.append(error)
            finally:
                started.set()

        player = threading.Thread(target=sound, name="mindflayer-span", daemon=True)
        player.start()
        started.wait(SPAN_START_BOUND)
        begin = start_at[0] if start_at else clock()
        for error in early:
            self._player_failed(job, error)
        audible = not early
        emit(job.on_event, AmbienceSpan(started=True, audible=audible))
        for part, index in enumerate(indexes):
            action = actions[index]
            at = begin + span.starts[part] * scale
            if isinstance(action, Line):
                self._pacer.sleep_until(job, at)
                if job.ending:
                    break
                emit(job.on_event, LineStarted(action.text))
                # A started line is always finished, even when a newer script waits.
                self._pacer.sleep_until(job, begin + span.ends[part] * scale, hard_only=True)
            elif isinstance(action, Wait):
                self._pacer.pause(job, action.seconds, at)
            if job.ending:
                break
        end = begin + span.clip.duration * scale
        if job.ending:
            self._speaker.stop()
            end = clock()
        else:
            self._pacer.sleep_until(job, end, hard_only=True)
        player.join(timeout=SPAN_START_BOUND)  # the player's own bound ends a hung one first
        if player.is_alive():  # a player that ignores its bound
            self._speaker.stop()
            self._player_failed(job, SpeechFault("player-hang", _(HUNG)))
        emit(job.on_event, AmbienceSpan(started=False, audible=audible))
        return end


def span_end(actions: list[Action], start: int) -> int:
    """The index of the bed's stop mark at or after `start` (the end when there is none)."""
    for index in range(start, len(actions)):
        action = actions[index]
        if isinstance(action, Bed) and not action.start:
            return index
    return len(actions)


def span_parts(
    actions: list[Action], indexes: range, clip_of: Callable[[int, Line], Clip | None]
) -> list[Clip | float] | None:
    """A span's clips and pauses in order; None at the first line `clip_of` gives no audio."""
    parts: list[Clip | float] = []
    for index in indexes:
        action = actions[index]
        if isinstance(action, Wait):
            parts.append(action.seconds)
        elif isinstance(action, Line):
            clip = clip_of(index, action)
            if clip is None or clip.path is None:
                return None
            parts.append(clip)
    return parts


def _cache_folder(parts: Sequence[Clip | float]) -> Path | None:
    """Where the span's mix is cached: beside its first clip (None: a span without lines)."""
    for part in parts:
        if isinstance(part, Clip) and part.path is not None:
            return part.path.parent
    return None


def _build_span(
    actions: list[Action],
    indexes: range,
    prepared: Prepared,
    shape: tuple[float, float],
    bound: float,
    result: Future[SpanClip],
    cancelled: threading.Event | None = None,
) -> None:
    """Wait (bounded) for a span's clips and mix them; any trouble leaves it to the director."""
    try:
        parts = span_parts(actions, indexes, lambda i, _: prepared[i][1].result(timeout=bound))
        folder = _cache_folder(parts or [])
        if parts is None or folder is None:
            raise ValueError("a line without audio")
        if cancelled is not None and cancelled.is_set():
            raise ValueError("cancelled: the settings changed")
        level, lead_in = shape
        result.set_result(mixed_span(parts, level, folder, lead_in))
    except Exception as error:  # the director mixes (or falls back) itself
        result.set_exception(error)
