"""The table read aloud (F3, issue 35): its sentence for a 10-player game, and key -> first sound.

For each language the script ships in (en, fr, de, es), the real app on fresh
folders and a fresh audio cache, with real espeak-ng clips and a stand-in
player that notes the moment it is asked to play (as bench_prepared.py: there
is no sound card to wait for, and a real player's start-up is the same for
every row). A 10-player game is seated and played by the controller to a
telling state (turn 14, one Meeting done, two players knocked out); then F3
is pressed on the table screen and timed to the player's first request:

  * first: the sentence never said before (synthesized at the key);
  * again: F3 once more, the same sentence (its clips cached): the baseline.

Medians of ROUNDS fresh apps; ratios against the baseline of the same rounds;
the target is 300 ms from the key to the first sound. The sentence shown (the
same one spoken) is printed for each language, and the series score's sentence
between games.

Run: `make bench`, or `.venv/bin/python bench/bench_read_aloud.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narration_probes import library_present  # noqa: E402

from moderator.narration.narrator import Narrator  # noqa: E402
from moderator.narration.scripts.library import ScriptLibrary  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402
from moderator.narration.speech.speaker import SpeechFault  # noqa: E402

ROUNDS = 3
LANGUAGES = ("en", "fr", "de", "es")
TEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jo"]
TARGET_MS = 300.0


class StampingPlayer:
    """Starts at once and notes when it is asked to play (a recording stand-in)."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def available(self) -> SpeechFault | None:
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        self.asked.append(time.perf_counter())
        on_start()

    def stop(self) -> None:
        pass


async def _round(folder: Path, lang: str) -> tuple[float, float, str, str]:
    """One fresh app in `lang`: (first F3, F3 again) key -> player asked, and both sentences."""
    from controller_shortcuts import accepted, controller_of, declared, knocked_out, show, started
    from driving import key, until
    from no_message_left import record_toasts, toasts

    from moderator.tui.run import make_app
    from moderator.tui.screens.series import SeriesScreen
    from moderator.tui.screens.table import TableScreen

    stamp = time.perf_counter_ns()
    cache = folder / f"cache-{lang}-{stamp}"
    dirs = {name: folder / f"{name}-{lang}-{stamp}" for name in ("data", "config")}
    dirs["config"].mkdir(parents=True)
    (dirs["config"] / "settings.json").write_text(json.dumps({"lang": lang}), encoding="utf-8")
    player = StampingPlayer()
    system = Pyttsx3Synthesizer(cache, warm=False)
    speaker = ChoosingSpeaker(system, cache, player=player)
    # As the app's own narrator is built from the table's settings (real time).
    library = ScriptLibrary.load(None)
    narrator = Narrator(VoiceSettings(lang=lang), library, speaker, 1.0)
    voice = library.languages[lang].voice
    app = make_app(dirs["data"], dirs["config"], cache, None, narrator=narrator)
    record_toasts(app)
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        # The app's engine is warm in the table's voice by the time a game is played (its
        # warm-up, `build_narrator`): so is this one.
        system.synthesize("Warming up.", voice, 175, 1.0).result(timeout=60)
        controller = controller_of(pilot)
        started(controller, TEN)
        accepted(controller.finish_reveal())
        for _turn in range(6):
            accepted(controller.pass_turn())
        accepted(controller.draw_meeting())
        accepted(controller.resolve_meeting())
        for _turn in range(6):
            accepted(controller.pass_turn())
        await show(pilot, knocked_out(controller, 4, 8), TableScreen)
        await until(pilot, lambda: not controller.speaking)
        for _ in range(2):
            player.asked.clear()
            begin = time.perf_counter()
            app.simulate_key("f3")
            await until(pilot, lambda: bool(player.asked))
            times.append(player.asked[0] - begin)
            await until(pilot, lambda: not controller.speaking)
        in_game = toasts(app)[-1]
        knocked_out(controller, 2, 3, 5, 6, 7, 9)  # two left in play: the game ends
        await show(pilot, declared(controller, [0, 1, 2], {5: 2}), SeriesScreen)
        await until(pilot, lambda: not controller.speaking)
        await key(pilot, "f3")
        await until(pilot, lambda: not controller.speaking)
        between = toasts(app)[-1]
    narrator.close()
    return times[0], times[1], in_game, between


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--lang", choices=LANGUAGES, action="append", help="(default: all four)")
    args = parser.parse_args()
    if not library_present():
        print("skipped: needs libespeak-ng1 (apt-get install libespeak-ng1)")
        return 0
    print(f"F3 (the table read aloud) -> player asked to play, median of {args.rounds} apps:")
    with tempfile.TemporaryDirectory(prefix="bench-read-aloud-") as raw:
        for lang in args.lang or LANGUAGES:
            rounds = [asyncio.run(_round(Path(raw), lang)) for _ in range(args.rounds)]
            first = statistics.median(r[0] for r in rounds)
            again = statistics.median(r[1] for r in rounds)
            worst = max(r[0] for r in rounds)
            met = "met" if worst * 1000 <= TARGET_MS else "MISSED"
            print(f"  {lang}:")
            print(f"    10 players, in game: {rounds[0][2]}")
            print(f"    between games:       {rounds[0][3]}")
            print(f"    again, cached (baseline)  {_ms(again)}")
            print(
                f"    first F3                  {_ms(first)}   ratio {first / again:6.2f}x   "
                f"worst {_ms(worst)}   target {TARGET_MS:.0f} ms: {met}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
