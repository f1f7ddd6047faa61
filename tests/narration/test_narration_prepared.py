"""The first reveal is as fast as a replay: prepared before the key, played from what is ready.

Issue 17 item 6. Synthesis is real espeak-ng on a fresh cache; the player is a
stand-in that records when it is asked to play. The tests assert on what
happens after the key (the order of events), never on how long it took; the
figures are bench/bench_prepared.py's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

import pytest
from event_recorders import Recorder
from narration_probes import PreparedFutures

from moderator.narration.events import Finished, LineStarted
from moderator.narration.narrator import Narrator
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import Clip, SpeechFault

CONTEXT = {"players": 7, "seconds": 5.0}
SCALE = 0.02
KEY = ("key", "")


class Log:
    """What the speaker was asked, in order, from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.entries: list[tuple[str, str]] = []

    def add(self, kind: str, what: str) -> None:
        with self._lock:
            self.entries.append((kind, what))

    def after_key(self) -> list[tuple[str, str]]:
        with self._lock:
            entries = list(self.entries)
        return entries[entries.index(KEY) + 1 :]


class LoggingSynthesizer:
    """The real espeak-ng synthesizer, logging each line it is asked for."""

    def __init__(self, real: Pyttsx3Synthesizer, log: Log) -> None:
        self.real = real
        self.log = log

    def problems(self) -> list[SpeechFault]:
        return self.real.problems()

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        self.log.add("synthesize", text)
        return self.real.synthesize(text, voice, rate, volume)

    def close(self) -> None:
        self.real.close()


class LoggingPlayer:
    """Starts at once and logs each file it is asked to play."""

    def __init__(self, log: Log) -> None:
        self.log = log

    def available(self) -> SpeechFault | None:
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        self.log.add("play", path.name)
        on_start()

    def stop(self) -> None:
        pass


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def speaker(speech: None, tmp_path: Path, log: Log) -> Iterator[ChoosingSpeaker]:
    cache = tmp_path / "fresh-cache"  # nothing synthesized or mixed yet
    system = LoggingSynthesizer(Pyttsx3Synthesizer(cache, warm=False), log)
    speaker = ChoosingSpeaker(system, cache, player=LoggingPlayer(log))
    yield speaker
    speaker.close()


def _key(narrator: Narrator, log: Log, script: str, context: dict[str, object]) -> Recorder:
    log.add(*KEY)
    recorder = Recorder()
    narrator.play(script, context, recorder)
    assert recorder.wait(60)
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    return recorder


@pytest.mark.speech
def test_a_prepared_reveal_plays_at_the_key_without_synthesizing(
    speaker: ChoosingSpeaker, log: Log
) -> None:
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, SCALE)
    assert narrator.prepare("reveal", CONTEXT).result(timeout=60) is True
    assert [kind for kind, _ in log.entries] == ["synthesize"] * 4  # all before the key
    _key(narrator, log, "reveal", CONTEXT)
    after = log.after_key()
    assert after and after[0][0] == "play" and after[0][1].startswith("span-")
    assert [kind for kind, _ in after] == ["play"]
    narrator.close()


@pytest.mark.speech
@pytest.mark.parametrize("ambience", [True, False])
def test_a_prepared_finale_and_an_unmixed_reveal_play_without_synthesizing(
    speaker: ChoosingSpeaker, log: Log, ambience: bool
) -> None:
    narrator = Narrator(VoiceSettings(ambience=ambience), ScriptLibrary.load(None), speaker, SCALE)
    script, context = ("reveal", CONTEXT) if not ambience else ("finale", {})
    assert narrator.prepare(script, context).result(timeout=60) is True
    _key(narrator, log, script, context)
    after = log.after_key()
    assert after and {kind for kind, _ in after} == {"play"}
    assert len(after) == len(narrator.lines(script, context))
    narrator.close()


