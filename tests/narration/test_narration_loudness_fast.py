"""The fast loudness meter gives exactly the plain meter's numbers and samples, with few steps.

The plain meter (loudness_reference.py, one Python step per sample) is the
definition; the app's meter must give the same true peak, loudness, gains and
samples to the bit, on made-up signals (edges, silence, values past 16 bits)
and on real espeak-ng speech in every shipped language, clip by clip and in
the reveal's mix with the bed. How fast it is is the bench's business
(bench/bench_loudness.py); here, without a clock, it must not make a Python
call per sample (the plain meter made two to five).
"""

from __future__ import annotations

import array
import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType

import loudness_reference as plain
import pytest

from moderator.narration.audio import loudness as fast
from moderator.narration.audio.mixer import BedShape, Span, lay_out, mix
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

RATE = 22050


def _signals() -> Iterator[tuple[str, Sequence[int]]]:
    rng = random.Random(17)
    yield "empty", array.array("h")
    yield "silence", array.array("h", bytes(2000))
    yield "three samples", array.array("h", [5, -3, 200])
    yield "a list at both ends of 16 bits", [1, -32768, 32767, 0]
    yield "values past 16 bits", [40000, -3, 12, -41000, 7]
    yield (
        "quiet noise (under one high byte)",
        array.array("h", [rng.randrange(-200, 200) for _ in range(3000)]),
    )
    yield (
        "loud noise, long (the gain table)",
        array.array("h", [rng.randrange(-32768, 32768) for _ in range(120_000)]),
    )
    burst = [
        round(9000 * math.sin(i / 7) * math.sin(math.pi * (i % 4410) / 4410))
        for i in range(150_000)
    ]
    yield "tone bursts", array.array("h", burst)
    yield "a loud sample at each edge", array.array("h", [30000] + [100] * 50 + [-30000])
    yield "speech-like (noise, a syllable's swell)", _speech_like(rng, 150_000)


def _speech_like(rng: random.Random, count: int) -> array.array[int]:
    """Noise swelling and fading at a syllable's pace: speech's peaks over its loudness."""
    swell = [math.sin(math.pi * (i % 3300) / 3300) ** 2 for i in range(count)]
    return array.array("h", [max(-32768, min(32767, round(rng.gauss(0, 3000) * s))) for s in swell])


@pytest.mark.parametrize(("name", "samples"), list(_signals()), ids=lambda v: str(v)[:30])
def test_the_fast_meter_gives_the_plain_meters_numbers(name: str, samples: Sequence[int]) -> None:
    assert fast.true_peak(samples) == plain.true_peak(samples)
    assert fast.integrated_loudness(samples, RATE) == plain.integrated_loudness(samples, RATE)
    for gain in (0.3, 1.0, 2.7, 40.0):  # 40: far past full scale, clamped
        assert fast.scaled(samples, gain) == plain.scaled(samples, gain)
    if max(map(abs, samples), default=0) <= 32768:
        assert fast.level(samples, RATE) == plain.level(samples, RATE)
        pcm = array.array("h", samples)
        assert fast.under_ceiling(pcm) == plain.under_ceiling(pcm)


def _calls_during(action: Callable[[], object]) -> int:
    """How many Python calls (functions and builtins) `action` makes from Python code."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return count


def test_leveling_and_the_ceiling_make_no_python_call_per_sample() -> None:
    """The plain meter called abs() twice per sample for the true peak, and max(), min()
    and round() per sample for a gain: ~2.8 s of CPU for a reveal mix on a loaded machine.

    Calls are made only around the loud samples (here 1.6 % of them; 0.3 % in speech).
    """
    samples = dict(_signals())["speech-like (noise, a syllable's swell)"]
    assert isinstance(samples, array.array)
    loud = fast.scaled(samples, 3.0)  # over the ceiling: the mix is scaled down
    calls = _calls_during(lambda: (fast.level(samples, RATE), fast.under_ceiling(loud)))
    assert calls < len(samples) // 3


@pytest.mark.speech
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_reveal_is_leveled_and_mixed_to_the_same_samples_as_before(
    speech: None, fresh_speaker: Pyttsx3Synthesizer, lang: str
) -> None:
    """Real espeak-ng clips, then the reveal's mix with the bed under it: bit for bit."""
    settings = VoiceSettings(lang=lang).clamped()
    parts: list[array.array[int] | float] = [settings.lead_in]
    for action in ScriptLibrary.load(None).actions("reveal", {"players": 6}, settings) or []:
        if isinstance(action, Line):
            future = fresh_speaker.synthesize(
                action.said, action.voice, settings.rate, settings.volume
            )
            path = future.result(timeout=60).path
            assert path is not None
            samples = read_pcm(path).samples
            leveled = fast.level(samples, RATE)
            assert leveled == plain.level(samples, RATE), action.text
            parts.append(leveled)
        elif isinstance(action, Wait):
            parts.append(action.seconds)
    placed, total = lay_out(parts, RATE)
    mixed = mix(placed, total, [Span(placed[0].offset, total)], settings.bed_level, BedShape())
    assert fast.true_peak(mixed) == plain.true_peak(mixed)
    assert fast.under_ceiling(mixed) == plain.under_ceiling(mixed)
