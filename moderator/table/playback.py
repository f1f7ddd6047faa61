"""The controller's voice: plays cues through the narrator and reports their progress.

Private to `TableController` (screens never reach it). It keeps which playback
is the latest and for which phase it was started, so the app hands narration
progress to the right screen and ignores the tail of a replaced playback.
Progress goes to a plain callback as (playback id, narration event); the TUI
turns each into a message (`moderator.tui.messages.translate`), so this module
needs nothing of Textual.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from moderator.narration.scripts.spoken_names import SAID_AS
from moderator.table.config import TableSettings
from moderator.table.phases import Phase
from moderator.table.ports import NarratorLike
from moderator.table.voice import to_voice_settings

if TYPE_CHECKING:  # a cue's module is loaded by whoever made the cue (docs/startup.md)
    from moderator.table.cues import Cue

#: Receives (playback id, narration event); called from the narration thread.
Report = Callable[[int, object], object]


class Voice:
    """The narrator, the mute key and the playbacks under way."""

    def __init__(self, narrator: NarratorLike) -> None:
        self._narrator = narrator
        self._muted = False
        self._playbacks = itertools.count(1)
        #: The playback still running (0: none); written by the narration thread too.
        self._speaking = 0
        #: The latest playback and the phase it was started for.
        self._latest = (0, Phase.START)
        self._report: Report = lambda _playback, _event: None
        #: The cues most recently handed to the narrator to prepare.
        self._prepared: tuple[Cue, ...] = ()

    def attach(self, report: Report) -> None:
        """Narration progress goes to `report(playback, event)` (thread-safe there)."""
        self._report = report

    def watch_faults(self, watcher: Callable[[Any], None]) -> None:
        """App-wide speech faults go to `watcher` (see `Narrator.watch_faults`)."""
        watch = getattr(self._narrator, "watch_faults", None)
        if callable(watch):  # test fakes may not report faults
            watch(watcher)

    @property
    def muted(self) -> bool:
        """Whether the mute key silenced the voice (not saved, unlike the settings)."""
        return self._muted

    @property
    def speaking(self) -> bool:
        """Whether a playback started here is still running."""
        return self._speaking != 0

    @property
    def languages(self) -> Sequence[Any]:
        """The voice-script languages (code, name, voice), English first."""
        return self._narrator.languages

    @property
    def warnings(self) -> list[str]:
        """What the narrator had to say at start (may build it: not on the UI thread)."""
        return list(self._narrator.warnings)

    def playback_phase(self, playback: int) -> Phase | None:
        """The phase the latest playback was started for (None for any older one)."""
        latest, phase = self._latest
        return phase if playback == latest else None

    def lines(self, cue: Cue, said_as: Mapping[str, str] | None = None) -> list[str]:
        """The captions of a cue's script."""
        return self._narrator.lines(cue.script, _context(cue, said_as))

    def play(self, cue: Cue, phase: Phase, said_as: Mapping[str, str] | None = None) -> None:
        """Play a cue for `phase` without blocking; progress goes to the attached report.

        `said_as` maps a written name to how the table said it is spoken (the
        captions keep the written name; the voice says the other).

        When muted, the script still runs (captions and timing) but silently:
        the narrator is told so through its settings.
        """
        playback = next(self._playbacks)
        self._speaking = playback
        self._latest = (playback, phase)
        report = self._report

        def on_event(event: object) -> None:
            # Runs on the narration thread: only an int store and the report here.
            # Start-up (docs/startup.md): the narration's event types load with the
            # first narration event, not before the first frame.
            from moderator.narration.events import Finished

            if isinstance(event, Finished) and self._speaking == playback:
                self._speaking = 0
            report(playback, event)

        self._narrator.play(cue.script, _context(cue, said_as), on_event)

    def prepare(self, cues: Sequence[Cue]) -> None:
        """Have the narrator build these cues' audio in the background (each one once).

        Returns at once: the narrator prepares off the UI thread, and again by
        itself when the settings change.
        """
        prepare = getattr(self._narrator, "prepare", None)
        if not callable(prepare):  # test fakes may not prepare
            return
        for cue in cues:
            if cue not in self._prepared:
                self._prepared = (*self._prepared[-3:], cue)
                prepare(cue.script, _context(cue, None))

    def silence(self) -> None:
        """Stop whatever is being said, at once."""
        self._speaking = 0
        self._narrator.cancel()

    def toggle_mute(self, settings: TableSettings) -> bool:
        """Mute or unmute; returns whether it is now muted.

        Muting silences the current line at once but lets a running script go
        on with its captions and timing (a muted reveal still works).
        """
        self._muted = not self._muted
        self.use(settings)
        return self._muted

    def use(self, settings: TableSettings) -> None:
        """Hand the table's settings (and the mute state) to the narrator."""
        enabled = settings.enabled and not self._muted
        self._narrator.update_settings(to_voice_settings(replace(settings, enabled=enabled)))

    def close(self) -> None:
        """Stop the narrator."""
        self._narrator.close()


def _context(cue: Cue, said_as: Mapping[str, str] | None) -> dict[str, object]:
    """The cue's script context, with how names are said when the table typed any."""
    from moderator.table.cues import cue_context  # loaded already: `cue` is one

    context = cue_context(cue)
    if said_as:
        context[SAID_AS] = dict(said_as)
    return context
