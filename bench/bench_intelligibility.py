"""Intelligibility of the narration, scored by an offline recognizer (pocketsphinx).

Run with `make bench` (or `.venv/bin/python bench/bench_intelligibility.py`).
Needs the speech engine (libespeak-ng, or the espeakng-loader wheel) and the
test extra (pocketsphinx, which ships its US-English model).

Every English script is rendered through the app's real pipeline (pyttsx3 +
espeak-ng in the synthesis child, trimmed and cached, pauses as silence, as
`mindflayer narrate --wav` writes it) and transcribed with open decoding; the
word error rate (WER) is printed per script, with what the recognizer heard.
Then every line is grammar-decoded: a line counts as recognized when the
recognizer picks exactly it among all the English lines.

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
sys.path.insert(0, str(ROOT / "tests" / "narration"))

from speech_scoring import Recognizer, score_lines, score_script, scoring_problem  # noqa: E402

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


def measure(library: ScriptLibrary, rate: int, workdir: Path) -> tuple[dict[str, float], int, int]:
    """WER per script, then (recognized, total) lines, for one voice and rate."""
    voice = library.languages[BASE_LANGUAGE].voice
    recognizer = Recognizer()
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
            score = score_script(library, fresh, recognizer, name, settings, workdir)
        finally:
            fresh.close()
        wer[name] = score.wer
        print(f"  {name:<14} WER {score.wer:4.2f}  heard: {score.heard}")
    speaker = Pyttsx3Synthesizer(workdir / f"cache-{voice}-{rate}", warm_up=(voice, rate, 1.0))
    try:
        lines = score_lines(library, speaker, recognizer, SCRIPT_NAMES, settings)
        missed = [line for line in lines if not line.recognized]
        for line in missed:
            print(f"  missed ({line.script}): {line.text!r} -> {line.heard!r}")
        reveal_missed = sum(1 for line in missed if line.script == "reveal")
        if reveal_missed:
            print(f"  {reveal_missed} reveal line(s) not recognized")
        return wer, len(lines) - len(missed), len(lines)
    finally:
        speaker.close()


def main() -> int:
    """Print the figures; exit 1 when a target is missed."""
    missing = scoring_problem()
    if missing is not None:
        print(f"skipped: {missing}")
        return 0
    library = ScriptLibrary.load(None)
    voice = library.languages[BASE_LANGUAGE].voice
    rate = VoiceSettings().rate
    with tempfile.TemporaryDirectory(prefix="mindflayer-bench-") as folder:
        workdir = Path(folder)
        print(f"baseline: voice {BASELINE_VOICE!r} at {BASELINE_RATE} wpm, same scripts")
        base_wer, base_ok, total = measure(
            with_voice(library, BASELINE_VOICE), BASELINE_RATE, workdir
        )
        print(f"ours: voice {voice!r} at {rate} wpm (the shipped defaults)")
        wer, ok, total = measure(library, rate, workdir)
    print()
    print(f"{'script':<14} {'baseline':>9} {'ours':>6} {'ratio':>6}")
    for name in SCRIPT_NAMES:
        ratio = wer[name] / base_wer[name] if base_wer[name] else float("nan")
        print(f"{name:<14} {base_wer[name]:9.2f} {wer[name]:6.2f} {ratio:6.2f}")
    print(f"lines recognized (grammar decode): baseline {base_ok} of {total}, ours {ok} of {total}")
    worst = max(wer["reveal"], wer["finale"])
    if worst > TARGET_WER:
        print(f"FAIL: reveal/finale WER {worst:.2f} is above the target {TARGET_WER}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
