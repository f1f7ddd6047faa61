"""Every speech fault is injected: nothing escapes, the caption still shows, waits end.

Fakes are used only to inject the fault (a worker that hangs, an engine that
raises, a player that never exits); everything around them is the real code.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest
from event_recorders import Recorder, ReturnGate
from real_speech import system_speaker

import moderator
from moderator.narration import (
    Clip,
    Finished,
    LineStarted,
    Notice,
    SilentSpeaker,
    SpeechFault,
    VoiceSettings,
    make_narrator,
)
from moderator.narration.audio.wavfile import Pcm, silence, write_pcm_atomic
from moderator.narration.speech.platforms import engine_setup
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent
FINALE_LINES = 7
#: Only ends a hang: each fault below would otherwise hang for an hour, never 60 s.
HANG_BOUND = 60.0


def fake_worker(tmp_path: Path, body: str) -> list[str]:
    """A synthesis child that runs the real worker after `body` injected a fault."""
    script = tmp_path / "fake_worker.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(PACKAGE_ROOT)!r})\n{body}\n"
        "from moderator.narration.speech import synth_worker\nsys.exit(synth_worker.main())\n",
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


def run_finale(narrator_speaker: object, tmp_path: Path) -> Recorder:
    """Play the finale with captions sped up; assert it ends (`HANG_BOUND` only ends a hang).

    The listener holds each event until `play()` has returned, so an event that
    arrived while `play()` was still inside the call proves it waited on speech.
    """
    narrator = make_narrator(
        VoiceSettings(),
        None,
        tmp_path,
        narrator_speaker,
        time_scale=0.01,  # type: ignore[arg-type]
    )
    recorder = Recorder()
    gate = ReturnGate(recorder)
    narrator.play("finale", {}, gate)
    gate.returned.set()
    assert recorder.wait(HANG_BOUND), f"narration did not finish within {HANG_BOUND} s"
    assert gate.early == [], "play() must not wait on speech"
    narrator.close()
    assert len(recorder.of(LineStarted)) == FINALE_LINES
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    return recorder


def _nothing() -> None:
    """An `on_start` with nothing to do."""


def in_daemon(call: Callable[[], None]) -> BaseException | None:
    """What `call` raised, run on a daemon thread so a hang fails the test, not pytest's exit."""
    raised: Future[None] = Future()

    def run() -> None:
        try:
            call()
        except BaseException as error:
            raised.set_exception(error)
        else:
            raised.set_result(None)

    threading.Thread(target=run, daemon=True).start()
    return raised.exception(timeout=HANG_BOUND)


def notices(recorder: Recorder) -> str:
    return "\n".join(n.message for n in recorder.of(Notice))


def test_no_espeak_library_gives_captions_and_the_install_hint(tmp_path: Path) -> None:
    """Neither the system library nor the espeakng-loader wheel's: captions and a hint."""
    engine = engine_setup("linux", ["libmindflayer-no-such-lib.so.1"], loader=lambda: None)
    speaker = system_speaker(tmp_path, engine=engine)
    assert [p.part for p in speaker.problems()][:1] == ["library"]
    recorder = run_finale(speaker, tmp_path)
    assert "apt-get install libespeak-ng1" in notices(recorder)


def test_library_vanishing_inside_the_engine_process(tmp_path: Path) -> None:
    """pyttsx3 itself cannot load the library: the child says so and speech turns off."""
    command = fake_worker(
        tmp_path,
        "import ctypes\n"
        "def refuse(*args, **kwargs):\n    raise OSError('no libespeak-ng')\n"
        "ctypes.cdll.LoadLibrary = refuse\n",
    )
    recorder = run_finale(system_speaker(tmp_path, *command), tmp_path)
    text = notices(recorder)
    assert "apt-get install libespeak-ng1" in text
    assert len(recorder.of(Notice)) == 1


def test_engine_raising_on_a_line(speech: None, tmp_path: Path) -> None:
    command = fake_worker(
        tmp_path,
        "import pyttsx3.engine\n"
        "def boom(self, *args, **kwargs):\n    raise RuntimeError('engine exploded')\n"
        "pyttsx3.engine.Engine.save_to_file = boom\n",
    )
    recorder = run_finale(system_speaker(tmp_path, *command), tmp_path)
    assert "engine exploded" in notices(recorder)
    assert len(recorder.of(Notice)) == 1, "told once, not once per line"


def test_engine_failing_to_start(speech: None, tmp_path: Path) -> None:
    command = fake_worker(
        tmp_path,
        "import pyttsx3\n"
        "def broken(*args, **kwargs):\n    raise ValueError('no voices at all')\n"
        "pyttsx3.init = broken\n",
    )
    recorder = run_finale(system_speaker(tmp_path, *command), tmp_path)
    assert "could not start" in notices(recorder)


def test_synthesis_that_never_finishes_is_abandoned(speech: None, tmp_path: Path) -> None:
    command = fake_worker(
        tmp_path,
        "import time, pyttsx3.engine\n"
        "original = pyttsx3.engine.Engine.runAndWait\n"
        "calls = []\n"
        "def hang(self):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 1:  # the start-up word works, every real line hangs\n"
        "        time.sleep(3600)\n"
        "    return original(self)\n"
        "pyttsx3.engine.Engine.runAndWait = hang\n",
    )
    speaker = Pyttsx3Synthesizer(tmp_path, command, synth_timeout=0.3)
    future = speaker.synthesize("Eleven.", "en", 160, 1.0)
    with pytest.raises(SpeechFault) as caught:  # the line hangs an hour: the bound cut it
        future.result(timeout=HANG_BOUND)
    assert caught.value.part == "synthesis"
    speaker.close()
    recorder = run_finale(system_speaker(tmp_path, *command, synth_timeout=0.3), tmp_path)
    assert "did not answer in time" in notices(recorder)


