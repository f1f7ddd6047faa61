"""Render a script to one WAV file, pauses as silence, for previews and tests.

The file is what the table would hear with an ideal player: each line's
trimmed audio followed directly by its pause, so a user can check an edited
script and a test can measure the eyes-open window from the samples. With
ambience on, the bed is mixed under the script's `ambience` spans (see
`mixer`): it only adds samples, so every line stays at the same offset.
With ambience off the file is exactly the speech and its silences.
"""

from __future__ import annotations

import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from moderator.i18n import _
from moderator.narration.audio.loudness import level, under_ceiling
from moderator.narration.audio.mixer import BedShape, Span, lay_out, mix
from moderator.narration.audio.wavfile import Pcm, read_pcm, write_pcm_atomic
from moderator.narration.scripts.library import Bed, Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.speaker import SpeechFault
from moderator.narration.speech.synthesizer import Synthesizer

#: Generous bound on one line's synthesis when rendering.
RENDER_LINE_TIMEOUT = 30.0


@dataclass(frozen=True)
class Rendered:
    """What was written."""

    path: Path
    duration: float
    lines: tuple[str, ...]
    rate: int
    #: Where each line starts and ends, in samples (the mixer's offsets).
    offsets: tuple[tuple[int, int], ...] = ()
    #: The ambience spans, in samples (empty with ambience off).
    spans: tuple[Span, ...] = ()


def render_script(
    library: ScriptLibrary,
    synthesizer: Synthesizer,
    script: str,
    context: Mapping[str, object],
    settings: VoiceSettings,
    out: Path,
    leveled: bool = True,
) -> Rendered:
    """Synthesize every line of `script` and write them, with pauses, to `out`.

    The file starts with `settings.lead_in` seconds of silence; with `leveled`
    every clip is brought to one loudness and the mix kept under the true-peak
    ceiling (`loudness`); without it the clips are as the engine made them
    (the benches' baseline).

    Raises:
        KeyError: no such script.
        SpeechFault: a line could not be synthesized (rendering needs real audio).
    """
    settings = settings.clamped()
    actions = library.actions(script, context, settings)
    if actions is None:
        raise KeyError(script)
    futures = [
        synthesizer.synthesize(a.said, a.voice, settings.rate, settings.volume)
        for a in actions
        if isinstance(a, Line)
    ]
    rate = 0
    parts: list[array.array[int] | float] = [settings.lead_in] if settings.lead_in > 0 else []
    marks: list[tuple[int, bool]] = []
    lines: list[str] = []
    next_future = iter(futures)
    for action in actions:
        if isinstance(action, Wait):
            parts.append(action.seconds)
        elif isinstance(action, Bed):
            marks.append((len(parts), action.start))
        elif isinstance(action, Line):
            clip = next(next_future).result(timeout=RENDER_LINE_TIMEOUT)
            if clip.path is None:
                raise SpeechFault("engine", _("Rendering needs the speech engine (espeak-ng)."))
            pcm = read_pcm(clip.path)
            if rate and pcm.rate != rate:
                raise SpeechFault(
                    "engine",
                    _("Mixed sample rates ({first} and {second} Hz).").format(
                        first=rate, second=pcm.rate
                    ),
                )
            rate = pcm.rate
            parts.append(level(pcm.samples, pcm.rate) if leveled else pcm.samples)
            lines.append(action.text)
    rate = rate or 22050
    placed, total = lay_out(parts, rate)
    spans = bed_spans(parts, marks, rate, total)
    samples = mix(placed, total, spans, settings.bed_level, BedShape(rate=rate))
    if leveled:
        samples = under_ceiling(samples)
    result = Pcm(rate, samples)
    write_pcm_atomic(out, result)
    return Rendered(
        out,
        result.duration,
        tuple(lines),
        rate,
        tuple((p.offset, p.end) for p in placed),
        tuple(spans),
    )


def bed_spans(
    parts: list[array.array[int] | float],
    marks: list[tuple[int, bool]],
    rate: int,
    total: int,
) -> list[Span]:
    """The sample spans between bed marks; a mark is (index of the next part, start?).

    A bed still playing at the script's end stops there.
    """
    positions = [lay_out(parts[:index], rate)[1] for index, _ in marks]
    spans: list[Span] = []
    start: int | None = None
    for (_index, starting), position in zip(marks, positions, strict=True):
        if starting and start is None:
            start = position
        elif not starting and start is not None:
            spans.append(Span(start, position))
            start = None
    if start is not None:
        spans.append(Span(start, total))
    return spans
