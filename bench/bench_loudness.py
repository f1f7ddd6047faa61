"""CPU seconds of the loudness work in a fresh reveal mix: the fast meter, the plain one, a sum().

Why: leveling the reveal's clips and keeping its mix under the true-peak
ceiling took ~2.8 s of CPU on a loaded machine (true peak 1.47 s, loudness
1.2 s, the ceiling 0.95 s), which pushed a Pilot test towards its 60 s bound
and made the first reveal depend on being prepared. Measured here in one run,
interleaved, on the reveal's real espeak-ng clips (6 players) in each
language with the bed under them, as `span_mix` builds it:

  * baseline: a plain `sum()` over the same samples (every clip, then the mix);
  * plain meter: bench/loudness_reference.py, one Python step per
    sample (the code before this bench);
  * app: `moderator.narration.audio.loudness`, which must give the same samples
    (checked here on every round).

Each figure is `level` on every clip plus `under_ceiling` on the mix, CPU
seconds (`time.process_time`), the median of the rounds.

Run: `make bench`, or `.venv/bin/python bench/bench_loudness.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import array
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import loudness_reference  # noqa: E402
from narration_probes import library_present  # noqa: E402

from moderator.narration.audio import loudness  # noqa: E402
from moderator.narration.audio.mixer import BedShape, Span, lay_out, mix  # noqa: E402
from moderator.narration.audio.wavfile import read_pcm  # noqa: E402
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402

ROUNDS = 5
LANGUAGES = ("en", "fr", "de", "es")
CONTEXT: dict[str, object] = {"players": 6}

Mixture = tuple[list["array.array[int]"], list["array.array[int] | float"], int]


def _reveal(speaker: Pyttsx3Synthesizer, lang: str) -> Mixture:
    """The reveal's clips, its parts (clips and pauses, the lead-in first) and the rate."""
    settings = VoiceSettings(lang=lang).clamped()
    clips: list[array.array[int]] = []
    parts: list[array.array[int] | float] = [settings.lead_in]
    rate = 22050
    for action in ScriptLibrary.load(None).actions("reveal", CONTEXT, settings) or []:
        if isinstance(action, Line):
            clip = speaker.synthesize(action.said, action.voice, settings.rate, settings.volume)
            path = clip.result(timeout=60).path
            if path is None:
                raise RuntimeError(f"no audio for {action.text!r}")
            pcm = read_pcm(path)
            rate = pcm.rate
            clips.append(pcm.samples)
            parts.append(pcm.samples)
        elif isinstance(action, Wait):
            parts.append(action.seconds)
    return clips, parts, rate


def _loudness_work(meter: ModuleType, mixture: Mixture) -> tuple[float, array.array[int]]:
    """CPU seconds of leveling the clips and the ceiling on the mix, and the mix it gives.

    The mix itself (the bed, the ducking) is built between the two timed parts
    and not counted: it is the same work with either meter.
    """
    clips, parts, rate = mixture
    begin = time.process_time()
    leveled = {id(clip): meter.level(clip, rate) for clip in clips}
    spent = time.process_time() - begin
    laid = [
        leveled.get(id(part), part) if isinstance(part, array.array) else part for part in parts
    ]
    placed, total = lay_out(laid, rate)
    mixed = mix(placed, total, [Span(placed[0].offset, total)], 0.5, BedShape(rate=rate))
    begin = time.process_time()
    result = meter.under_ceiling(mixed)
    return spent + time.process_time() - begin, result


def _summed(mixture: Mixture, mixed: array.array[int]) -> float:
    """CPU seconds of a plain `sum()` over the same samples (the clips, then the mix)."""
    begin = time.process_time()
    for clip in mixture[0]:
        sum(clip)
    sum(mixed)
    return time.process_time() - begin


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):7.3f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    if not library_present():
        print("skipped: needs libespeak-ng1 (apt-get install libespeak-ng1)")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-loudness-") as raw:
        speaker = Pyttsx3Synthesizer(Path(raw), warm=False)
        mixtures = {lang: _reveal(speaker, lang) for lang in LANGUAGES}
    print(
        "loudness work per fresh reveal mix (6 players, bed on), CPU seconds, "
        f"median of {args.rounds} (real espeak-ng):"
    )
    header = f"{'sum() (baseline)':>18}{'plain meter':>24}{'app':>24}{'speed-up':>10}"
    print(f"  {'language':<10}{header}")
    timings: dict[str, list[float]] = {"base": [], "plain": [], "app": []}
    for lang, mixture in mixtures.items():
        rows: dict[str, list[float]] = {"base": [], "plain": [], "app": []}
        for _ in range(args.rounds):  # interleaved, so all three see the same machine load
            plain, expected = _loudness_work(loudness_reference, mixture)
            app, got = _loudness_work(loudness, mixture)
            if got != expected:
                raise RuntimeError(f"{lang}: the app's meter changed the audio")
            rows["plain"].append(plain)
            rows["app"].append(app)
            rows["base"].append(_summed(mixture, got))
        for name, values in rows.items():
            timings[name].extend(values)
        _row(lang, rows)
    _row("all", timings)
    print("  (the same samples from both meters, checked every round)")
    return 0


def _row(label: str, rows: dict[str, list[float]]) -> None:
    """One line: each median, the meters' ratios to the baseline and the app's speed-up."""
    base, plain, app = (statistics.median(rows[name]) for name in ("base", "plain", "app"))
    print(
        f"  {label:<10}{_median(rows['base']):>18}"
        f"{_median(rows['plain']):>14} {plain / base:6.0f}x sum"
        f"{_median(rows['app']):>14} {app / base:6.0f}x sum{plain / app:8.1f}x"
    )


if __name__ == "__main__":
    sys.exit(main())
