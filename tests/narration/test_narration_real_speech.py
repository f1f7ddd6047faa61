"""Real audio through real pyttsx3 + espeak-ng, measured from the samples."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from audio_measures import longest_silence, peak
from event_recorders import Recorder
from narration_clock import PinnedClock
from shipped_renders import GROUP, ShippedRenders

from moderator.cli import main
from moderator.narration import Finished, LineStarted, Notice, VoiceSettings, make_narrator
from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary, shipped_scripts_dir
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.speech.clip_cache import usable_cache
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

pytestmark = pytest.mark.speech
#: Samples at or below this count as silence when measuring (independent of trimming).
MEASURE_THRESHOLD = 200
CONTEXT = {
    "players": 7,
    "player": "Eleven",
    "meeting": 2,
}


def _native_scripts() -> list[tuple[str, str]]:
    library = ScriptLibrary.load(None)
    return [
        (lang, name)
        for (lang, name), (script, _) in library.scripts.items()
        if script.source.parent.name == lang
    ]


@pytest.mark.xdist_group(GROUP)
def test_every_shipped_script_in_every_language_renders_real_audio(
    speech: None, shipped_renders: ShippedRenders
) -> None:
    """The default settings' renders, taken from the ones the loudness tests check."""
    pairs = _native_scripts()
    assert {name for lang, name in pairs if lang == "en"} == set(SCRIPT_NAMES)
    assert {lang for lang, _ in pairs} == {"en", "fr", "de", "es"}
    for lang, name in pairs:
        shipped = shipped_renders.render(lang, name)
        rendered, pcm = shipped.rendered, shipped.pcm
        assert pcm.rate == 22050, (lang, name)
        assert peak(pcm) > 3000, f"{lang}/{name} is silent"
        assert rendered.duration > 0.3 * len(rendered.lines), (lang, name)


def test_duration_grows_with_the_text_and_shrinks_with_the_rate(
    speaker: Pyttsx3Synthesizer,
) -> None:
    short = "Eleven."
    long = "Eleven, Mike, Dustin, Lucas and Will are lost in the Upside Down."

    def seconds(text: str, rate: int) -> float:
        return speaker.synthesize(text, "en", rate, 1.0).result(timeout=30).duration

    assert seconds(long, 160) > 3 * seconds(short, 160)
    slow, fast = seconds(long, 110), seconds(long, 220)
    assert slow > 1.6 * fast


@pytest.mark.parametrize("window", [5.0, 8.0])
def test_rendered_reveal_holds_the_eyes_open_window(
    speaker: Pyttsx3Synthesizer, tmp_path: Path, window: float
) -> None:
    out = tmp_path / "reveal.wav"
    render_script(
        ScriptLibrary.load(None),
        speaker,
        "reveal",
        {"players": 7},
        VoiceSettings(reveal_seconds=window, ambience=False),
        out,
    )
    _, measured = longest_silence(read_pcm(out), MEASURE_THRESHOLD)
    assert measured == pytest.approx(window, abs=0.05)


