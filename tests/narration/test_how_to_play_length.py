"""How to play is never more than 90 seconds spoken (issue 20 item 7), measured from the
audio real espeak-ng makes for each shipped language, at the default voice settings."""

from __future__ import annotations

import pytest
from shipped_renders import GROUP, ShippedRenders, context_for

from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings

pytestmark = pytest.mark.speech
#: The issue's bound: the whole summary, pauses included.
LONGEST_SECONDS = 90.0


@pytest.mark.xdist_group(GROUP)
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_summary_is_spoken_in_at_most_90_seconds(
    speech: None, shipped_renders: ShippedRenders, lang: str
) -> None:
    """The render the loudness tests check (shipped_renders.py): the summary takes no
    context, so it is the same script with the sample context as without one."""
    library = ScriptLibrary.load(None)
    settings = VoiceSettings(lang=lang)
    lines = library.actions("how_to_play", {}, settings) or []
    assert lines == library.actions("how_to_play", context_for("how_to_play"), settings)
    rendered = shipped_renders.render(lang, "how_to_play").rendered
    spoken = sum(end - start for start, end in rendered.offsets) / rendered.rate
    assert len(rendered.offsets) == len(rendered.lines) == sum(hasattr(a, "text") for a in lines)
    assert spoken > 2.0 * len(rendered.lines), f"{lang}: too short to be the real speech"
    assert spoken <= LONGEST_SECONDS, f"{lang}: {spoken:.1f} s of speech"
    # The whole file: the lead-in, every line's samples and the pauses between them.
    assert rendered.duration <= LONGEST_SECONDS, f"{lang}: {rendered.duration:.1f} s in all"
