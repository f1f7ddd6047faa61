"""The narration is understood: real espeak-ng renders heard by Whisper base.

The reveal's role words are heard with the bed on, once per language; the
English reveal and finale are understood as a whole (word error rate <= 0.5,
issue 9's target), and every reveal line is picked out of all the English
lines by what was heard. The English targets were pocketsphinx's until issue
21 (English only, its figures moved by about 0.3 between decodes).

Needs the `listen` extra (`make listen`); skips without it, and fails instead
under MINDFLAYER_REQUIRE_LISTENER=1 (CI). Only the reveal and the finale, so
the test's cost stays small; `make bench` (bench/bench_listener.py,
bench_intelligibility.py) scores every script. Transcripts are cached by the
audio's hash.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import listener as listener_module
import pytest
from listener import (
    Listener,
    cache_root,
    hear_render,
    listener_problem,
    nearest,
    pick_lines,
    score,
    script_lines,
)
from shipped_renders import CONTEXT

from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

pytestmark = [pytest.mark.speech, pytest.mark.slow]
#: Issue 9's target for the English reveal and finale, speech alone (bed off).
TARGET_WER = 0.5
#: Not reached yet with espeak-ng (issue 17 item 2): the role word is heard as another
#: word. de: "Die Besessenen" (was "Besessene Spieler", 0/2) is heard 1/2 ("die
#: besessenden"); phonemes with a pause, "Besessene," and "Wer besessen ist" did no
#: better. es: "poseídos" is heard "poseímos" (0/2) as written, with "Los", and with
#: phonemes p,ose'iDos or pose'idos. Strict: the day one is reached, the mark must go.
NOT_REACHED = pytest.mark.xfail(strict=True, reason="espeak's role word is not heard yet")


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    """One listener for the module: one process decodes every clip, the model loaded once."""
    problem = listener_problem()
    if problem is not None:
        if os.environ.get("MINDFLAYER_REQUIRE_LISTENER") == "1":
            pytest.fail(f"MINDFLAYER_REQUIRE_LISTENER=1 but {problem}")
        pytest.skip(problem)
    listener = Listener()
    yield listener
    listener.close()


@pytest.mark.parametrize(
    "lang",
    [
        # Reached by espeak phonemes (espeak_markup: /p@s'Est/ after 120 ms, was "the next").
        "en",
        # Reached by phrasing: "Les possédés, ..." (was "Joueurs possédés", heard "2 moules"),
        # heard 2/2 by the pinned decode (listener.DECODE_PINS; Intel's MKL heard "2 moules,
        # femme et le zéro": the verdict used to follow the CI machine's CPU vendor).
        "fr",
        pytest.param("de", marks=NOT_REACHED),
        pytest.param("es", marks=NOT_REACHED),
    ],
)
def test_the_reveal_role_words_are_heard_with_the_bed_on(
    speech: None, listener: Listener, fresh_speaker: Pyttsx3Synthesizer, tmp_path: Path, lang: str
) -> None:
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang, ambience=True)
    out = tmp_path / f"{lang}-reveal.wav"
    rendered = render_script(library, fresh_speaker, "reveal", CONTEXT, settings, out)
    heard = listener.transcribe(read_pcm(out), lang)
    hearing = score(" ".join(rendered.lines), heard, lang)
    assert hearing.roles_said == 2, hearing.said
    assert hearing.roles_heard == hearing.roles_said, f"{lang} heard: {heard!r}"


@pytest.mark.parametrize("script", ["reveal", "finale"])
def test_the_english_reveal_and_finale_are_understood_as_a_whole(
    speech: None, listener: Listener, fresh_speaker: Pyttsx3Synthesizer, tmp_path: Path, script: str
) -> None:
    """The speech alone (bed off): the voice and the phrasing are under test here;
    the role words with the bed on are the test above. Measured: reveal 0.12, finale 0.03."""
    settings = VoiceSettings(lang="en", ambience=False)
    library = ScriptLibrary.load(None)
    out = tmp_path / f"en-{script}.wav"
    hearing, heard = hear_render(library, fresh_speaker, listener, script, settings, out)
    assert hearing.wer <= TARGET_WER, f"{script}: WER {hearing.wer:.2f}, heard {heard!r}"


def test_every_reveal_line_is_picked_among_all_english_lines(
    speech: None, listener: Listener, fresh_speaker: Pyttsx3Synthesizer
) -> None:
    """Each reveal line alone, as the table hears it: what the listener wrote is nearer
    to that line than to any other line of the English scripts."""
    library = ScriptLibrary.load(None)
    picks = pick_lines(library, fresh_speaker, listener, VoiceSettings(lang="en"), ["reveal"])
    assert len(picks) == 4
    assert [(pick.text, pick.picked) for pick in picks] == [(p.text, p.text) for p in picks]


def test_the_listener_hears_english_and_can_fail(
    speech: None, listener: Listener, fresh_speaker: Pyttsx3Synthesizer
) -> None:
    """A plain English line is heard; French audio scored as that English line is not,
    nor picked as the English reveal line it translates."""
    text = "Everyone, open your eyes, and start the game."
    clip = fresh_speaker.synthesize(text, "en-us", 175, 1.0).result(timeout=30)
    assert clip.path is not None
    assert score(text, listener.transcribe(read_pcm(clip.path), "en"), "en").wer <= 0.2
    french = fresh_speaker.synthesize("Tout le monde, ouvrez les yeux.", "fr", 175, 1.0).result(30)
    assert french.path is not None
    assert score(text, listener.transcribe(read_pcm(french.path), "en"), "en").wer >= 0.5
    possessed = "Possessed players, close your eyes."
    french = fresh_speaker.synthesize("Joueurs possédés, fermez les yeux.", "fr", 175, 1.0).result(
        30
    )
    assert french.path is not None
    reveal = [line.text for line in script_lines(ScriptLibrary.load(None), "en", "reveal")]
    assert possessed in reveal
    assert nearest(listener.transcribe(read_pcm(french.path), "en"), reveal, "en") != possessed


def test_the_listener_hears_the_same_words_whatever_backend_the_machine_prefers(
    speech: None, listener: Listener, fresh_speaker: Pyttsx3Synthesizer, tmp_path: Path
) -> None:
    """An Intel machine's default (MKL) asked for: the pinned decode still hears the same.

    The French reveal is the marginal case: MKL's int8 GEMM hears "2 moules, femme
    et le zéro" where oneDNN hears "Les possédés" (measured on one machine by
    setting CT2_USE_MKL=1). A fresh process, so the library reads its settings anew.
    """
    out = tmp_path / "fr-reveal.wav"
    settings = VoiceSettings(lang="fr", ambience=True)
    render_script(ScriptLibrary.load(None), fresh_speaker, "reveal", CONTEXT, settings, out)
    here = listener.transcribe(read_pcm(out), "fr")
    # The joined model shared, the transcripts not: the other process must decode.
    root = tmp_path / "listener"
    root.mkdir()
    for entry in cache_root().iterdir():
        if entry.name != "transcripts":
            (root / entry.name).symlink_to(entry)
    there = subprocess.run(
        [sys.executable, str(Path(listener_module.__file__)), str(root), str(out), "fr"],
        env={**os.environ, "CT2_USE_MKL": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert there == here


def test_a_transcript_picks_the_nearest_line_and_a_tie_picks_none() -> None:
    lines = ["Everyone, close your eyes.", "Possessed players, close your eyes."]
    assert nearest("the best player, close your eyes.", lines, "en") == lines[1]
    assert nearest("everyone close your eyes", lines, "en") == lines[0]
    assert nearest("close your eyes", ["Open your eyes.", "Shut your eyes."], "en") is None
    assert nearest("anything", [], "en") is None


def test_role_words_are_counted_where_they_were_said() -> None:
    hearing = score("Possessed players, close your eyes.", "The next players close your eyes", "en")
    assert (hearing.roles_said, hearing.roles_heard) == (1, 0)
    assert hearing.wer == pytest.approx(2 / 5)
    heard = score("Joueurs possédés, fermez les yeux.", "Joueurs possédé fermez les yeux", "fr")
    assert heard.role_recall == 1.0 and heard.wer == 0.0
