"""The narrator's contract, timed with captions only (no audio needed).

Audio is covered by the real-speech tests; here a silent speaker pins the
audio out so the ordering, timing, cancelling and muting rules are checked
fast and exactly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest
from event_recorders import Recorder
from narration_clock import PinnedClock

from moderator.narration import (
    Clip,
    Countdown,
    Finished,
    LineStarted,
    Notice,
    SilentSpeaker,
    SpeechFault,
    VoiceSettings,
    make_narrator,
)
from moderator.narration.audio.wavfile import Pcm, silence, wav_duration, write_pcm_atomic
from moderator.narration.speech.speaker import estimate_duration


def write_script(root: Path, name: str, body: str, lang: str = "en") -> Path:
    path = root / lang / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return root


class TimedSpeaker(SilentSpeaker):
    """Clips of a fixed length with a fake audio file; records what was played."""

    def __init__(self, duration: float) -> None:
        self.duration = duration
        self.played: list[str] = []
        self.stops = 0

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        future: Future[Clip] = Future()
        future.set_result(Clip(text, self.duration, Path("fake.wav")))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        self.played.append(clip.text)
        on_start()

    def stop(self) -> None:
        self.stops += 1


def test_play_posts_captions_countdown_and_finished(tmp_path: Path, recorder: Recorder) -> None:
    narrator = make_narrator(VoiceSettings(), None, tmp_path, SilentSpeaker(), time_scale=0.01)
    expected = narrator.lines("reveal", {})
    narrator.play("reveal", {}, recorder)
    assert recorder.wait(5)
    narrator.close()
    assert [e.text for e in recorder.of(LineStarted)] == expected
    assert [e.seconds_left for e in recorder.of(Countdown)] == [
        3,
        2,
        1,
        0,
        5,
        4,
        3,
        2,
        1,
        0,
        2,
        1,
        0,
    ]
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    assert isinstance(recorder.events[-1][1], Finished)


#: Only ends a hang (a speaker left blocked, a narration that never finishes).
HANG_BOUND = 60.0


class BlockingSpeaker(TimedSpeaker):
    """A line that plays until `stop()` or the test's `release`: nothing else ends it."""

    def __init__(self) -> None:
        super().__init__(duration=0.01)
        self.playing = threading.Event()
        self.release = threading.Event()
        self.stopped = threading.Event()
        self.hung = False

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        super().play(clip, on_start)
        self.playing.set()
        if not self.release.wait(HANG_BOUND):
            self.hung = True  # nothing released the line: say so, and let the rest go by
            self.release.set()

    def stop(self) -> None:
        super().stop()
        self.stopped.set()
        self.release.set()


def test_play_returns_at_once(tmp_path: Path, recorder: Recorder) -> None:
    """`play()` returns while the speaker is still speaking: it did not wait on speech."""
    speaker = BlockingSpeaker()
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker)
    narrator.play("setup", {"players": 7}, recorder)
    assert not speaker.release.is_set()
    assert speaker.playing.wait(HANG_BOUND), "the line was never spoken"
    assert not speaker.release.is_set()
    assert speaker.played == narrator.lines("setup", {"players": 7})[:1]
    speaker.release.set()
    narrator.cancel()
    assert recorder.wait(HANG_BOUND)
    narrator.close()
    assert not speaker.hung
    assert recorder.of(Finished) == [Finished(cancelled=True)]


#: A line, the eyes-open pause, a line: the shape every timing test plays.
PAUSED = '[[step]]\nsay = "A"\n[[step]]\npause = "{seconds}"\n[[step]]\nsay = "B"\n'
#: What "exactly" means on a pinned clock: float rounding, nothing a machine can add.
EXACT = 1e-9


def test_pause_is_counted_from_the_end_of_the_audio(tmp_path: Path) -> None:
    """On a pinned clock: B comes the line's 0.3 s and the 1 s pause after A, to the tick."""
    scripts = write_script(tmp_path, "reveal", PAUSED)
    speaker = TimedSpeaker(duration=0.3)
    pinned = PinnedClock()
    recorder = Recorder(clock=pinned.clock)
    narrator = make_narrator(
        VoiceSettings(reveal_seconds=1.0), scripts, tmp_path, speaker, timing=pinned.timing
    )
    narrator.play("reveal", {}, recorder)
    assert recorder.wait(HANG_BOUND)
    narrator.close()
    first, second = recorder.times(LineStarted)
    assert second - first == pytest.approx(0.3 + 1.0, abs=EXACT)
    assert [e.seconds_left for e in recorder.of(Countdown)] == [1, 0]
    assert speaker.played == ["A", "B"]


