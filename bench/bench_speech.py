"""Speech latency and reveal-window accuracy, against the `espeak-ng -w` CLI.

Run with `make bench` (or `.venv/bin/python bench/bench_speech.py`). Needs
libespeak-ng1, espeak-ng and aplay (alsa-utils). Audio goes to a null ALSA
device (a temporary HOME with `pcm.!default { type null }`), so the numbers
measure the pipeline, not a sound card, and the bench runs headless.

Measured:
  * "speak this line" -> playback start (the moment aplay has been started):
    our pipeline cold (line not cached, engine warm), cached, and the very
    first line of a new speaker (engine start-up included); the baseline is
    `espeak-ng -w FILE TEXT` followed by starting aplay on FILE.
  * reveal window error: the eyes-open silence measured from the rendered
    reveal's samples, and from live narration timestamps, against the setting.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from measuring import ms

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audio_measures import longest_silence  # noqa: E402
from narration_probes import library_present  # noqa: E402

from moderator.narration import (  # noqa: E402
    Finished,
    LineStarted,
    NarrationEvent,
    VoiceSettings,
    make_narrator,
)
from moderator.narration.audio.wavfile import read_pcm  # noqa: E402
from moderator.narration.render import render_script  # noqa: E402
from moderator.narration.scripts.library import ScriptLibrary  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402

ROUNDS = 15
MEASURE_THRESHOLD = 200
SENTENCE = "Possessed players, open your eyes and find each other, number {n}."


def _ours_to_start(speaker: ChoosingSpeaker, text: str) -> float:
    begin = time.perf_counter()
    clip = speaker.synthesize(text, "en", 160, 1.0).result(timeout=30)
    started: list[float] = []
    speaker.play(clip, lambda: started.append(time.perf_counter()))
    return started[0] - begin


def _espeak_cli_to_start(folder: Path, text: str) -> float:
    out = folder / "cli.wav"
    begin = time.perf_counter()
    subprocess.run(
        ["espeak-ng", "-v", "en", "-s", "160", "-w", str(out), text],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    player = subprocess.Popen(
        ["aplay", "-q", str(out)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    elapsed = time.perf_counter() - begin
    player.wait(timeout=30)
    return elapsed


def _latency(folder: Path) -> None:
    cache = folder / "cache"
    first_begin = time.perf_counter()
    speaker = ChoosingSpeaker(Pyttsx3Synthesizer(cache), cache)
    first = _ours_to_start(speaker, SENTENCE.format(n="zero"))
    first_total = time.perf_counter() - first_begin
    cold = [_ours_to_start(speaker, SENTENCE.format(n=n)) for n in range(1, ROUNDS + 1)]
    cached = [_ours_to_start(speaker, SENTENCE.format(n=n)) for n in range(1, ROUNDS + 1)]
    speaker.close()
    baseline = [_espeak_cli_to_start(folder, SENTENCE.format(n=n)) for n in range(1, ROUNDS + 1)]

    base = statistics.median(baseline)
    cold_m, cached_m = statistics.median(cold), statistics.median(cached)
    rows = [
        ("espeak-ng -w + aplay (baseline)", base, ""),
        ("ours, cold (not cached)", cold_m, f"ratio {cold_m / base:5.2f}x baseline"),
        ("ours, cached", cached_m, f"ratio {cached_m / base:5.2f}x baseline"),
        (
            "ours, first line of a new speaker",
            first,
            f"ratio {first / base:5.2f}x baseline (construction to start: {ms(first_total)})",
        ),
    ]
    print(f"latency, 'speak this line' -> playback start (median of {ROUNDS}):")
    for label, value, note in rows:
        print(f"  {label:<34}{ms(value)}   {note}")


def _reveal_rendered(folder: Path) -> None:
    library = ScriptLibrary.load(None)
    speaker = Pyttsx3Synthesizer(folder / "cache")
    # The bed off: with it on (the default) the eyes-open window is the
    # bed, not silence, and the longest silence was the lead-in (0.251 s measured).
    print(
        "reveal window, rendered WAV (7 players, bed off), longest silence measured from samples:"
    )
    try:
        for window in (5.0, 8.0):
            out = folder / f"reveal-{window:g}.wav"
            render_script(
                library,
                speaker,
                "reveal",
                {"players": 7},
                VoiceSettings(reveal_seconds=window, ambience=False),
                out,
            )
            _, measured = longest_silence(read_pcm(out), MEASURE_THRESHOLD)
            error = measured - window
            print(
                f"  configured {window:4.1f} s  measured {measured:7.3f} s  "
                f"error {error * 1000:+6.1f} ms  ratio {measured / window:.4f}"
            )
    finally:
        speaker.close()


def _recorder(starts: list[float], done: threading.Event) -> Callable[[NarrationEvent], None]:
    def on_event(event: NarrationEvent) -> None:
        if isinstance(event, LineStarted):
            starts.append(time.monotonic())
        elif isinstance(event, Finished):
            done.set()

    return on_event


def _reveal_live(folder: Path) -> None:
    """Live narration on the null device: gap between the two captions minus line 1's audio."""
    scripts = folder / "scripts"
    (scripts / "en").mkdir(parents=True, exist_ok=True)
    line = "Possessed players, open your eyes and find each other."
    (scripts / "en" / "reveal.toml").write_text(
        f'[[step]]\nsay = "{line}"\n[[step]]\npause = "{{seconds}}"\n'
        '[[step]]\nsay = "Possessed players, close your eyes."\n',
        encoding="utf-8",
    )
    cache = folder / "cache"
    probe = Pyttsx3Synthesizer(cache)
    # The line as the narrator speaks it: the English voice at the settings' rate.
    voice = ScriptLibrary.load(None).languages["en"].voice
    duration = probe.synthesize(line, voice, VoiceSettings().rate, 1.0).result(timeout=30).duration
    probe.close()
    print("reveal window, live narration (null ALSA device), from caption timestamps:")
    for window in (5.0, 8.0):
        narrator = make_narrator(VoiceSettings(reveal_seconds=window), scripts, cache)
        done = threading.Event()
        starts: list[float] = []
        narrator.play("reveal", {}, _recorder(starts, done))
        done.wait(60)
        narrator.close()
        measured = starts[1] - starts[0] - duration
        print(
            f"  configured {window:4.1f} s  measured {measured:7.3f} s  "
            f"error {(measured - window) * 1000:+6.1f} ms"
        )


def main() -> int:
    missing = [tool for tool in ("espeak-ng", "aplay") if shutil.which(tool) is None]
    if not library_present() or missing:
        print(f"skipped: needs libespeak-ng1, espeak-ng and alsa-utils (missing: {missing})")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-speech-") as raw:
        folder = Path(raw)
        home = folder / "home"
        home.mkdir()
        (home / ".asoundrc").write_text("pcm.!default { type null }\n", encoding="utf-8")
        os.environ["HOME"] = str(home)
        _latency(folder)
        _reveal_rendered(folder)
        _reveal_live(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
