"""A voice built after the first frame (`DeferredNarrator`): what the table sets before it
is built reaches it once it is."""

from __future__ import annotations

from pathlib import Path

from moderator.narration import SilentSpeaker, VoiceSettings, make_narrator
from moderator.table.voice import DeferredNarrator


def test_settings_and_close_before_the_build_reach_the_narrator(tmp_path: Path) -> None:
    narrator = DeferredNarrator(
        lambda: make_narrator(
            VoiceSettings(), None, tmp_path / "cache", speaker=SilentSpeaker(), time_scale=0.01
        )
    )
    narrator.cancel()  # nothing to silence yet: nothing is built
    narrator.update_settings(VoiceSettings(rate=210))
    assert not narrator.built
    assert narrator.ready().settings.rate == 210  # type: ignore[attr-defined]
    narrator.close()