def test_on_the_machines_clock_the_line_after_a_pause_is_never_early(tmp_path: Path) -> None:
    """The one real-time check of the pacing: order, and no moment before its time.

    How late a loaded machine makes it is not asserted (the pinned tests give the
    schedule exactly; bench/bench_speech.py measures the lateness).
    """
    scripts = write_script(tmp_path, "reveal", PAUSED)
    speaker = TimedSpeaker(duration=0.3)
    recorder = Recorder()
    narrator = make_narrator(VoiceSettings(reveal_seconds=1.0), scripts, tmp_path, speaker)
    narrator.play("reveal", {}, recorder)
    assert recorder.wait(HANG_BOUND)
    narrator.close()
    kinds = [type(event).__name__ for _, event in recorder.events]
    assert kinds == ["LineStarted", "Countdown", "Countdown", "LineStarted", "Finished"]
    first, second = recorder.times(LineStarted)
    assert second - first >= 0.3 + 1.0
    assert speaker.played == ["A", "B"]


class WavSpeaker(TimedSpeaker):
    """Clips of a fixed length as real (silent) WAV files; records the files played."""

    def __init__(self, duration: float, folder: Path) -> None:
        super().__init__(duration)
        self.folder = folder
        self.files: list[Path] = []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        path = self.folder / f"clip-{abs(hash(text))}.wav"
        write_pcm_atomic(path, Pcm(22050, silence(22050, self.duration)))
        future: Future[Clip] = Future()
        future.set_result(Clip(text, self.duration, path))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        assert clip.path is not None
        self.files.append(clip.path)
        super().play(clip, on_start)


def test_a_line_after_a_pause_starts_its_lead_in_early_so_the_voice_is_on_time(
    tmp_path: Path,
) -> None:
    scripts = write_script(tmp_path, "reveal", PAUSED)
    speaker = WavSpeaker(0.3, tmp_path)
    settings = VoiceSettings(reveal_seconds=1.0, lead_in=1.0)
    pinned = PinnedClock()
    recorder = Recorder(clock=pinned.clock)
    narrator = make_narrator(settings, scripts, tmp_path, speaker, timing=pinned.timing)
    narrator.play("reveal", {}, recorder)
    assert recorder.wait(HANG_BOUND)
    narrator.close()
    # Each stream is the lead-in then the line; B's starts a lead-in before it is due,
    # so the silence heard between the voices is the pause, not the pause + the lead-in
    # (B's stream would then start 2.3 s after A's).
    assert [wav_duration(path) for path in speaker.files] == pytest.approx([1.3, 1.3])
    first, second = recorder.times(LineStarted)
    assert second - first == pytest.approx(0.3 + 1.0, abs=EXACT)


def test_a_new_play_lets_the_spoken_line_finish_then_replaces_the_script(
    tmp_path: Path,
) -> None:
    """A knock-out line is never cut by the finale (it was, 17 ms after it began)."""
    speaker = TimedSpeaker(duration=0.6)
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker)
    old, new = Recorder(), Recorder()
    narrator.play("knockout", {"player": "Eleven"}, old)
    assert old.wait_for(LineStarted, HANG_BOUND)  # the finale comes mid-line
    narrator.play("finale", {}, new)
    assert old.wait(HANG_BOUND)
    assert new.wait_for(LineStarted, HANG_BOUND)
    stops_before_the_users_stop = speaker.stops
    narrator.cancel()
    narrator.close()
    assert old.of(LineStarted) == [LineStarted("Eleven is knocked out.")]
    assert old.of(Finished) == [Finished(cancelled=True)]
    assert stops_before_the_users_stop == 0, "the knock-out line was cut mid-word"
    line_start = old.times(LineStarted)[0]
    finale_start = new.times(LineStarted)[0]
    assert finale_start - line_start >= 0.6 - 0.02
    assert old.times(Finished)[0] <= finale_start


def test_cancel_is_immediate_and_silences_the_speaker(tmp_path: Path, recorder: Recorder) -> None:
    """Only `stop()` ends the line (its player blocks until then): Finished proves the cut."""
    speaker = BlockingSpeaker()
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker)
    narrator.play("finale", {}, recorder)
    assert speaker.playing.wait(HANG_BOUND)
    narrator.cancel()
    assert recorder.wait(HANG_BOUND), "the cancel did not stop the line"
    assert speaker.stopped.is_set() and not speaker.hung
    assert recorder.of(Finished) == [Finished(cancelled=True)]
    narrator.close()


