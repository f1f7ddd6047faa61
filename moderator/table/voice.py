"""Thin adapter to the narration layer: settings conversion, the factory, deferral.

The real narrator loads every voice script and starts the speech engine's child
process. The first screen needs neither, so the app builds it after its first
frame, off the UI thread (`DeferredNarrator`): measured with the start-up bench's
child, the first frame came 100 ms (about 10 %) sooner with speech out of the way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from moderator import narration
from moderator.narration.settings import VoiceSettings
from moderator.table.config import TableSettings
from moderator.table.ports import NarratorLike


def to_voice_settings(settings: TableSettings) -> VoiceSettings:
    """The narrator's settings for the table's settings (the fields they share)."""
    voice = {field.name for field in fields(VoiceSettings)}
    return VoiceSettings(**{k: v for k, v in asdict(settings).items() if k in voice})


def build_narrator(
    settings: TableSettings, voice_scripts_dir: Path | None, cache_dir: Path
) -> NarratorLike:
    """The real narrator (pyttsx3, or captions only when speech is unavailable).

    `narration.make_narrator` is loaded on this first use (the package loads its
    names lazily): its modules (scripts, validation, the speech engine's
    adapters) are imported on the worker that builds the narrator after the
    first frame, not before it (docs/startup.md).
    """
    return narration.make_narrator(to_voice_settings(settings), voice_scripts_dir, cache_dir)


class DeferredNarrator:
    """A narrator built on first use: `ready()` from a worker thread after the first frame.

    Any use before that (a key pressed very early) builds it there and then, so
    nothing is ever lost, only the start-up is spared. Settings handed over
    before the build are applied to the narrator once it exists.
    """

    def __init__(self, build: Callable[[], NarratorLike]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._narrator: NarratorLike | None = None
        self._settings: Any = None
        self._closed = False
        #: App-wide fault watchers, handed to the narrator once it is built.
        self._fault_watchers: list[Callable[[Any], None]] = []
        #: Scripts to prepare once the narrator is built (by name: the latest context).
        self._to_prepare: dict[str, dict[str, object]] = {}

    def ready(self) -> NarratorLike:
        """The narrator, built now if it was not yet (thread-safe)."""
        with self._lock:
            if self._narrator is None:
                self._narrator = self._build()
                if self._settings is not None:
                    self._narrator.update_settings(self._settings)
                for watcher in self._fault_watchers:
                    _watch_faults(self._narrator, watcher)
                for script, context in self._to_prepare.items():
                    _prepare(self._narrator, script, context)
                if self._closed:
                    self._narrator.close()
            return self._narrator

    @property
    def built(self) -> bool:
        """Whether the real narrator exists yet."""
        return self._narrator is not None

    @property
    def warnings(self) -> list[str]:
        """Broken user scripts, a missing speech engine… (builds the narrator)."""
        return self.ready().warnings

    @property
    def languages(self) -> Sequence[Any]:
        """The voice-script languages (builds the narrator)."""
        return self.ready().languages

    def play(
        self,
        script: str,
        context: Mapping[str, object],
        on_event: Callable[[object], None],
    ) -> None:
        """Play a script (builds the narrator if needed)."""
        self.ready().play(script, context, on_event)

    def lines(self, script: str, context: Mapping[str, object]) -> list[str]:
        """The captions of a script (builds the narrator if needed)."""
        return self.ready().lines(script, context)

    def prepare(self, script: str, context: Mapping[str, object]) -> None:
        """Prepare a script's audio now, or once the narrator is built (never builds it here)."""
        with self._lock:
            narrator = self._narrator
            if narrator is None:
                self._to_prepare[script] = dict(context)
        if narrator is not None:
            _prepare(narrator, script, context)

    def cancel(self) -> None:
        """Silence at once (nothing to silence before the narrator exists)."""
        with self._lock:
            narrator = self._narrator
        if narrator is not None:
            narrator.cancel()

    def watch_faults(self, watcher: Callable[[Any], None]) -> None:
        """Tell `watcher` of speech faults now, or once the narrator is built."""
        with self._lock:
            self._fault_watchers.append(watcher)
            narrator = self._narrator
        if narrator is not None:
            _watch_faults(narrator, watcher)

    def update_settings(self, settings: Any) -> None:
        """New settings now, or once the narrator is built."""
        with self._lock:
            self._settings = settings
            narrator = self._narrator
        if narrator is not None:
            narrator.update_settings(settings)

    def close(self) -> None:
        """Close the narrator if it was built (a later build closes it at once)."""
        with self._lock:
            self._closed = True
            narrator = self._narrator
        if narrator is not None:
            narrator.close()


def _watch_faults(narrator: object, watcher: Callable[[Any], None]) -> None:
    """Subscribe `watcher` to the narrator's faults, if it reports them (test fakes may not)."""
    watch = getattr(narrator, "watch_faults", None)
    if callable(watch):
        watch(watcher)


def _prepare(narrator: object, script: str, context: Mapping[str, object]) -> None:
    """Ask the narrator to prepare `script`, if it can (test fakes may not)."""
    prepare = getattr(narrator, "prepare", None)
    if callable(prepare):
        prepare(script, context)
