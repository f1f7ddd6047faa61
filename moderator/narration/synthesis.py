"""A line's audio for the director: asked of the speaker, awaited within a bound.

The director's thread asks the speaker for each line's clip and waits for it
(`SYNTHESIS_BOUND`, on real time: a real engine's answer), checking for a cancel
as it waits. A fault never stops a script: it is told once (`tell`) and the
line goes on as a caption. A voice the engine lacks (a user's language.toml)
is told, naming it, and the line is spoken with the language's shipped voice
instead: never silently in another language.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from dataclasses import replace

from moderator.i18n import N_, _
from moderator.narration.events import Notice
from moderator.narration.job import Job, emit
from moderator.narration.notices import ENGINE_PARTS, NoticeBoard
from moderator.narration.scripts.library import Line
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.speaker import Clip, Speaker, SpeechFault

#: Longest the director waits for one line's audio: past it the line goes on as a
#: caption (the engine's own bound is the same; a healthy line takes ~20 ms).
SYNTHESIS_BOUND = 3.5
#: How often a wait on synthesis looks at the cancel flag.
_POLL = 0.02
NO_ANSWER = N_("The speech engine did not answer in time; showing captions only.")


def engine_failed(error: BaseException) -> SpeechFault:
    """The fault for a speaker that broke its promise (raised, or failed with no `SpeechFault`)."""
    return SpeechFault("engine", _("The speech engine failed ({error}).").format(error=error))


class Synthesis:
    """Asks `speaker` for lines' clips and tells the faults on `notices` (each once)."""

    def __init__(self, speaker: Speaker, notices: NoticeBoard) -> None:
        self._speaker = speaker
        self._notices = notices

    def synthesize(self, line: Line, settings: VoiceSettings) -> Future[Clip]:
        """Ask for `line`'s clip; a speaker that raises gives a failed future instead."""
        try:
            return self._speaker.synthesize(line.said, line.voice, settings.rate, settings.volume)
        except Exception as error:  # a speaker must not raise here, but never trust it
            future: Future[Clip] = Future()
            future.set_exception(
                error
                if isinstance(error, SpeechFault)
                else SpeechFault(
                    "engine",
                    _("The speech engine failed ({error}); captions only.").format(error=error),
                )
            )
            return future

    def await_clip(
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
        deadline = time.monotonic() + SYNTHESIS_BOUND  # a real engine's answer: real time
        while not future.done():
            if job.ending:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.tell(job, SpeechFault("synthesis", _(NO_ANSWER)))
                return None
            wait_futures([future], timeout=min(_POLL, remaining))
        error = future.exception()
        if error is None:
            clip = future.result()
            if clip.path is not None:
                self._notices.recovered(ENGINE_PARTS)
            return clip
        if (
            isinstance(error, SpeechFault)
            and error.part.startswith("voice:")
            and line is not None
            and settings is not None
            and line.fallback_voice
        ):
            fallback = line.fallback_voice
            self.tell(
                job,
                SpeechFault(
                    error.part,
                    _("{fault} Using the shipped voice {voice}.").format(
                        fault=error.message, voice=repr(fallback)
                    ),
                ),
            )
            return self.await_clip(job, self.synthesize(replace(line, voice=fallback), settings))
        if isinstance(error, SpeechFault):
            self.tell(job, error)
        else:
            self.tell(job, engine_failed(error))
        return None

    def tell(self, job: Job, fault: SpeechFault) -> None:
        """Tell `fault` to `job`'s listener, once until its part recovers (`NoticeBoard`)."""
        if self._notices.add(fault):
            emit(job.on_event, Notice(fault.message))