def test_mute_keeps_captions_and_timing_without_audio(tmp_path: Path, recorder: Recorder) -> None:
    speaker = TimedSpeaker(duration=0.5)
    narrator = make_narrator(VoiceSettings(enabled=False), None, tmp_path, speaker, 0.01)
    narrator.play("finale", {}, recorder)
    assert recorder.wait(5)
    assert speaker.played == []
    assert len(recorder.of(LineStarted)) == 7
    narrator.update_settings(VoiceSettings(enabled=True))
    again = Recorder()
    narrator.play("turn", {"player": "Max"}, again)
    assert again.wait(5)
    narrator.close()
    assert speaker.played == ["Max, your turn."]


def test_muting_mid_line_stops_the_audio(tmp_path: Path, recorder: Recorder) -> None:
    speaker = TimedSpeaker(duration=0.4)
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker)
    narrator.play("turn", {"player": "Max"}, recorder)
    assert recorder.wait_for(LineStarted, HANG_BOUND)  # mid-line
    narrator.update_settings(VoiceSettings(enabled=False))
    assert speaker.stops >= 1
    assert recorder.wait(HANG_BOUND)
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    narrator.close()


def test_captions_only_timing_follows_the_rate() -> None:
    text = "Possessed players, open your eyes and find each other."
    assert estimate_duration(text, 100) > estimate_duration(text, 200) > 0


def test_unknown_script_gives_a_notice_not_an_error(tmp_path: Path, recorder: Recorder) -> None:
    narrator = make_narrator(VoiceSettings(), None, tmp_path, SilentSpeaker())
    narrator.play("dance", {}, recorder)
    assert recorder.of(Notice) and recorder.of(Finished) == [Finished(cancelled=False)]
    assert narrator.lines("dance", {}) == []
    narrator.close()


def test_a_failing_listener_does_not_stop_narration(tmp_path: Path) -> None:
    narrator = make_narrator(VoiceSettings(), None, tmp_path, SilentSpeaker(), 0.01)
    seen: list[object] = []
    done = threading.Event()

    def listener(event: object) -> None:
        seen.append(event)
        if isinstance(event, Finished):
            done.set()
        raise RuntimeError("listener bug")

    narrator.play("finale", {}, listener)
    assert done.wait(5)
    narrator.close()
    assert len([e for e in seen if isinstance(e, LineStarted)]) == 7


class FailingSpeaker(SilentSpeaker):
    """Reports a missing part at start-up and fails every line the same way."""

    def problems(self) -> list[SpeechFault]:
        return [SpeechFault("player", "install alsa-utils")]

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        future: Future[Clip] = Future()
        future.set_exception(SpeechFault("engine", "engine broke"))
        return future


def test_each_missing_part_is_told_once(tmp_path: Path, recorder: Recorder) -> None:
    narrator = make_narrator(VoiceSettings(), None, tmp_path, FailingSpeaker(), 0.01)
    assert narrator.warnings == ["install alsa-utils"]
    narrator.play("finale", {}, recorder)
    assert recorder.wait(5)
    second = Recorder()
    narrator.play("finale", {}, second)
    assert second.wait(5)
    narrator.close()
    assert recorder.of(Notice) == [Notice("install alsa-utils"), Notice("engine broke")]
    assert second.of(Notice) == []
    assert len(recorder.of(LineStarted)) == len(second.of(LineStarted)) == 7
    assert narrator.warnings == ["install alsa-utils", "engine broke"]


def test_broken_user_scripts_reach_the_warnings(tmp_path: Path) -> None:
    scripts = write_script(tmp_path, "finale", "[[step]]\nsay = 3\n")
    narrator = make_narrator(VoiceSettings(), scripts, tmp_path, SilentSpeaker())
    assert any("finale.toml:2: say must be some text" in w for w in narrator.warnings)
    assert "All players who are Possessed: start growling!" in narrator.lines("finale", {})
    narrator.close()


def test_languages_and_settings_are_exposed(tmp_path: Path) -> None:
    narrator = make_narrator(VoiceSettings(lang="fr"), None, tmp_path, SilentSpeaker())
    assert [lang.code for lang in narrator.languages] == ["en", "de", "es", "fr"]
    assert narrator.lines("reveal", {})[0] == "Tout le monde, fermez les yeux."
    narrator.update_settings(VoiceSettings(lang="de", rate=5000))
    assert narrator.settings.rate == 450
    assert narrator.lines("reveal", {})[0] == "Alle schließen die Augen."
    narrator.close()