def test_an_engine_that_never_starts_is_abandoned(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import time; time.sleep(3600)"]
    speaker = system_speaker(tmp_path, *command, start_timeout=0.3)
    recorder = run_finale(speaker, tmp_path)
    assert notices(recorder)


class RealPlayerSpeaker(SilentSpeaker):
    """Real WAV clips (of silence) played by the CommandPlayer under test."""

    def __init__(self, folder: Path, player: CommandPlayer, seconds: float = 0.2) -> None:
        self.player = player
        self.path = folder / "clip.wav"
        write_pcm_atomic(self.path, Pcm(22050, silence(22050, seconds)))
        self.seconds = seconds

    def problems(self) -> list[SpeechFault]:
        fault = self.player.available()
        return [fault] if fault else []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        future: Future[Clip] = Future()
        future.set_result(Clip(text, self.seconds, self.path))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        assert clip.path is not None
        self.player.play(clip.path, clip.duration, on_start)

    def stop(self) -> None:
        self.player.stop()


def test_no_audio_player_installed(tmp_path: Path) -> None:
    player = CommandPlayer(command=("mindflayer-no-such-player",))
    recorder = run_finale(RealPlayerSpeaker(tmp_path, player), tmp_path)
    assert "Install alsa-utils (aplay)" in notices(recorder)
    assert len(recorder.of(Notice)) == 1


def test_a_hanging_player_is_killed_after_its_bound(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pid_file = tmp_path / "player.pid"
    hang = (
        sys.executable,
        "-c",
        f"import os, sys, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
        "print('noise', flush=True); print('noise', file=sys.stderr, flush=True); "
        "time.sleep(3600)",
    )
    player = CommandPlayer(command=hang, grace=0.3)
    speaker, clip = RealPlayerSpeaker(tmp_path, player), Clip("x", 0.2, tmp_path / "clip.wav")
    caught = in_daemon(lambda: speaker.play(clip, _nothing))  # the child hangs an hour
    assert isinstance(caught, SpeechFault) and caught.part == "player-hang"
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)
    recorder = run_finale(RealPlayerSpeaker(tmp_path, player), tmp_path)
    assert "stopped responding" in notices(recorder)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_cancel_kills_the_playing_child_at_once(tmp_path: Path) -> None:
    """The child sleeps an hour and the player's own bound is an hour: only the cancel's
    kill can end the line within the hang bound."""
    hang = (sys.executable, "-c", "import time; time.sleep(3600)")
    speaker = RealPlayerSpeaker(tmp_path, CommandPlayer(command=hang, grace=3600.0))
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker)
    recorder = Recorder()
    narrator.play("turn", {"player": "Max"}, recorder)
    assert recorder.wait_for(LineStarted, HANG_BOUND)
    narrator.cancel()
    assert recorder.wait(HANG_BOUND), "the cancel did not end the playing child"
    assert recorder.of(Finished) == [Finished(cancelled=True)]
    assert recorder.of(Notice) == [], "the player was not stopped but failed"
    narrator.close()


def test_make_narrator_survives_a_speaker_that_cannot_be_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import moderator.narration.speech.pyttsx3_synth as pyttsx3_synth

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no engine here")

    monkeypatch.setattr(pyttsx3_synth, "Pyttsx3Synthesizer", explode)
    narrator = make_narrator(VoiceSettings(), None, tmp_path, time_scale=0.01)
    assert any("no engine here" in w for w in narrator.warnings)
    recorder = Recorder()
    narrator.play("finale", {}, recorder)
    assert recorder.wait(5)
    narrator.close()
    assert len(recorder.of(LineStarted)) == FINALE_LINES


def test_an_engine_that_ignores_the_rate_is_restarted_then_given_up(
    speech: None, tmp_path: Path
) -> None:
    """espeak sometimes loses the rate in a new process; a new process is tried, boundedly."""
    count_file = tmp_path / "starts"
    command = fake_worker(
        tmp_path,
        f"open({str(count_file)!r}, 'a').write('x')\n"
        "from moderator.narration.speech import synth_worker as worker\n"
        "worker._current_parameter = lambda parameter: 999\n",
    )
    recorder = run_finale(system_speaker(tmp_path, *command), tmp_path)
    assert "keeps ignoring the speech rate" in notices(recorder)
    assert count_file.read_text() == "xxxx"


def test_speech_tests_skip_without_the_library_unless_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import real_speech

    monkeypatch.setattr(real_speech, "library_present", lambda: False)
    reason = real_speech.missing_speech(player=False)
    assert reason is not None and "libespeak-ng1" in reason
    monkeypatch.delenv("MINDFLAYER_REQUIRE_SPEECH", raising=False)
    with pytest.raises(pytest.skip.Exception, match="libespeak-ng1"):
        real_speech.require_speech(reason)
    monkeypatch.setenv("MINDFLAYER_REQUIRE_SPEECH", "1")
    with pytest.raises(pytest.fail.Exception, match="MINDFLAYER_REQUIRE_SPEECH=1"):
        real_speech.require_speech(reason)
