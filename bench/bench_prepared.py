"""Key -> first sample for the first reveal (and finale) of a fresh cache, against the replay.

Issue 17 item 6: the first reveal of a night started ~0.6 s after Enter (its
lines synthesized and its span mixed then); a replay ~0.09 s. The narrator
now prepares the reveal when the seating is final and the finale when the
3rd Meeting starts (`Narrator.prepare`). Measured here, in one run, on real
espeak-ng clips with a stand-in player that records the moment it is asked to
play (the real player's start-up is the same for every row, and there is no
sound card to wait for):

  * first play, not prepared: a fresh cache, the engine warm (as the app's is
    after its warm-up), `play` at the "key";
  * first play, prepared: a fresh cache, `prepare` done before the key;
  * replay: the same script again (everything cached): the baseline.

Every row is the median of ROUNDS fresh caches; ratios are against the replay
of the same rounds. The key's moment is the call to `Narrator.play` (what the
TUI's Enter calls on its thread); the first sample reaches the sink when the
player is asked to play (the lead-in's silence comes first).

Run: `make bench`, or `.venv/bin/python bench/bench_prepared.py [--rounds N] [--lang fr]`.
With `--lang`, the table speaks that language with its engine (its installed natural
voice, when it has one: `mindflayer voices install fr`); the in-app rows stay English.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from measuring import StampingPlayer, ms

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narration_probes import PreparedFutures, library_present  # noqa: E402

from moderator.narration.events import Finished, NarrationEvent  # noqa: E402
from moderator.narration.narrator import Narrator  # noqa: E402
from moderator.narration.scripts.library import ScriptLibrary  # noqa: E402
from moderator.narration.settings import VoiceSettings  # noqa: E402
from moderator.narration.speech.engines import ChoosingSpeaker  # noqa: E402
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer  # noqa: E402

ROUNDS = 5
#: Scripts run fast: only the moment the first clip is handed over is measured.
SCALE = 0.01
SCRIPTS: dict[str, dict[str, object]] = {"reveal": {"players": 7}, "finale": {}}
TARGET_MS = 150.0


def _key_to_play(narrator: Narrator, player: StampingPlayer, script: str) -> float:
    """Seconds from `play` to the player's first request."""
    done = threading.Event()

    def on_event(event: NarrationEvent) -> None:
        if isinstance(event, Finished):
            done.set()

    player.asked.clear()
    begin = time.perf_counter()
    narrator.play(script, SCRIPTS[script], on_event)
    if not done.wait(120) or not player.asked:
        raise RuntimeError(f"the {script} did not play")
    return player.asked[0] - begin


def _round(folder: Path, script: str, prepared: bool, lang: str = "en") -> tuple[float, float]:
    """One fresh cache: (first play, replay) key -> first request, in seconds."""
    cache = folder / f"cache-{script}-{prepared}-{time.perf_counter_ns()}"
    player = StampingPlayer()
    system = Pyttsx3Synthesizer(cache, warm=False)
    speaker = ChoosingSpeaker(system, cache, player=player)
    library = ScriptLibrary.load(None)
    narrator = Narrator(VoiceSettings(lang=lang), library, speaker, SCALE)
    try:
        # The app's engine is warm by the time a game starts (its warm-up): so is this one,
        # and the language's natural voice, when it speaks with one.
        voice = library.languages[lang].voice
        speaker.synthesize("Warming up.", voice, 175, 1.0).result(timeout=60)
        if prepared and not narrator.prepare(script, SCRIPTS[script]).result(timeout=120):
            raise RuntimeError(f"the {script} could not be prepared")
        return _key_to_play(narrator, player, script), _key_to_play(narrator, player, script)
    finally:
        narrator.close()


async def _in_the_app(folder: Path) -> tuple[float, float]:
    """Enter on the reveal screen -> player asked: the first reveal, then a replay.

    The app's own path (key, controller, narrator) on a fresh cache, the
    reveal prepared by the app itself while the seating was typed (waited for
    here: a table types for far longer than the preparation takes).
    """
    from driving import key, new_game, until

    from moderator.tui.run import make_app

    cache = folder / f"app-cache-{time.perf_counter_ns()}"
    player = StampingPlayer()
    system = Pyttsx3Synthesizer(cache, warm=False)
    speaker = ChoosingSpeaker(system, cache, player=player)
    # Real time here: the reveal still runs when Esc stops it, so Enter replays it.
    narrator = PreparedFutures(Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, 1.0))
    dirs = {name: folder / f"{name}-{time.perf_counter_ns()}" for name in ("data", "config")}
    app = make_app(dirs["data"], dirs["config"], cache, None, narrator=narrator)
    times: list[float] = []
    async with app.run_test() as pilot:
        await new_game(pilot, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"])
        await until(
            pilot, lambda: bool(narrator.futures) and all(f.done() for f in narrator.futures)
        )
        for _ in range(2):
            player.asked.clear()
            begin = time.perf_counter()
            app.simulate_key("enter")
            await until(pilot, lambda: bool(player.asked))
            times.append(player.asked[0] - begin)
            await key(pilot, "escape")
    return times[0], times[1]


def _engine(lang: str) -> str:
    """What the language speaks with by default here: espeak-ng or a natural voice."""
    from moderator.narration.speech.voice_engines import choose_engine

    engine = choose_engine(VoiceSettings(lang=lang), lang).engine
    return "real espeak-ng" if engine == "espeak" else f"natural voice {engine}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--lang", default="en", help="the table's language (default en)")
    args = parser.parse_args()
    if not library_present():
        print("skipped: needs libespeak-ng1 (apt-get install libespeak-ng1)")
        return 0
    print(
        f"key -> player asked to play, fresh cache, median of {args.rounds}, "
        f"{args.lang} ({_engine(args.lang)}):"
    )
    with tempfile.TemporaryDirectory(prefix="bench-prepared-") as raw:
        folder = Path(raw)
        for script in SCRIPTS:
            cold = [_round(folder, script, False, args.lang) for _ in range(args.rounds)]
            warm = [_round(folder, script, True, args.lang) for _ in range(args.rounds)]
            replay = statistics.median([r for _, r in cold + warm])
            before = statistics.median([first for first, _ in cold])
            after = statistics.median([first for first, _ in warm])
            worst = max(first for first, _ in warm)
            print(f"  {script}:")
            print(f"    replay (baseline)            {ms(replay)}")
            print(
                f"    first, not prepared (before) {ms(before)}   "
                f"ratio {before / replay:6.2f}x replay"
            )
            print(
                f"    first, prepared (after)      {ms(after)}   "
                f"ratio {after / replay:6.2f}x replay   worst {ms(worst)}   "
                f"target {TARGET_MS:.0f} ms: {'met' if worst * 1000 <= TARGET_MS else 'MISSED'}"
            )
        in_app = [asyncio.run(_in_the_app(folder)) for _ in range(args.rounds)]
    first = statistics.median([f for f, _ in in_app])
    again = statistics.median([r for _, r in in_app])
    print("  in the app, Enter on the reveal screen -> player asked (prepared while seating):")
    print(f"    replay (baseline)            {ms(again)}")
    print(
        f"    first reveal                 {ms(first)}   ratio {first / again:6.2f}x replay   "
        f"target {TARGET_MS:.0f} ms: {'met' if first * 1000 <= TARGET_MS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
