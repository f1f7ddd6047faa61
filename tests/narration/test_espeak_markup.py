"""The role words' markup for espeak: only the role word changes, the rest stays inert text."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from moderator.narration.speech.espeak_markup import (
    ROLE_WORDS,
    SayAs,
    language_of,
    marked_up,
)
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

TABLE = {"en": {"possessed": SayAs("p@s'Est", pause_ms=120)}}


def test_a_line_without_a_role_word_is_sent_as_it_was() -> None:
    assert marked_up("Everyone, close your eyes.", "en-us", TABLE) is None
    assert marked_up("Possessed players, open your eyes.", "fr", TABLE) is None


def test_the_role_word_is_said_by_its_phonemes_after_a_pause() -> None:
    spoken = marked_up("Possessed players, close your eyes.", "en-us", TABLE)
    assert spoken == ('<speak><break time="120ms"/>[[p@s\'Est]] players, close your eyes.</speak>')
    # Whole words only, any case: "Possessedness" is not the role word.
    assert marked_up("Possessedness", "en", TABLE) is None
    assert marked_up("Only the POSSESSED may", "en-gb", TABLE) is not None


def test_a_name_can_never_become_markup() -> None:
    """A player's name reaches the engine as text: no element, entity or phoneme block."""
    name = '<break time="60s"/>&amp;[[h@\'loU]]'
    spoken = marked_up(f"{name}, Possessed players", "en-us", TABLE)
    assert spoken is not None
    body = spoken.removeprefix("<speak>").removesuffix("</speak>")
    literal = body.split('<break time="120ms"/>')[0]
    assert "<" not in literal and "[[" not in literal
    assert literal.startswith('&lt;break time="60s"/&gt;&amp;amp;[ [h@\'loU]]')


def test_phonemes_that_could_end_their_block_are_refused() -> None:
    with pytest.raises(ValueError, match="bad espeak phonemes"):
        marked_up("Possessed", "en", {"en": {"possessed": SayAs("p@]]<x>")}})


def test_the_shipped_table_is_well_formed() -> None:
    for lang, words in ROLE_WORDS.items():
        for word in words:
            assert marked_up(word.capitalize(), lang) is not None


def test_a_voice_names_its_language() -> None:
    assert [language_of(v) for v in ("en-us", "es-419", "de", "fr+m3")] == ["en", "es", "de", "fr"]


def _frames(path: Path) -> int:
    with wave.open(str(path), "rb") as clip:
        return clip.getnframes()


@pytest.mark.speech
def test_espeak_reads_the_markup_rather_than_speaking_it(speech: None, tmp_path: Path) -> None:
    """Real espeak-ng: a marked-up line is no longer than its plain reading plus the pause;
    read as plain text, the tags and brackets would be spoken ("break time...")."""
    speaker = Pyttsx3Synthesizer(tmp_path, warm=False)
    try:
        line = "Possessed players, close your eyes."
        assert speaker.engine_input(line, "en-us") is not None
        marked = speaker.synthesize(line, "en-us", 175, 1.0).result(timeout=30)
        plain = speaker.synthesize("Possest players, close your eyes.", "en-us", 175, 1.0)
        plain_clip = plain.result(timeout=30)
        assert marked.path is not None and plain_clip.path is not None
        extra = (_frames(marked.path) - _frames(plain_clip.path)) / 22050
        assert extra < 0.4, f"the markup added {extra:.2f} s: it was spoken"
    finally:
        speaker.close()