@pytest.mark.speech
def test_new_settings_prepare_the_script_again_by_themselves(
    speaker: ChoosingSpeaker, log: Log
) -> None:
    settings = VoiceSettings()
    narrator = Narrator(settings, ScriptLibrary.load(None), speaker, SCALE)
    assert narrator.prepare("reveal", CONTEXT).result(timeout=60) is True
    narrator.update_settings(replace(settings, rate=190, ambience_level=0.3))
    # The preparer works in order: once a later request is done, the reveal's is too.
    assert narrator.prepare("knockout", {"player": "Eleven"}).result(timeout=60) is True
    synthesized = [what for kind, what in log.entries if kind == "synthesize"]
    assert synthesized.count("Everyone, close your eyes.") == 2  # at 175, then again at 190
    _key(narrator, log, "reveal", CONTEXT)
    assert [kind for kind, _ in log.after_key()] == ["play"]
    narrator.close()


@pytest.mark.speech
def test_a_key_before_the_preparation_is_done_still_plays_the_whole_reveal(
    speaker: ChoosingSpeaker, log: Log
) -> None:
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, SCALE)
    narrator.prepare("reveal", CONTEXT)  # not waited for
    recorder = _key(narrator, log, "reveal", CONTEXT)
    assert len([kind for kind, _ in log.after_key() if kind == "play"]) == 1
    assert len(recorder.of(LineStarted)) == 4
    narrator.close()


def test_preparing_a_script_that_does_not_exist_is_simply_not_ready() -> None:
    from moderator.narration.speech.speaker import SilentSpeaker

    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), SilentSpeaker(), SCALE)
    assert narrator.prepare("no-such-script", {}).result(timeout=5) is False
    narrator.close()
    assert narrator.prepare("reveal", CONTEXT).result(timeout=5) is False  # closed


class RefusingSynthesizer:
    """Fails the first `fails` lines it is asked for (a child that died), then speaks silently."""

    def __init__(self, fails: int, log: Log) -> None:
        self.fails = fails
        self.log = log

    def problems(self) -> list[SpeechFault]:
        return []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        self.log.add("synthesize", text)
        future: Future[Clip] = Future()
        if self.fails > 0:
            self.fails -= 1
            future.set_exception(SpeechFault("engine", "The speech engine failed (test)."))
        else:
            future.set_result(Clip(text, 0.1))
        return future

    def close(self) -> None:
        pass


def test_a_preparation_that_failed_is_not_kept_the_play_asks_again(log: Log) -> None:
    speaker = ChoosingSpeaker(RefusingSynthesizer(1, log), Path("unused"), LoggingPlayer(log))
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, SCALE)
    assert narrator.prepare("finale", {}).result(timeout=5) is False
    _key(narrator, log, "finale", {})
    synthesized = [kind for kind, _ in log.after_key() if kind == "synthesize"]
    assert len(synthesized) == len(narrator.lines("finale", {}))
    narrator.close()


@pytest.mark.speech
async def test_in_the_app_enter_on_the_reveal_plays_what_the_seating_prepared(
    speaker: ChoosingSpeaker, log: Log, tmp_path: Path
) -> None:
    from driving import key, new_game, until

    from moderator.tui.run import make_app
    from moderator.tui.screens.reveal import RevealScreen

    narrator = PreparedFutures(Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, SCALE))
    folders = {name: tmp_path / name for name in ("data", "config", "cache")}
    app = make_app(folders["data"], folders["config"], folders["cache"], None, narrator=narrator)
    async with app.run_test() as pilot:
        await new_game(pilot, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"])
        assert isinstance(app.screen, RevealScreen)
        await until(
            pilot, lambda: bool(narrator.futures) and all(f.done() for f in narrator.futures)
        )
        assert all(f.result() for f in narrator.futures)
        log.add(*KEY)
        await key(pilot, "enter")
        await until(pilot, lambda: bool(log.after_key()))
        app.simulate_key("escape")
    after = log.after_key()
    assert after[0][0] == "play" and after[0][1].startswith("span-")
    assert "synthesize" not in {kind for kind, _ in after}
