"""How long the ambience bed and the mix take, against writing as many silent samples.

The bed is generated with the stdlib only (no numpy), so its cost matters: a
reveal's eyes-closed span (about 15 s) must be ready while the first line is
being synthesized. Measured in the same run, repeated, medians printed:

  * baseline: a WAV of N silent samples written atomically (what rendering a
    pause costs today);
  * bed: `render_bed` for N samples (cold: first call in the process, which
    also builds the drone's period; warm: later calls), then written the same way;
  * mix: four speech-like clips over a reveal-shaped 30 s timeline with one
    bed span (fades, ducking, exact offsets), then written the same way.

Run: `make bench`, or `.venv/bin/python bench/bench_ambience.py [--seconds S]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audio_measures import render_bed, tone  # noqa: E402

from moderator.narration.audio.ambience import DEFAULT_LEVEL, RATE  # noqa: E402
from moderator.narration.audio.mixer import Span, lay_out, mix  # noqa: E402
from moderator.narration.audio.wavfile import Pcm, silence, write_pcm_atomic  # noqa: E402

ROUNDS = 7


def _timed(action: Callable[[], None]) -> float:
    begin = time.perf_counter()
    action()
    return time.perf_counter() - begin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    count = round(args.seconds * RATE)
    with tempfile.TemporaryDirectory(prefix="bench-ambience-") as raw:
        out = Path(raw) / "out.wav"

        def baseline() -> None:
            write_pcm_atomic(out, Pcm(RATE, silence(RATE, args.seconds)))

        def bed() -> None:
            write_pcm_atomic(out, Pcm(RATE, render_bed(count, DEFAULT_LEVEL)))

        pause = (args.seconds - 8.0) / 3
        clips, total = lay_out(
            [tone(1.5, 300), pause, tone(2.5, 350), pause, tone(2.0, 400), pause,
             tone(2.0, 450)]
        )  # fmt: skip

        def mixed() -> None:
            samples = mix(clips, total, [Span(0, total)], DEFAULT_LEVEL)
            write_pcm_atomic(out, Pcm(RATE, samples))

        cold = _timed(bed)
        base_times, bed_times, mix_times = [], [], []
        for _ in range(ROUNDS):  # interleaved, so all three see the same machine load
            base_times.append(_timed(baseline))
            bed_times.append(_timed(bed))
            mix_times.append(_timed(mixed))
    base = statistics.median(base_times)
    print(f"ambience for {args.seconds:g} s of audio ({count} samples), median of {ROUNDS}:")
    print(f"  {'silent samples written (baseline)':<36}{base * 1000:8.1f} ms")
    rows = [
        ("bed rendered + written, cold", cold),
        ("bed rendered + written, warm", statistics.median(bed_times)),
        ("reveal-like mix + written", statistics.median(mix_times)),
    ]
    for label, value in rows:
        print(
            f"  {label:<36}{value * 1000:8.1f} ms   ratio {value / base:6.1f}x baseline, "
            f"{args.seconds / value:5.1f}x faster than real time"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
