"""Clean audio: one loudness for every clip, no clipped sample, a lead-in before the first word.

The meter is checked on signals whose loudness is known (BS.1770: a 1 kHz sine
at full scale reads -3.01 LUFS), then every script in every shipped language is
rendered with real espeak-ng and the bed on, and its samples are counted.
"""

from __future__ import annotations

import array
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator.narration.audio.lead_in import led_in
from moderator.narration.audio.loudness import (
    CEILING_DBTP,
    FULL_SCALE,
    TARGET_LUFS,
    decibels,
    integrated_loudness,
    level,
    true_peak,
    under_ceiling,
)
from moderator.narration.audio.span_mix import mixed_span
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.render import render_script
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.settings import DEFAULT_LEAD_IN, VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import Clip

RATE = 22050
CONTEXT: dict[str, object] = {"players": 7, "player": "Eleven", "meeting": 2}


def sine(frequency: float, amplitude: float, seconds: float, phase: float = 0.0) -> list[int]:
    return [
        round(amplitude * FULL_SCALE * math.sin(2 * math.pi * frequency * i / RATE + phase))
        for i in range(round(seconds * RATE))
    ]


def faded(samples: list[int], edge: int = 1000) -> list[int]:
    """The tone faded in and out (an abrupt start rings above the tone's peak)."""
    last = len(samples) - 1
    return [
        round(v * (0.5 - 0.5 * math.cos(math.pi * min(i, last - i, edge) / edge)))
        for i, v in enumerate(samples)
    ]


def test_a_full_scale_sine_reads_as_the_standard_says() -> None:
    assert integrated_loudness(sine(1000, 1.0, 2.0), RATE) == pytest.approx(-3.01, abs=0.1)
    assert integrated_loudness(sine(1000, 0.1, 2.0), RATE) == pytest.approx(-23.01, abs=0.1)
    assert integrated_loudness([0] * RATE, RATE) == -math.inf


def test_the_true_peak_sees_between_the_samples() -> None:
    # A quarter of the sample rate, 45 degrees off: every sample is at 0.707 of the peak.
    samples = faded(sine(RATE / 4, 0.9, 0.5, math.pi / 4))
    assert max(map(abs, samples)) / FULL_SCALE == pytest.approx(0.9 * 0.7071, abs=0.01)
    assert true_peak(samples) == pytest.approx(0.9, abs=0.005)


def test_leveling_reaches_the_target_or_stops_at_the_ceiling() -> None:
    quiet = level(sine(440, 0.01, 1.0), RATE)
    assert integrated_loudness(quiet, RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    # A square-ish loud tone cannot reach the target under the ceiling: it stops there.
    loud = level(sine(440, 1.0, 1.0), RATE, target=-1.0)
    assert decibels(true_peak(loud)) <= CEILING_DBTP + 0.01
    assert level([0] * 100, RATE) == array.array("h", [0] * 100)


def test_a_mix_over_the_ceiling_is_lowered_as_a_whole() -> None:
    mix = array.array("h", sine(440, 1.0, 0.5))
    lowered = under_ceiling(mix)
    assert decibels(true_peak(lowered)) == pytest.approx(CEILING_DBTP, abs=0.05)
    quiet = array.array("h", sine(440, 0.5, 0.5))
    assert under_ceiling(quiet) is quiet


@pytest.fixture(scope="module")
def speaker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pyttsx3Synthesizer]:
    synthesizer = Pyttsx3Synthesizer(tmp_path_factory.mktemp("speech"), warm=False)
    yield synthesizer
    synthesizer.close()  # its children (one per voice) end with the module


@pytest.mark.speech
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_every_render_is_leveled_unclipped_and_starts_after_a_lead_in(
    speech: None, speaker: Pyttsx3Synthesizer, tmp_path: Path, lang: str
) -> None:
    """Every script in the language, bed on: no clipped sample, true peak under -1 dBFS,
    each line at the one loudness, and silence before the first sound."""
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang, ambience=True)
    problems: list[str] = []
    for script in SCRIPT_NAMES:
        context = {"players": ["Eleven", "Mike"]} if script == "series_winner" else CONTEXT
        out = tmp_path / f"{lang}-{script}.wav"
        rendered = render_script(library, speaker, script, context, settings, out)
        samples = read_pcm(out).samples
        clipped = sum(1 for s in samples if s >= FULL_SCALE or s <= -FULL_SCALE)
        peak = decibels(true_peak(samples))
        if clipped or peak > CEILING_DBTP + 0.01:
            problems.append(f"{script}: {clipped} clipped samples, true peak {peak:.2f} dBFS")
        for (start, end), text in zip(rendered.offsets, rendered.lines, strict=True):
            loudness = integrated_loudness(samples[start:end], RATE)
            if abs(loudness - TARGET_LUFS) > 1.0:
                problems.append(f"{script}: {text!r} at {loudness:.1f} LUFS")
        lead = rendered.offsets[0][0] / RATE
        if lead < 0.15 or any(samples[: rendered.offsets[0][0]]):
            problems.append(f"{script}: lead-in {lead:.3f} s")
    assert problems == []


