"""The speech cache folder and its clips, shared by every synthesis engine.

Each engine keys its clips its own way (`cache_path`), but a cached clip is
recognised the same way for all of them: a WAV header that reads, so a
partial or foreign file is synthesized again rather than played.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from moderator.narration.audio.wavfile import wav_duration
from moderator.narration.speech.speaker import Clip


def usable_cache(folder: Path) -> Path:
    """`folder`, or a private temporary one when it cannot be written (read-only home)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="mindflayer-speech-"))


def cached_clip(text: str, path: Path) -> Clip | None:
    """The clip cached at `path`, or None when it must be synthesized (one header read)."""
    try:
        return Clip(text, wav_duration(path), path)
    except Exception:  # missing, partial or foreign file: synthesize again
        return None
