"""Speech fails safe, and says so (issue 16, item 5).

Every fault is told wherever it happens, also inside the reveal's mixed span;
a broken player is skipped for the rest of the script; the marker clears when
speech works again; a line whose engine died is synthesized again, once.
"Told at once" is checked by the order of events, never by a timed assert.

Synthesis is real espeak-ng (the `speech` fixture); the players are small
programs standing in for a player that dies, hangs or works, each noting its
starts in a file. A fake only injects the fault.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from event_recorders import Recorder

import moderator
from moderator.narration.events import (
    AmbienceSpan,
    Finished,
    LineStarted,
    Notice,
    SpeechFaulted,
    SpeechRecovered,
    VoiceHealth,
)
from moderator.narration.narrator import Narrator
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

pytestmark = pytest.mark.usefixtures("speech")

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent
#: Bound on a whole script in these tests (a loaded machine); they end in seconds.
BOUND = 60.0
REVEAL = {"seconds": 5}


def stand_in_player(tmp_path: Path, behaviour: str) -> tuple[CommandPlayer, Path]:
    """A player program that notes each start in a file, then does `behaviour` (Python)."""
    starts = tmp_path / "player-starts"
    script = tmp_path / "player.py"
    script.write_text(
        f"import sys, time\nstarts = open({str(starts)!r}, 'a')\n"
        "starts.write('start\\n')\nstarts.close()\n"
        f"first = open({str(starts)!r}).read().count('start') == 1\n{behaviour}\n",
        encoding="utf-8",
    )
    return CommandPlayer([sys.executable, str(script)]), starts


def started(starts: Path) -> int:
    return starts.read_text().count("start") if starts.exists() else 0


class Health:
    """Collects what `watch_faults` tells, from any thread."""

    def __init__(self) -> None:
        self.events: list[VoiceHealth] = []
        self._changed = threading.Condition()

    def __call__(self, event: VoiceHealth) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def wait_for(self, kind: type, bound: float = BOUND) -> bool:
        with self._changed:
            return self._changed.wait_for(
                lambda: any(isinstance(e, kind) for e in self.events), bound
            )


def narrator_with(cache: Path, player: CommandPlayer, scale: float) -> Narrator:
    synthesizer = Pyttsx3Synthesizer(cache, warm=False)
    speaker = ChoosingSpeaker(synthesizer, cache, player=player)
    return Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, scale)


def play(narrator: Narrator, script: str, context: dict[str, object]) -> Recorder:
    recorder = Recorder()
    narrator.play(script, context, recorder)
    assert recorder.wait(BOUND), f"{script} did not finish"
    return recorder


def test_a_player_dying_inside_the_span_is_told_there_and_the_marker_clears_later(
    tmp_path: Path, speech_cache: Path
) -> None:
    """Killed during the span: told before the span ends; the next script's clip clears it."""
    player, starts = stand_in_player(
        tmp_path, "if first:\n    time.sleep(0.3)\n    sys.exit(1)"
    )  # dies 0.3 s into the span (as a player killed mid-reveal), works afterwards
    narrator = narrator_with(speech_cache, player, scale=0.2)
    health = Health()
    narrator.watch_faults(health)
    try:
        reveal = play(narrator, "reveal", REVEAL)
        kinds = [type(event) for _, event in reveal.events]
        assert AmbienceSpan in kinds and Notice in kinds, kinds
        told, span_end = kinds.index(Notice), len(kinds) - 1 - kinds[::-1].index(AmbienceSpan)
        assert told < span_end, "the fault must be told during the span, not after it"
        assert reveal.of(Finished) == [Finished(cancelled=False)]
        assert len(reveal.of(LineStarted)) == 4  # the captions went on
        assert [e.part for e in health.events if isinstance(e, SpeechFaulted)] == ["device"]
        again = play(narrator, "turn", {"player": "Max"})
        assert again.of(Notice) == []
        assert health.wait_for(SpeechRecovered)
        assert [e.part for e in health.events if isinstance(e, SpeechRecovered)] == ["device"]
        assert started(starts) == 2
    finally:
        narrator.close()


