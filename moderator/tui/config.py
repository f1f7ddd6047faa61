"""The table's settings, kept as JSON in the config folder.

Saved atomically (write a temp file, fsync, rename) so a crash never leaves a
half-written file; a missing or damaged file gives the defaults plus a notice
instead of stopping the game night.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from moderator.narration.audio.ambience import DEFAULT_LEVEL
from moderator.narration.settings import (
    DEFAULT_GROWL_SECONDS,
    DEFAULT_PASSING_SECONDS,
    DEFAULT_RATE,
    ENGLISH_ENGINES,
    MAX_PAUSE_SECONDS,
    MAX_RATE,
    MIN_RATE,
)

SETTINGS_FILE = "settings.json"


@dataclass(frozen=True)
class TableSettings:
    """What the Settings screen edits; mirrors the narration layer's VoiceSettings."""

    enabled: bool = True
    lang: str = "en"
    #: Words per minute of the voice.
    rate: int = DEFAULT_RATE
    #: 0.0 .. 1.0
    volume: float = 1.0
    #: Length of the Possessed's eyes-open window in the reveal.
    reveal_seconds: float = 5.0
    #: Speak "<name>, your turn" each time the turn passes.
    announce_turns: bool = False
    #: How long the Possessed growl in the finale before the applause cue.
    growl_seconds: float = DEFAULT_GROWL_SECONDS
    #: A sound bed under the eyes-closed moments, masking the room.
    ambience: bool = True
    #: The bed's loudness, 0..1.
    ambience_level: float = DEFAULT_LEVEL
    #: "espeak", or "piper" (the optional neural voice) for English.
    english_engine: str = "espeak"
    #: How long the bed plays under the Meeting's silent passing (the rulebook gives none).
    passing_seconds: float = DEFAULT_PASSING_SECONDS
    #: The phone board may be started (off: its key opens no port).
    board: bool = False
    #: The board's port, and its address ("": the laptop's address on the local network).
    board_port: int = 8765
    board_address: str = ""

    def validated(self) -> TableSettings:
        """The same settings, or ValueError with a sentence saying what is wrong."""
        if not isinstance(self.enabled, bool) or not isinstance(self.announce_turns, bool):
            raise ValueError("Voice and turn announcements must be on or off.")
        if not isinstance(self.lang, str) or not self.lang.strip() or len(self.lang) > 20:
            raise ValueError("The language must be a code such as en, fr or de.")
        if not isinstance(self.rate, int) or isinstance(self.rate, bool):
            raise ValueError("The speech rate must be a whole number of words per minute.")
        if not MIN_RATE <= self.rate <= MAX_RATE:
            raise ValueError(
                f"The speech rate must be between {MIN_RATE} and {MAX_RATE} words per minute."
            )
        volume = float(self.volume)
        if not math.isfinite(volume) or not 0.0 <= volume <= 1.0:
            raise ValueError("The volume must be between 0 and 1.")
        seconds = float(self.reveal_seconds)
        if not math.isfinite(seconds) or not 1.0 <= seconds <= 30.0:
            raise ValueError("The reveal window must be between 1 and 30 seconds.")
        growl = float(self.growl_seconds)
        if not math.isfinite(growl) or not 1.0 <= growl <= 30.0:
            raise ValueError("The growling time must be between 1 and 30 seconds.")
        if not isinstance(self.ambience, bool):
            raise ValueError("Ambience must be on or off.")
        level = float(self.ambience_level)
        if not math.isfinite(level) or not 0.0 <= level <= 1.0:
            raise ValueError("The ambience level must be between 0 and 1.")
        if self.english_engine not in ENGLISH_ENGINES:
            raise ValueError(f"The English voice must be one of: {', '.join(ENGLISH_ENGINES)}.")
        passing = float(self.passing_seconds)
        if not math.isfinite(passing) or not 1.0 <= passing <= MAX_PAUSE_SECONDS:
            raise ValueError(
                f"The silent passing must be between 1 and {MAX_PAUSE_SECONDS:g} seconds."
            )
        if not isinstance(self.board, bool) or not isinstance(self.board_address, str):
            raise ValueError("The phone board must be on or off, its address an IP address.")
        port = self.board_port
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise ValueError("The phone board's port must be a number from 0 to 65535.")
        return replace(
            self,
            lang=self.lang.strip(),
            volume=volume,
            reveal_seconds=seconds,
            growl_seconds=growl,
            ambience_level=level,
            passing_seconds=passing,
        )


def load_settings(config_dir: Path) -> tuple[TableSettings, str | None]:
    """The saved settings, or the defaults and a sentence saying why."""
    path = config_dir / SETTINGS_FILE
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return TableSettings(), None
    except OSError as error:
        return (
            TableSettings(),
            f"The settings could not be read ({error.strerror}); using defaults.",
        )
    try:
        data: Any = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        known = {f.name for f in fields(TableSettings)}
        settings = TableSettings(**{k: v for k, v in data.items() if k in known})
        return settings.validated(), None
    except (ValueError, TypeError):
        return TableSettings(), f"The settings file {path.name} was damaged; using defaults."


def save_settings(config_dir: Path, settings: TableSettings) -> None:
    """Write the settings atomically; OSError propagates with its sentence."""
    config_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(asdict(settings), indent=2, sort_keys=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=config_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, config_dir / SETTINGS_FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