@pytest.mark.speech
def test_the_lead_in_is_configurable(
    speech: None, speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    library = ScriptLibrary.load(None)
    assert DEFAULT_LEAD_IN >= 0.15
    for lead_in in (0.0, 0.6):
        settings = VoiceSettings(ambience=False, lead_in=lead_in)
        rendered = render_script(library, speaker, "turn", CONTEXT, settings, tmp_path / "t.wav")
        assert rendered.offsets[0][0] == round(lead_in * RATE)
    assert VoiceSettings(lead_in=-1).clamped().lead_in == 0.0
    assert VoiceSettings(lead_in=float("nan")).clamped().lead_in == DEFAULT_LEAD_IN


@pytest.mark.speech
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_live_reveal_span_is_leveled_and_unclipped(
    speech: None, speaker: Pyttsx3Synthesizer, tmp_path: Path, lang: str
) -> None:
    """The span the director plays (its lines, pauses and the bed as one clip): the
    Spanish one hard-clipped under the bed before (true peak -0.04 dBFS a clip)."""
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang).clamped()
    parts: list[Clip | float] = []
    for action in library.actions("reveal", CONTEXT, settings) or []:
        if isinstance(action, Line):
            future = speaker.synthesize(action.text, action.voice, settings.rate, settings.volume)
            parts.append(future.result(timeout=30))
        elif isinstance(action, Wait):
            parts.append(action.seconds)
    span = mixed_span(parts, settings.bed_level, tmp_path)
    assert span.clip.path is not None
    samples = read_pcm(span.clip.path).samples
    assert sum(1 for s in samples if s >= FULL_SCALE or s <= -FULL_SCALE) == 0
    assert decibels(true_peak(samples)) <= CEILING_DBTP + 0.01
    for start, end, part in zip(span.starts, span.ends, span.parts, strict=True):
        if isinstance(part, Clip):
            line = samples[round(start * RATE) : round(end * RATE)]
            assert integrated_loudness(line, RATE) == pytest.approx(TARGET_LUFS, abs=1.0)


@pytest.mark.speech
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_every_clip_played_alone_is_leveled_unclipped_and_led_in(
    speech: None, speaker: Pyttsx3Synthesizer, lang: str
) -> None:
    """Every line of every script as the director hands it to the player when it is
    played on its own (`led_in`: with ambience off, or outside a span): no clipped
    sample, true peak under -1 dBFS, the one loudness, the lead-in first. Those lines
    were played as espeak made them (Spanish peaking at -0.04 dBFS, each line as loud
    as the voice happened to make it)."""
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang, ambience=False).clamped()
    lead = round(settings.lead_in * RATE)
    problems: list[str] = []
    for script in SCRIPT_NAMES:
        context = {"players": ["Eleven", "Mike"]} if script == "series_winner" else CONTEXT
        for action in library.actions(script, context, settings) or []:
            if not isinstance(action, Line):
                continue
            future = speaker.synthesize(action.said, action.voice, settings.rate, settings.volume)
            played = led_in(future.result(timeout=60), settings.lead_in)
            assert played.path is not None
            samples = read_pcm(played.path).samples
            clipped = sum(1 for s in samples if s >= FULL_SCALE or s <= -FULL_SCALE)
            peak = decibels(true_peak(samples))
            if clipped or peak > CEILING_DBTP + 0.01:
                problems.append(f"{script}: {action.text!r}: {clipped} clipped, {peak:.2f} dBFS")
            loudness = integrated_loudness(samples[lead:], RATE)
            if abs(loudness - TARGET_LUFS) > 1.0:
                problems.append(f"{script}: {action.text!r} at {loudness:.1f} LUFS")
            if lead < 0.15 * RATE or any(samples[:lead]):
                problems.append(f"{script}: {action.text!r} without its lead-in")
    assert problems == []
