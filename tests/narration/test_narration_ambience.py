"""The ambience bed and the mixer, measured from the samples a table would hear."""

from __future__ import annotations

import array
import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from audio_measures import (
    dbfs,
    longest_near_silence,
    longest_silence,
    render_bed,
    steady_bed,
    tone,
)

from moderator.narration.audio.ambience import (
    DEFAULT_LEVEL,
    FADE_SECONDS,
    RATE,
    fade_envelope,
    level_dbfs,
    rms,
)
from moderator.narration.audio.mixer import (
    BedShape,
    Ducking,
    Placed,
    Span,
    bed_track,
    duck_envelope,
    lay_out,
    mix,
    speech_track,
)
from moderator.narration.audio.wavfile import Pcm, read_pcm, silence
from moderator.narration.render import render_script
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

#: Samples at or below this count as silence when measuring (as in the speech tests).
MEASURE_THRESHOLD = 200


def _steps(samples: Sequence[int | float]) -> list[float]:
    return [abs(b - a) for a, b in itertools.pairwise(samples)]


def _window_dbfs(samples: Sequence[int | float], window: int) -> list[float]:
    return [dbfs(rms(samples[i : i + window])) for i in range(0, len(samples) - window + 1, window)]


def _minus(a: Sequence[int], b: Sequence[int]) -> list[int]:
    return list(map(operator.sub, a, b))


# -- the bed on its own ------------------------------------------------------


@pytest.mark.parametrize("level", [1.0, DEFAULT_LEVEL, 0.25, 0.1])
def test_bed_rms_follows_the_level_in_decibels(level: float) -> None:
    bed = steady_bed(10 * RATE, level)
    measured = dbfs(rms(bed))
    assert measured == pytest.approx(level_dbfs(level), abs=0.2)
    assert measured == pytest.approx(-20.0 + 20 * math.log10(level), abs=0.2)


def test_half_the_level_is_six_decibels_quieter_and_zero_is_silence() -> None:
    loud = dbfs(rms(render_bed(6 * RATE, 1.0)))
    half = dbfs(rms(render_bed(6 * RATE, 0.5)))
    assert loud - half == pytest.approx(6.02, abs=0.3)
    assert set(render_bed(RATE, 0.0)) == {0}


@pytest.mark.parametrize("level", [7.0, -1.0, math.nan, math.inf])
def test_a_level_out_of_range_is_clamped_not_loud(level: float) -> None:
    bed = render_bed(2 * RATE, level)
    assert max(map(abs, bed)) < 32767 // 2
    assert len(bed) == 2 * RATE


def test_bed_has_no_near_silent_stretch_and_never_clips() -> None:
    bed = render_bed(30 * RATE, DEFAULT_LEVEL)
    inner = bed[round(FADE_SECONDS * RATE) : -round(FADE_SECONDS * RATE)]
    assert longest_near_silence(inner) == 0.0
    _, gap = longest_silence(Pcm(RATE, bed), MEASURE_THRESHOLD)
    assert gap < 1.0
    assert max(map(abs, bed)) < 32767


def _tone_power(samples: Sequence[float], frequency: float) -> float:
    """Power at one frequency (Goertzel), in dB: a tone stands far above noise."""
    step = 2 * math.cos(2 * math.pi * frequency / RATE)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + step * s1 - s2, s1
    power = (s1 * s1 + s2 * s2 - step * s1 * s2) / len(samples) ** 2
    return 10 * math.log10(power) if power > 0 else -math.inf


def test_bed_is_a_drone_over_soft_noise_not_a_hiss() -> None:
    bed = steady_bed(3 * RATE, DEFAULT_LEVEL)[RATE:]
    # The drone's notes (A1, E2, A2) stand well above the noise between them.
    for note, gap in ((55.0, 70.0), (82.5, 95.0), (110.0, 130.0)):
        assert _tone_power(bed, note) > _tone_power(bed, gap) + 15, note
    # A first difference boosts highs by ~6 dB/octave: against the signal's RMS it is
    # ~1.4 for white hiss and ~0.02 for a bare 55 Hz drone. The bed sits between:
    # soft noise up to ~3 kHz (where rustling is) without becoming a hiss.
    ratio = rms(_steps(bed)) / rms(bed)
    assert 0.08 < ratio < 0.5


def test_same_seed_same_bed_other_seed_other_noise() -> None:
    assert render_bed(RATE, 0.5, seed=3) == render_bed(RATE, 0.5, seed=3)
    assert render_bed(RATE, 0.5, seed=3) != render_bed(RATE, 0.5, seed=4)


