"""Every shipped script rendered once per test process, as `mindflayer narrate --wav` writes it.

Why: the loudness, real-speech and how-to-play tests each rendered the same
scripts in the same languages with the same settings (real espeak-ng, then
the leveling of every clip, the bed and the mix: the leveling alone is most
of a render's CPU); each now checks its own properties on one render. The
tests that take their renders from here share the `xdist_group` GROUP, so
pytest-xdist runs them in one worker process, where the session fixture
(`shipped_renders` in conftest.py) keeps them.

What a render holds depends on nothing but the script, the language and the
synthesizer's audio: espeak's audio for a line varies by tens of ms with what
the same voice said before, so the tests that use these renders assert only
what must hold for any of espeak's takes (levels, ceilings, lead-in, length).
The listener's tests, whose verdicts are marginal, render their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from moderator.narration.audio.wavfile import Pcm, read_pcm
from moderator.narration.cli import SAMPLE_CONTEXT
from moderator.narration.render import Rendered, render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.synthesizer import Synthesizer

#: The `xdist_group` of every test that takes its renders from `ShippedRenders`.
GROUP = "shipped-renders"
#: The context every script is rendered and scored with (7 players: setup with a reveal).
CONTEXT: dict[str, object] = {"players": 7, "player": "Eleven", "meeting": 2}
SERIES_CONTEXT: dict[str, object] = {"players": ["Eleven", "Mike"]}


def context_for(script: str) -> dict[str, object]:
    """The sample context a script is rendered with.

    The table read aloud (F3) says nothing without its situation: it takes the sample
    `mindflayer narrate` renders it with (a turn, a Meeting done, one knocked out).
    """
    if script == "series_winner":
        return dict(SERIES_CONTEXT)
    return (
        {**CONTEXT, **SAMPLE_CONTEXT.get(script, {})} if script == "table_state" else dict(CONTEXT)
    )


@dataclass(frozen=True)
class ShippedRender:
    """One script in one language, the bed on, as written and as read back."""

    rendered: Rendered
    pcm: Pcm


class ShippedRenders:
    """The shipped scripts at the default settings (bed on) in a language, each rendered once."""

    def __init__(self, speaker: Synthesizer, folder: Path) -> None:
        self.speaker = speaker
        self._folder = folder
        self._library = ScriptLibrary.load(None)
        self._renders: dict[tuple[str, str], ShippedRender] = {}

    def render(self, lang: str, script: str) -> ShippedRender:
        """`script` in `lang` with the sample context: rendered on first use, then kept."""
        key = (lang, script)
        if key not in self._renders:
            out = self._folder / f"{lang}-{script}.wav"
            settings = VoiceSettings(lang=lang)
            rendered = render_script(
                self._library, self.speaker, script, context_for(script), settings, out
            )
            self._renders[key] = ShippedRender(rendered, read_pcm(out))
        return self._renders[key]