def test_real_playback_keeps_exact_time_and_a_clean_terminal(
    playback: None,
    null_sound_home: Path,
    speech_cache: Path,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """aplay on a null ALSA device: audio 'plays', nothing reaches fd 1/2."""
    scripts = tmp_path / "scripts" / "en"
    scripts.mkdir(parents=True)
    (scripts / "reveal.toml").write_text(
        '[[step]]\nsay = "Possessed players, open your eyes."\n'
        '[[step]]\npause = "{seconds}"\n[[step]]\nsay = "Close your eyes."\n',
        encoding="utf-8",
    )
    # The real engine and player on a pinned clock: B is scheduled exactly the first
    # line's audio and the pause after A, whatever the machine's load adds to the playing.
    pinned = PinnedClock()
    narrator = make_narrator(
        VoiceSettings(reveal_seconds=1.0), scripts.parent, speech_cache, timing=pinned.timing
    )
    assert narrator.warnings == []
    recorder = Recorder(clock=pinned.clock)
    narrator.play("reveal", {}, recorder)
    assert recorder.wait(30)
    first_clip = Pyttsx3Synthesizer(speech_cache)
    try:
        duration = (
            first_clip.synthesize("Possessed players, open your eyes.", "en-us", 175, 1.0)
            .result(timeout=30)
            .duration
        )
    finally:
        first_clip.close()
    narrator.close()
    assert recorder.of(Notice) == []
    assert recorder.of(Finished) == [Finished(cancelled=False)]
    start_a, start_b = recorder.times(LineStarted)
    assert start_b - start_a == pytest.approx(duration + 1.0, abs=1e-9)
    captured = capfd.readouterr()
    assert captured.out == ""
    assert captured.err == ""


def test_a_missing_sound_card_is_told_once_and_stays_off_the_terminal(
    playback: None,
    broken_sound_home: Path,
    speech_cache: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first line's failure turns the player off for the script: later lines are
    captions, so a broken card costs one failed start, not one per line."""
    runs: list[Path] = []
    real_play = CommandPlayer.play

    def counted(player: CommandPlayer, path: Path, *args: Any, **kwargs: Any) -> None:
        runs.append(path)  # a spy: the real aplay still runs and fails
        real_play(player, path, *args, **kwargs)

    monkeypatch.setattr(CommandPlayer, "play", counted)
    narrator = make_narrator(VoiceSettings(), None, speech_cache, time_scale=0.01)
    recorder = Recorder()
    narrator.play("finale", {}, recorder)
    assert recorder.wait(60)  # a hang bound only
    narrator.close()
    (notice,) = recorder.of(Notice)
    assert "aplay -l" in notice.message
    assert len(recorder.of(LineStarted)) == 7
    assert len(runs) == 1, f"the broken player was started {len(runs)} times"
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_narrate_renders_a_wav_from_the_command_line(
    speech: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preview.wav"
    code = main(
        [
            "narrate",
            "reveal",
            "--players",
            "7",
            "--lang",
            "fr",
            "--seconds",
            "8",
            "--ambience",
            "off",
            "--wav",
            str(out),
        ]
    )
    assert code == 0
    assert "Tout le monde, fermez les yeux." in capsys.readouterr().out
    _, measured = longest_silence(read_pcm(out), MEASURE_THRESHOLD)
    assert measured == pytest.approx(8.0, abs=0.05)


def test_narrate_speaks_a_user_script(
    playback: None, null_sound_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scripts = tmp_path / "scripts"
    (scripts / "en").mkdir(parents=True)
    (scripts / "en" / "turn.toml").write_text('[[step]]\nsay = "{player}, go!"\n', "utf-8")
    assert main(["--voice-scripts", str(scripts), "narrate", "turn"]) == 0
    assert capsys.readouterr().out == "Dustin, go!\n"


def test_voices_lists_languages_and_engine_voices(
    speech: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["voices"]) == 0
    out = capsys.readouterr().out
    assert "Français" in out
    assert "gmw/en" in out or "en" in out.split()


def test_shipped_dir_is_the_checkout_one() -> None:
    assert shipped_scripts_dir().name == "voice_scripts"


def test_an_unusable_cache_folder_falls_back_to_a_private_one(speech: None, tmp_path: Path) -> None:
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache should be", encoding="utf-8")
    speaker = Pyttsx3Synthesizer(not_a_folder)
    try:
        clip = speaker.synthesize("Eleven.", "en", 160, 1.0).result(timeout=30)
    finally:
        speaker.close()
    assert clip.path is not None and clip.path.is_file()
    assert not clip.path.is_relative_to(not_a_folder)


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temporary folder, for this test only."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_an_unusable_cache_folder_reuses_one_fallback_run_after_run(
    tmp_path: Path, temp: Path
) -> None:
    """Issue 15, item 12: a cache that cannot be written leaked a new temp folder per run."""
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache should be", encoding="utf-8")
    runs = [usable_cache(not_a_folder / "speech") for _ in range(3)]
    assert len(set(runs)) == 1 and runs[0].parent == temp
    assert len(list(temp.iterdir())) == 1


def test_a_fallback_that_is_not_private_is_not_used(tmp_path: Path, temp: Path) -> None:
    elsewhere = tmp_path / "someone-elses"
    elsewhere.mkdir()
    fallback = usable_cache(tmp_path / "missing" / "speech")
    assert fallback == tmp_path / "missing" / "speech"  # a folder that can be made is used
    (tmp_path / "file").write_text("x", encoding="utf-8")
    planted = temp / usable_cache(tmp_path / "file" / "speech").name
    planted.rmdir()
    planted.symlink_to(elsewhere)  # a link planted where the fallback goes
    used = usable_cache(tmp_path / "file" / "speech")
    assert used != planted and used.parent == temp and not used.is_symlink()


def test_the_finale_pauses_for_growling_before_the_applause_cue(
    speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    """Measured in the rendered samples: the growl cue, then the configured silence."""
    library = ScriptLibrary.load(None)
    out = tmp_path / "finale.wav"
    settings = VoiceSettings(growl_seconds=3.0)
    rendered = render_script(library, speaker, "finale", {}, settings, out)
    growl = next(i for i, line in enumerate(rendered.lines) if "growling" in line)
    assert "applaud" in rendered.lines[growl + 1]
    assert rendered.lines[-1] == "Now, enter the results on the screen."
    start, measured = longest_silence(read_pcm(out), MEASURE_THRESHOLD)
    assert measured == pytest.approx(3.0, abs=0.05)
    rate = settings.clamped().rate
    spoken = sum(
        speaker.synthesize(line, "en-us", rate, 1.0).result(timeout=30).duration
        for line in rendered.lines[: growl + 1]
    )
    # Right after the growl cue (the render starts with its lead-in of silence).
    lead_in = settings.clamped().lead_in
    assert start == pytest.approx(lead_in + spoken + 3 * 0.6 + 0.3, abs=0.1)


def test_a_knock_out_line_is_heard_to_its_end_before_the_finale(
    playback: None, null_sound_home: Path, speech_cache: Path
) -> None:
    """The game-ending knock-out: its line plays whole, then the finale starts."""
    narrator = make_narrator(VoiceSettings(), None, speech_cache)
    knockout, finale = Recorder(), Recorder()
    narrator.play("knockout", {"player": "Eleven"}, knockout)
    assert knockout.wait_for(LineStarted, 30)
    narrator.play("finale", {}, finale)  # what the table screen does 17 ms later
    assert finale.wait_for(LineStarted, 30)
    narrator.cancel()
    assert finale.wait(5)
    probe = Pyttsx3Synthesizer(speech_cache, warm=False)
    line = probe.synthesize("Eleven is knocked out.", "en-us", VoiceSettings().rate, 1.0)
    duration = line.result(timeout=30).duration
    probe.close()
    narrator.close()
    assert knockout.of(LineStarted) == [LineStarted("Eleven is knocked out.")]
    assert knockout.of(Finished) == [Finished(cancelled=True)]
    gap = finale.times(LineStarted)[0] - knockout.times(LineStarted)[0]
    assert gap >= duration - 0.02, (
        f"the knock-out line ({duration:.2f} s) was cut after {gap:.2f} s"
    )
    assert gap < duration + 0.5
