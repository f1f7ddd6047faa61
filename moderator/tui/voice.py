"""Thin adapter to the narration layer: settings conversion and the factory."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from moderator.narration import VoiceSettings, make_narrator
from moderator.tui.config import TableSettings
from moderator.tui.ports import NarratorLike


def to_voice_settings(settings: TableSettings) -> VoiceSettings:
    """The narrator's settings for the table's settings (same fields)."""
    return VoiceSettings(**asdict(settings))


def build_narrator(
    settings: TableSettings, voice_scripts_dir: Path | None, cache_dir: Path
) -> NarratorLike:
    """The real narrator (pyttsx3, or captions only when speech is unavailable)."""
    return make_narrator(to_voice_settings(settings), voice_scripts_dir, cache_dir)