def test_fades_start_and_end_at_silence_without_a_click() -> None:
    bed = render_bed(8 * RATE, 1.0)
    middle = bed[3 * RATE : 5 * RATE]
    steady_step = max(_steps(middle))
    edge = RATE // 10
    assert abs(bed[0]) <= 1 and abs(bed[-1]) <= 50
    assert max(_steps(bed[:edge])) <= steady_step
    assert max(_steps(bed[-edge:])) <= steady_step
    # The sound grows from nothing: the first 10 ms are far below the steady level,
    # and over the first third of the fade-in (where the ramp outweighs the bed's own
    # slow pulse) each 100 ms is louder than the one before.
    steady = rms(middle)
    assert rms(bed[: RATE // 100]) < 0.01 * steady
    assert rms(bed[-RATE // 100 :]) < 0.01 * steady
    fade_in = _window_dbfs(bed[: round(FADE_SECONDS * RATE / 3)], RATE // 10)
    assert all(b > a for a, b in itertools.pairwise(fade_in))
    # Without a fade the bed starts at full level at once: the click the fade removes.
    hard = render_bed(8 * RATE, 1.0, fade_seconds=0.0)
    assert rms(hard[: RATE // 100]) > 0.3 * steady


def test_fade_envelope_rises_and_falls_smoothly_even_in_a_short_span() -> None:
    envelope = fade_envelope(1000, 3000)
    assert envelope[0] == 0.0
    assert max(envelope) == pytest.approx(1.0, abs=1e-4)
    assert max(_steps(envelope)) < 0.01
    assert len(envelope) == 1000


# -- laying out and mixing ----------------------------------------------------


def _reveal_like() -> tuple[list[Placed], int, float]:
    """Four tone 'lines' with the reveal's pauses (eyes-open window 5 s)."""
    parts: list[array.array[int] | float] = [
        tone(1.4, 300),
        3.0,
        tone(2.6, 350),
        5.0,
        tone(1.9, 400),
        2.0,
        tone(2.2, 450),
    ]
    clips, total = lay_out(parts)
    return clips, total, 5.0


def test_lay_out_matches_the_renderer_sample_for_sample() -> None:
    parts: list[array.array[int] | float] = [tone(0.5), 1.25, tone(0.3, 200), 0.333, tone(0.2)]
    joined = array.array("h")
    for part in parts:
        joined.extend(part if isinstance(part, array.array) else silence(RATE, part))
    clips, total = lay_out(parts)
    assert total == len(joined)
    assert speech_track(clips, total) == joined
    assert [c.offset for c in clips] == [0, 11025 + 27562, 11025 + 27562 + 6615 + 7343]


def test_mix_keeps_every_speech_sample_at_its_offset_and_the_length() -> None:
    clips, total, window = _reveal_like()
    spans = [Span(clips[0].offset, clips[-1].end)]
    mixed = mix(clips, total, spans, DEFAULT_LEVEL)
    bed = bed_track(clips, total, spans, DEFAULT_LEVEL)
    assert len(mixed) == total
    speech = _minus(mixed, bed)
    for clip in clips:
        assert speech[clip.offset : clip.end] == list(clip.samples)
    assert speech == list(speech_track(clips, total))
    # The eyes-open window: the samples between the second and third clips.
    assert clips[2].offset - clips[1].end == round(window * RATE)
    # And the bed really is there (the test above would pass with no bed at all).
    assert rms(bed[clips[1].end : clips[2].offset]) > 100


def test_ambience_off_gives_todays_exact_silent_gaps() -> None:
    clips, total, window = _reveal_like()
    off = mix(clips, total, [Span(0, total)], 0.0)
    assert off == speech_track(clips, total)
    start, gap = longest_silence(Pcm(RATE, off), MEASURE_THRESHOLD)
    # (a tone's last samples near a zero crossing also count as silence)
    assert gap == pytest.approx(window, abs=3 / RATE)
    assert abs(round(start * RATE) - clips[1].end) <= 3
    no_span = mix(clips, total, [], DEFAULT_LEVEL)
    assert no_span == off


def test_eyes_closed_span_has_no_near_silent_stretch_over_a_second() -> None:
    clips, total, _ = _reveal_like()
    span = Span(clips[0].offset, clips[-1].end)
    mixed = mix(clips, total, [span], DEFAULT_LEVEL)
    inside = mixed[span.start : span.end]
    _, gap = longest_silence(Pcm(RATE, inside), MEASURE_THRESHOLD)
    assert gap < 1.0
    assert longest_near_silence(inside) < 1.0
    # Today's render (ambience off) fails the same measurement: the window is silent.
    off = speech_track(clips, total)[span.start : span.end]
    assert longest_near_silence(off) >= 4.9


def test_speech_ducks_the_bed_by_the_configured_depth() -> None:
    ducking = Ducking(depth_db=12.0, attack=0.08, release=0.4)
    line = tone(3.0)
    clips, total = lay_out([6.0, line, 6.0])
    bed = bed_track(clips, total, [Span(0, total)], 1.0, BedShape(ducking=ducking))
    clip = clips[0]
    margin = RATE // 2
    under = dbfs(rms(bed[clip.offset + margin : clip.end - margin]))
    away = dbfs(rms(bed[2 * RATE : 4 * RATE]))
    after = dbfs(rms(bed[clip.end + RATE : clip.end + 3 * RATE]))
    assert away - under == pytest.approx(12.0, abs=1.5)
    assert after == pytest.approx(away, abs=1.5)


@pytest.mark.parametrize("depth", [6.0, 18.0])
def test_ducking_depth_is_a_setting(depth: float) -> None:
    clips, total = lay_out([2.0, tone(2.0), 2.0])
    gain = duck_envelope(total, [(c.offset, c.end) for c in clips], Ducking(depth_db=depth))
    assert dbfs(min(gain) * 32767) == pytest.approx(-depth, abs=0.01)
    assert gain[0] == 1.0 and gain[-1] == 1.0


def test_ducking_ramps_are_smooth_and_look_ahead() -> None:
    ducking = Ducking(depth_db=12.0, attack=0.08, release=0.4)
    clips, total = lay_out([2.0, tone(1.0), 0.1, tone(1.0), 2.0])
    gain = duck_envelope(total, [(c.offset, c.end) for c in clips], ducking)
    low = 10 ** (-12 / 20)
    # Already fully down when the first line starts (the ramp ends there).
    assert gain[clips[0].offset] == pytest.approx(low)
    assert gain[clips[0].offset - round(0.08 * RATE) - 1] == 1.0
    # Two lines 0.1 s apart share one dip instead of pumping in between.
    assert max(gain[clips[0].end : clips[1].offset]) == pytest.approx(low)
    # No gain jump bigger than a raised-cosine step.
    assert max(_steps(gain)) < (1 - low) * math.pi / (2 * 0.08 * RATE) * 1.01


def test_bad_layouts_are_refused_with_a_sentence() -> None:
    clip = tone(0.1)
    with pytest.raises(ValueError, match="overlaps"):
        speech_track([Placed(0, clip), Placed(100, clip)], 10 * len(clip))
    with pytest.raises(ValueError, match="overlaps or overruns"):
        speech_track([Placed(0, clip)], len(clip) - 1)
    with pytest.raises(ValueError, match="outside the mix"):
        mix([], 100, [Span(50, 200)], DEFAULT_LEVEL)


# -- with real espeak-ng speech ------------------------------------------------


@pytest.mark.speech
def test_real_reveal_with_ambience_keeps_the_window_and_is_never_silent(
    speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    """The reveal as espeak speaks it, mixed as the renderer will mix it."""
    settings = VoiceSettings(reveal_seconds=5.0)
    library = ScriptLibrary.load(None)
    actions = library.actions("reveal", {"players": 7}, replace(settings, ambience=False))
    assert actions is not None
    parts: list[array.array[int] | float] = []
    for action in actions:
        if isinstance(action, Line):
            clip = speaker.synthesize(action.text, action.voice, settings.rate, 1.0).result(
                timeout=30
            )
            assert clip.path is not None
            parts.append(read_pcm(clip.path).samples)
        else:
            assert isinstance(action, Wait)
            parts.append(action.seconds)
    clips, total = lay_out(parts)
    # Ambience off is exactly today's render (the bare clips: no lead-in, not leveled).
    rendered = render_script(
        library,
        speaker,
        "reveal",
        {"players": 7},
        replace(settings, ambience=False, lead_in=0.0),
        tmp_path / "r.wav",
        leveled=False,
    )
    assert speech_track(clips, total) == read_pcm(rendered.path).samples
    span = Span(clips[0].offset, clips[-1].end)
    mixed = mix(clips, total, [span], DEFAULT_LEVEL)
    bed = bed_track(clips, total, [span], DEFAULT_LEVEL)
    speech = _minus(mixed, bed)
    for clip in clips:
        assert speech[clip.offset : clip.end] == list(clip.samples)
    window = [
        b.offset - a.end
        for a, b in itertools.pairwise(clips)
        if b.offset - a.end == round(5.0 * RATE)
    ]
    assert window, "the eyes-open window is not exactly 5 s between two lines"
    inside = mixed[span.start : span.end]
    _, gap = longest_silence(Pcm(RATE, inside), MEASURE_THRESHOLD)
    assert gap < 1.0
    assert longest_near_silence(inside) < 1.0
    # The speech stays well above the bed: at least 10 dB louder where a line plays.
    loudest = max(clips, key=lambda c: len(c.samples))
    speech_db = dbfs(rms(loudest.samples))
    bed_db = dbfs(rms(bed[loudest.offset : loudest.end]))
    assert speech_db - bed_db > 10
