"""Render a script to one WAV file, pauses as silence, for previews and tests.

The file is what the table would hear with an ideal player: each line's
trimmed audio followed directly by its pause, so a user can check an edited
script and a test can measure the eyes-open window from the samples.
"""

from __future__ import annotations

import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from moderator.narration.scripts import Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speaker import Speaker, SpeechFault
from moderator.narration.wavfile import Pcm, read_pcm, silence, write_pcm_atomic

#: Generous bound on one line's synthesis when rendering.
RENDER_LINE_TIMEOUT = 30.0


@dataclass(frozen=True)
class Rendered:
    """What was written."""

    path: Path
    duration: float
    lines: tuple[str, ...]
    rate: int


def render_script(
    library: ScriptLibrary,
    speaker: Speaker,
    script: str,
    context: Mapping[str, object],
    settings: VoiceSettings,
    out: Path,
) -> Rendered:
    """Synthesize every line of `script` and write them, with pauses, to `out`.

    Raises:
        KeyError: no such script.
        SpeechFault: a line could not be synthesized (rendering needs real audio).
    """
    settings = settings.clamped()
    actions = library.actions(
        settings.lang, script, context, settings.reveal_seconds, settings.growl_seconds
    )
    if actions is None:
        raise KeyError(script)
    futures = [
        speaker.synthesize(a.text, a.voice, settings.rate, settings.volume)
        for a in actions
        if isinstance(a, Line)
    ]
    rate = 0
    samples: array.array[int] = array.array("h")
    pending: list[float] = []
    lines: list[str] = []
    next_future = iter(futures)
    for action in actions:
        if isinstance(action, Wait):
            pending.append(action.seconds)
            continue
        assert isinstance(action, Line)
        clip = next(next_future).result(timeout=RENDER_LINE_TIMEOUT)
        if clip.path is None:
            raise SpeechFault("engine", "Rendering needs the speech engine (espeak-ng).")
        pcm = read_pcm(clip.path)
        if rate and pcm.rate != rate:
            raise SpeechFault("engine", f"Mixed sample rates ({rate} and {pcm.rate} Hz).")
        rate = pcm.rate
        for seconds in pending:
            samples.extend(silence(rate, seconds))
        pending.clear()
        samples.extend(pcm.samples)
        lines.append(action.text)
    rate = rate or 22050
    for seconds in pending:
        samples.extend(silence(rate, seconds))
    result = Pcm(rate, samples)
    write_pcm_atomic(out, result)
    return Rendered(out, result.duration, tuple(lines), rate)
