"""The narration layer's front door: `make_narrator` and `Narrator`.

The TUI calls this from its event loop, so every method returns at once:
`play` queues a job for the director's thread, `cancel` sets a flag and kills
the audio child, and even building the real speaker does not wait for the
speech engine to start (it starts in the background).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from pathlib import Path

from moderator.i18n import _
from moderator.narration.director import Director
from moderator.narration.events import Finished, Notice
from moderator.narration.job import EventSink, Job, Timing
from moderator.narration.notices import NoticeBoard, Watcher
from moderator.narration.scripts.library import (
    Language,
    Line,
    ScriptLibrary,
    user_scripts_dir,
)
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.speaker import SilentSpeaker, Speaker, SpeechFault
from moderator.narration.synthesis import engine_failed

log = logging.getLogger(__name__)


class Narrator:
    """Speaks voice scripts with captions; see docs/architecture.md, "Narration"."""

    def __init__(
        self,
        settings: VoiceSettings,
        library: ScriptLibrary,
        speaker: Speaker,
        time_scale: float = 1.0,
        warnings: list[str] | None = None,
        timing: Timing | None = None,
    ) -> None:
        self._settings = settings.clamped()
        self._library = library
        self._notices = NoticeBoard()
        self._warnings_before = list(library.warnings) + list(warnings or [])
        try:
            problems = speaker.problems()
        except Exception as error:
            problems = [engine_failed(error)]
        for fault in problems:
            self._notices.defer(fault)
        self._lock = threading.Lock()
        #: The scripts the table asked to have ready (by name: the latest context).
        self._to_prepare: dict[str, dict[str, object]] = {}
        self._chooser = speaker if isinstance(speaker, ChoosingSpeaker) else None
        if self._chooser is not None:
            self._chooser.watch_faults(self._notices.add)
            self._choose_engine(self._settings)
        self._director = Director(
            speaker, self._current_settings, self._notices, time_scale, timing
        )

    def _choose_engine(self, settings: VoiceSettings) -> None:
        """Tell the speaker which natural voice speaks each language (by its espeak voices).

        Only the table's language's voice is warmed (another language never starts
        Piper); a choice that cannot speak is told once and espeak-ng speaks.
        """
        if self._chooser is None:
            return
        from moderator.narration.speech.voice_engines import routes_for

        routes = routes_for(
            settings,
            [
                (language.code, (language.voice, language.fallback_voice))
                for language in self._library.languages.values()
            ],
        )
        self._chooser.choose_voices(routes.voices, warm=routes.warm)
        if routes.problem is not None:
            fault = SpeechFault("neural", routes.problem, says_fallback=True)
            self._chooser.tell(fault, f"choice:{routes.problem}")

    @property
    def warnings(self) -> list[str]:
        """Broken user scripts (fallen back) and missing speech parts, as sentences."""
        return self._warnings_before + list(self._notices.messages)

    @property
    def settings(self) -> VoiceSettings:
        """The settings in force."""
        return self._current_settings()

    @property
    def languages(self) -> list[Language]:
        """Languages with voice scripts (English first), for a settings screen."""
        return list(self._library.languages.values())

    def _current_settings(self) -> VoiceSettings:
        with self._lock:
            return self._settings

    def lines(self, script: str, context: Mapping[str, object]) -> list[str]:
        """The captions of `script`, for showing on screen without speaking."""
        actions = self._library.actions(script, context, self._current_settings())
        return [a.text for a in actions or [] if isinstance(a, Line)]

    def play(self, script: str, context: Mapping[str, object], on_event: EventSink) -> None:
        """Run `script` in the background, cancelling whatever was playing.

        `on_event` is called from the narration thread: LineStarted, Countdown,
        Notice, then exactly one Finished.
        """
        actions = self._library.actions(script, context, self._current_settings())
        if actions is None:
            self._director.cancel()
            _safe(
                on_event,
                Notice(_("There is no voice script named {name}.").format(name=repr(script))),
            )
            _safe(on_event, Finished(cancelled=False))
            return
        self._director.submit(Job(actions, on_event))

    def prepare(self, script: str, context: Mapping[str, object]) -> Future[bool]:
        """Build `script`'s clips and mixes in the background, so its first play is instant.

        Returns at once; the future says whether all of it is ready. The
        script is prepared again whenever the settings change (`update_settings`).
        """
        with self._lock:
            self._to_prepare[script] = dict(context)
        return self._prepare(script, context)

    def _prepare(self, script: str, context: Mapping[str, object]) -> Future[bool]:
        actions = self._library.actions(script, context, self._current_settings())
        if actions is None:
            nothing: Future[bool] = Future()
            nothing.set_result(False)
            return nothing
        return self._director.prepare(actions)

    def watch_faults(self, watcher: Watcher) -> None:
        """Tell `watcher` of each speech fault, once per part, wherever it happens.

        Faults found before the call (a missing library at start-up) are told
        at once; later ones from the narration or engine thread as they occur.
        When a failed part works again, `watcher` gets `SpeechRecovered` for it.
        """
        self._notices.watch(watcher)

    def cancel(self) -> None:
        """Silence at once; the running script ends with Finished(cancelled=True)."""
        self._director.cancel()

    def update_settings(self, settings: VoiceSettings) -> None:
        """Apply new settings from the next line on; muting also silences the current one."""
        settings = settings.clamped()
        with self._lock:
            changed = settings != self._settings
            self._settings = settings
            to_prepare = list(self._to_prepare.items())
        self._choose_engine(settings)
        if not settings.enabled:
            self._director.silence()
        if changed:  # what was prepared is for the old settings
            self._director.settings_changed()
            for script, context in to_prepare:
                self._prepare(script, context)

    def close(self) -> None:
        """Stop speaking and release the engine (bounded)."""
        self._director.close()


def _safe(on_event: EventSink, event: Notice | Finished) -> None:
    try:
        on_event(event)
    except Exception:
        log.exception("narration listener failed on %r", event)


def make_narrator(
    settings: VoiceSettings,
    voice_scripts_dir: Path | None,
    cache_dir: Path,
    speaker: Speaker | None = None,
    time_scale: float = 1.0,
    timing: Timing | None = None,
) -> Narrator:
    """Build a narrator; never raises for missing speech parts and never waits on them.

    Args:
        settings: Initial voice settings.
        voice_scripts_dir: The user's override folder (`--voice-scripts`); None
            means `<config dir>/voice_scripts`.
        cache_dir: Where synthesized lines are kept (e.g. `moderator.paths.cache_dir()`).
        speaker: A speech back-end; None builds the real one (the platform's voice
            and player, Piper for English when chosen), or
            captions only when it cannot be built.
        time_scale: Multiplies every wait (UI tests use 0.01).
        timing: The clock the scripts are paced by and its wait (None: the
            machine's; tests pin it to assert the scheduled moments exactly).
    """
    library = ScriptLibrary.load(
        user_scripts_dir(voice_scripts_dir), user_dir_required=voice_scripts_dir is not None
    )
    warnings: list[str] = []
    if speaker is None:
        try:
            from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

            language = library.languages.get(settings.lang)
            voice = language.voice if language else "en"
            clamped = settings.clamped()
            # Warmed only for a table that hears the voice: a muted app started a speech
            # child 1 s after launch all the same (~0.4 s of CPU, a process kept). Turned
            # on later, the first line, or the prepared reveal, starts it.
            system = Pyttsx3Synthesizer(
                cache_dir,
                warm_up=(voice, clamped.rate, clamped.volume),
                warm=clamped.enabled,
            )
            speaker = ChoosingSpeaker(system, cache_dir)
        except Exception as error:
            warnings.append(
                _("Speech is off ({error}); showing captions only.").format(error=error)
            )
            speaker = SilentSpeaker()
    return Narrator(settings, library, speaker, time_scale, warnings, timing)
