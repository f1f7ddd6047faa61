"""Live playback of an eyes-closed span: one mixed clip, captions at its offsets.

Synthesis is real espeak-ng; the player is a stand-in that records what it
was given (the real one is covered by test_narration_real_speech), so the
test can check the played file sample for sample against the rendered one.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from event_recorders import Recorder
from narration_clock import PinnedClock
from real_speech import system_speaker

from moderator.narration.audio.loudness import level
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.events import AmbienceSpan, Countdown, Finished, LineStarted
from moderator.narration.narrator import Narrator
from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.speaker import SilentSpeaker, SpeechFault

CONTEXT = {"players": 7, "meeting": 1}
SCALE = 0.02


class RecordingPlayer:
    """Starts at once and records each file; `fail` makes it refuse like a missing device."""

    def __init__(self, fail: bool = False) -> None:
        self.played: list[Path] = []
        self.stops = 0
        self.fail = fail

    def available(self) -> SpeechFault | None:
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        if self.fail:
            raise SpeechFault("device", "No sound device.")
        self.played.append(path)
        on_start()

    def stop(self) -> None:
        self.stops += 1


@pytest.fixture
def player() -> RecordingPlayer:
    return RecordingPlayer()


@pytest.fixture
def espeak(speech: None, speech_cache: Path, player: RecordingPlayer) -> Iterator[ChoosingSpeaker]:
    speaker = system_speaker(speech_cache, player=player, warm=False)
    yield speaker
    speaker.close()


def _play(
    narrator: Narrator, script: str = "reveal", clock: Callable[[], float] = time.monotonic
) -> Recorder:
    recorder = Recorder(clock=clock)
    narrator.play(script, CONTEXT, recorder)
    assert recorder.wait(60)
    return recorder


@pytest.mark.speech
def test_the_reveal_plays_as_one_mixed_clip_identical_to_the_render(
    espeak: ChoosingSpeaker, player: RecordingPlayer, tmp_path: Path
) -> None:
    settings = VoiceSettings()
    library = ScriptLibrary.load(None)
    # A pinned clock: the captions' moments exactly, unscaled, however loaded the machine.
    pinned = PinnedClock()
    narrator = Narrator(settings, library, espeak, timing=pinned.timing)
    recorder = _play(narrator, clock=pinned.clock)
    (played,) = player.played
    assert played.name.startswith("span-")
    # What the table hears live is the rendered file, sample for sample, its lead-in of
    # silence included: a slow sink eats that, not the bed or "Everyone".
    rendered = render_script(library, espeak, "reveal", CONTEXT, settings, tmp_path / "r.wav")
    heard = read_pcm(played)
    assert heard.samples == read_pcm(rendered.path).samples
    lead = round(settings.lead_in * heard.rate)
    assert lead >= 0.15 * heard.rate and not any(heard.samples[:lead])
    assert any(heard.samples[lead : lead + heard.rate // 10])  # the bed comes in at once
    kinds = [type(e).__name__ for _, e in recorder.events if not isinstance(e, Countdown)]
    assert kinds == ["AmbienceSpan"] + ["LineStarted"] * 4 + ["AmbienceSpan", "Finished"]
    assert recorder.of(AmbienceSpan) == [AmbienceSpan(True, True), AmbienceSpan(False, True)]
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    # The captions come at the lines' offsets in the mix, in order.
    starts = recorder.times(LineStarted)
    expected = [start / rendered.rate for start, _ in rendered.offsets]
    for (a, b), (ea, eb) in zip(
        itertools.pairwise(starts), itertools.pairwise(expected), strict=True
    ):
        assert b - a == pytest.approx(eb - ea, abs=1e-9)
    assert 5 in [c.seconds_left for c in recorder.of(Countdown)]  # the 5 s window counts down
    # A second reveal reuses the mixed file: mixed once per set of settings.
    built = played.stat().st_mtime_ns
    _play(narrator)
    assert player.played[-1] == played and played.stat().st_mtime_ns == built
    narrator.close()


@pytest.mark.speech
def test_ambience_off_plays_line_by_line_with_no_span_event(
    espeak: ChoosingSpeaker, player: RecordingPlayer
) -> None:
    narrator = Narrator(VoiceSettings(ambience=False), ScriptLibrary.load(None), espeak, SCALE)
    recorder = _play(narrator)
    assert len(player.played) == 4
    assert not any(p.name.startswith("span-") for p in player.played)
    assert recorder.of(AmbienceSpan) == []
    narrator.close()


@pytest.mark.speech
@pytest.mark.parametrize("lead_in", [0.15, 0.4])
def test_every_line_reaches_the_player_after_the_configured_lead_in(
    espeak: ChoosingSpeaker, player: RecordingPlayer, lead_in: float
) -> None:
    settings = VoiceSettings(ambience=False, lead_in=lead_in)
    library = ScriptLibrary.load(None)
    narrator = Narrator(settings, library, espeak, SCALE)
    _play(narrator)
    lines = narrator.lines("reveal", CONTEXT)
    assert len(player.played) == len(lines) == 4
    voice = library.languages["en"].voice
    for path, text in zip(player.played, lines, strict=True):
        heard = read_pcm(path)
        clip = espeak.synthesize(text, voice, settings.rate, settings.volume).result(timeout=30)
        assert clip.path is not None
        # The audio handed to the player: the lead-in of silence, then the line leveled.
        lead = round(lead_in * heard.rate)
        assert not any(heard.samples[:lead])
        assert heard.samples[lead:] == level(read_pcm(clip.path).samples, heard.rate)
    narrator.close()


def test_captions_only_shows_the_bed_would_play() -> None:
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), SilentSpeaker(), 0.01)
    recorder = _play(narrator)
    assert recorder.of(AmbienceSpan) == [AmbienceSpan(True, False), AmbienceSpan(False, False)]
    assert len(recorder.of(LineStarted)) == 4
    meeting = _play(narrator, "meeting")
    assert meeting.of(AmbienceSpan) == [AmbienceSpan(True, False), AmbienceSpan(False, False)]
    narrator.close()


@pytest.mark.speech
def test_no_sound_device_keeps_the_timing_and_says_the_bed_is_unheard(
    speech: None, speech_cache: Path
) -> None:
    player = RecordingPlayer(fail=True)
    speaker = system_speaker(speech_cache, player=player, warm=False)
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), speaker, SCALE)
    recorder = _play(narrator)
    assert recorder.of(AmbienceSpan) == [AmbienceSpan(True, False), AmbienceSpan(False, False)]
    assert len(recorder.of(LineStarted)) == 4
    assert sum("No sound device" in w for w in narrator.warnings) == 1
    narrator.close()


@pytest.mark.speech
def test_a_newer_script_ends_the_span_after_the_line_being_spoken(
    espeak: ChoosingSpeaker, player: RecordingPlayer
) -> None:
    narrator = Narrator(VoiceSettings(), ScriptLibrary.load(None), espeak, time_scale=0.2)
    first = Recorder()
    spoke = threading.Event()
    narrator.play(
        "reveal",
        CONTEXT,
        lambda event: (first(event), spoke.set() if isinstance(event, LineStarted) else None),
    )
    assert spoke.wait(30)
    second = Recorder()
    narrator.play("knockout", {"player": "Max"}, second)
    assert first.wait(30) and second.wait(30)
    assert first.of(Finished) == [Finished(cancelled=True)]
    assert len(first.of(LineStarted)) == 1  # the first line finished, nothing after it
    assert first.of(AmbienceSpan)[-1] == AmbienceSpan(False, True)
    assert player.stops >= 1  # the bed was silenced, not left playing
    assert second.of(LineStarted)[0] == LineStarted("Max is knocked out.")
    narrator.close()
