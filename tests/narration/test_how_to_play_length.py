"""How to play is never more than 90 seconds spoken (issue 20 item 7), measured from the
audio real espeak-ng makes for each shipped language, at the default voice settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

pytestmark = pytest.mark.speech
#: The issue's bound: the whole summary, pauses included.
LONGEST_SECONDS = 90.0


@pytest.fixture
def speaker(speech: None, speech_cache: Path) -> Iterator[Pyttsx3Synthesizer]:
    speaker = Pyttsx3Synthesizer(speech_cache)
    yield speaker
    speaker.close()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_summary_is_spoken_in_at_most_90_seconds(
    speaker: Pyttsx3Synthesizer, tmp_path: Path, lang: str
) -> None:
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang)
    rendered = render_script(
        library, speaker, "how_to_play", {}, settings, tmp_path / f"{lang}.wav"
    )
    spoken = sum(end - start for start, end in rendered.offsets) / rendered.rate
    lines = library.actions("how_to_play", {}, settings) or []
    assert len(rendered.offsets) == len(rendered.lines) == sum(hasattr(a, "text") for a in lines)
    assert spoken > 2.0 * len(rendered.lines), f"{lang}: too short to be the real speech"
    assert spoken <= LONGEST_SECONDS, f"{lang}: {spoken:.1f} s of speech"
    # The whole file: the lead-in, every line's samples and the pauses between them.
    assert rendered.duration <= LONGEST_SECONDS, f"{lang}: {rendered.duration:.1f} s in all"
