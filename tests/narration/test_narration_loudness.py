"""Clean audio: one loudness for every clip, no clipped sample, a lead-in before the first word.

The meter is checked on signals whose loudness is known (BS.1770: a 1 kHz sine
at full scale reads -3.01 LUFS), then every script in every shipped language is
rendered with real espeak-ng and the bed on, and its samples are counted. The
renders are the ones the real-speech and how-to-play tests check too
(shipped_renders.py: one render each, in one worker).
"""

from __future__ import annotations

import array
import math
import random
from pathlib import Path

import pytest
from audio_measures import checked_loudness, clipped
from shipped_renders import CONTEXT, GROUP, ShippedRenders, context_for

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
from moderator.narration.speech.speaker import Clip
from moderator.narration.speech.synthesizer import Synthesizer

pytestmark = pytest.mark.xdist_group(GROUP)
RATE = 22050


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


def test_the_tests_check_meter_reads_what_the_apps_meter_reads() -> None:
    """The renders and clips below are checked with `checked_loudness` (numpy's FFT): on
    known signals it gives the app's meter's figure to within 1e-6 LU."""
    noise = random.Random(7)
    signals = [
        sine(1000, 1.0, 2.0),
        sine(60, 0.3, 1.0),  # near the high pass
        sine(5000, 0.05, 0.3),  # the shelf, shorter than one block
        faded(sine(RATE / 4, 0.9, 0.5, math.pi / 4)),
        [round(noise.gauss(0, 3000) * math.sin(i / 900) ** 2) for i in range(3 * RATE)],
        [5, -3, 200],
    ]
    for samples in signals:
        assert checked_loudness(samples, RATE) == pytest.approx(
            integrated_loudness(samples, RATE), abs=1e-6
        )
    assert checked_loudness([0] * RATE, RATE) == -math.inf
    assert checked_loudness([], RATE) == -math.inf


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


@pytest.fixture
def speaker(shipped_renders: ShippedRenders) -> Synthesizer:
    """The shipped renders' synthesizer: the lines the renders said are in its cache."""
    return shipped_renders.speaker


@pytest.mark.speech
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_every_render_is_leveled_unclipped_and_starts_after_a_lead_in(
    speech: None, shipped_renders: ShippedRenders, lang: str
) -> None:
    """Every script in the language, bed on: no clipped sample, true peak under -1 dBFS,
    each line at the one loudness, and silence before the first sound."""
    assert VoiceSettings(lang=lang).ambience, "the bed is on at the default settings"
    problems: list[str] = []
    for script in SCRIPT_NAMES:
        shipped = shipped_renders.render(lang, script)
        rendered, samples = shipped.rendered, shipped.pcm.samples
        count = clipped(samples)
        peak = decibels(true_peak(samples))
        if count or peak > CEILING_DBTP + 0.01:
            problems.append(f"{script}: {count} clipped samples, true peak {peak:.2f} dBFS")
        for (start, end), text in zip(rendered.offsets, rendered.lines, strict=True):
            loudness = checked_loudness(samples[start:end], RATE)
            if abs(loudness - TARGET_LUFS) > 1.0:
                problems.append(f"{script}: {text!r} at {loudness:.1f} LUFS")
        lead = rendered.offsets[0][0] / RATE
        if lead < 0.15 or any(samples[: rendered.offsets[0][0]]):
            problems.append(f"{script}: lead-in {lead:.3f} s")
    assert problems == []


@pytest.mark.speech
def test_the_lead_in_is_configurable(speech: None, speaker: Synthesizer, tmp_path: Path) -> None:
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
    speech: None, speaker: Synthesizer, tmp_path: Path, lang: str
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
    assert clipped(samples) == 0
    assert decibels(true_peak(samples)) <= CEILING_DBTP + 0.01
    for start, end, part in zip(span.starts, span.ends, span.parts, strict=True):
        if isinstance(part, Clip):
            line = samples[round(start * RATE) : round(end * RATE)]
            assert checked_loudness(line, RATE) == pytest.approx(TARGET_LUFS, abs=1.0)


@pytest.mark.speech
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_every_clip_played_alone_is_leveled_unclipped_and_led_in(
    speech: None, speaker: Synthesizer, lang: str
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
        for action in library.actions(script, context_for(script), settings) or []:
            if not isinstance(action, Line):
                continue
            future = speaker.synthesize(action.said, action.voice, settings.rate, settings.volume)
            played = led_in(future.result(timeout=60), settings.lead_in)
            assert played.path is not None
            samples = read_pcm(played.path).samples
            count = clipped(samples)
            peak = decibels(true_peak(samples))
            if count or peak > CEILING_DBTP + 0.01:
                problems.append(f"{script}: {action.text!r}: {count} clipped, {peak:.2f} dBFS")
            loudness = checked_loudness(samples[lead:], RATE)
            if abs(loudness - TARGET_LUFS) > 1.0:
                problems.append(f"{script}: {action.text!r} at {loudness:.1f} LUFS")
            if lead < 0.15 * RATE or any(samples[:lead]):
                problems.append(f"{script}: {action.text!r} without its lead-in")
    assert problems == []