def test_a_hung_player_costs_one_bound_then_is_skipped_for_the_script(
    tmp_path: Path, speech_cache: Path
) -> None:
    """A player that never ends: told once, and the finale's other six lines skip it."""
    player, starts = stand_in_player(tmp_path, "time.sleep(1000)")
    narrator = narrator_with(speech_cache, player, scale=0.01)
    try:
        finale = play(narrator, "finale", {"growl_seconds": 2})
        assert len(finale.of(LineStarted)) == 7
        assert [n.message for n in finale.of(Notice)] == [
            m for m in narrator.warnings if "stopped responding" in m
        ]
        assert len(finale.of(Notice)) == 1
        assert started(starts) == 1, "a hung player must not be started for every line"
        play(narrator, "turn", {"player": "Max"})  # the next script tries it again
        assert started(starts) == 2
    finally:
        narrator.close()


def test_a_line_whose_engine_died_is_synthesized_again_once(tmp_path: Path) -> None:
    """The child dies while making the second line: every line still gets its audio."""
    command = dying_worker(tmp_path, line=2, lives=1)
    synthesizer = Pyttsx3Synthesizer(tmp_path / "cache", command, warm=False)
    actions = ScriptLibrary.load(None).actions("reveal", REVEAL, VoiceSettings())
    lines = [a for a in actions or [] if isinstance(a, Line)]
    try:
        futures = [synthesizer.synthesize(line.text, line.voice, 175, 1.0) for line in lines]
        clips = [future.result(timeout=BOUND) for future in futures]
    finally:
        synthesizer.close()
    assert (tmp_path / "deaths").read_text() == "x", "the fault was not injected"
    assert len(clips) == 4 and all(clip.path is not None for clip in clips)


def test_the_engine_marker_clears_when_a_later_line_is_synthesized(tmp_path: Path) -> None:
    """The first line is lost (its engine died twice); the second works: marker cleared."""
    command = dying_worker(tmp_path, line=1, lives=2)
    synthesizer = Pyttsx3Synthesizer(tmp_path / "cache", command, warm=False)
    player, _ = stand_in_player(tmp_path, "pass")
    speaker = ChoosingSpeaker(synthesizer, tmp_path / "cache", player=player)
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, 0.01)
    health = Health()
    narrator.watch_faults(health)
    try:
        finale = play(narrator, "finale", {"growl_seconds": 2})
    finally:
        narrator.close()
    assert len(finale.of(LineStarted)) == 7
    assert [type(e).__name__ + ":" + e.part for e in health.events] == [
        "SpeechFaulted:engine",
        "SpeechRecovered:engine",
    ]


def dying_worker(tmp_path: Path, line: int, lives: int) -> list[str]:
    """The real synthesis child, dying on its `line`-th line in each of its first `lives` lives."""
    deaths = tmp_path / "deaths"
    worker = tmp_path / "dying_worker.py"
    worker.write_text(
        f"import os, sys\nsys.path.insert(0, {str(PACKAGE_ROOT)!r})\n"
        "from moderator.narration.speech import synth_worker\n"
        "made = synth_worker.EngineOwner.synthesize\n"
        "calls = []\n"
        f"def died():\n    return open({str(deaths)!r}).read().count('x') if "
        f"os.path.exists({str(deaths)!r}) else 0\n"
        "def synthesize(self, text, path, markup=False):\n"
        "    calls.append(text)\n"
        f"    if len(calls) == {line + 1} and died() < {lives}:\n"  # call 1 is the warm-up
        f"        open({str(deaths)!r}, 'a').write('x')\n"
        "        os._exit(1)\n"
        "    return made(self, text, path, markup)\n"
        "synth_worker.EngineOwner.synthesize = synthesize\n"
        "sys.exit(synth_worker.main())\n",
        encoding="utf-8",
    )
    return [sys.executable, str(worker)]


def test_a_span_that_plays_clears_the_player_marker(tmp_path: Path, speech_cache: Path) -> None:
    """The player failed on the turn line; the next reveal's span plays: marker cleared."""
    player, starts = stand_in_player(tmp_path, "sys.exit(1 if first else 0)")
    narrator = narrator_with(speech_cache, player, scale=0.05)
    health = Health()
    narrator.watch_faults(health)
    try:
        play(narrator, "turn", {"player": "Max"})
        assert [e.part for e in health.events if isinstance(e, SpeechFaulted)] == ["device"]
        reveal = play(narrator, "reveal", REVEAL)
        assert AmbienceSpan(started=True, audible=True) in reveal.of(AmbienceSpan)
    finally:
        narrator.close()
    assert [e.part for e in health.events if isinstance(e, SpeechRecovered)] == ["device"]
    assert started(starts) == 2
