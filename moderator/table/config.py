"""The table's settings, kept as JSON in the config folder.

Saved atomically (`safe_output`: a temp file, fsync, rename) so a crash never
leaves a half-written file; read by `safe_input`, so a missing or damaged file
gives the defaults plus a notice instead of stopping the game night.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from moderator import safe_output
from moderator.narration.audio.ambience import DEFAULT_LEVEL
from moderator.narration.settings import (
    DEFAULT_GROWL_SECONDS,
    DEFAULT_PASSING_SECONDS,
    DEFAULT_RATE,
    DEFAULT_REVEAL_SECONDS,
    ENGLISH_ENGINES,
    MAX_GROWL_SECONDS,
    MAX_PAUSE_SECONDS,
    MAX_RATE,
    MAX_REVEAL_SECONDS,
    MIN_GROWL_SECONDS,
    MIN_RATE,
    MIN_REVEAL_SECONDS,
)
from moderator.safe_input import FileProblem, read_json

SETTINGS_FILE = "settings.json"


@dataclass(frozen=True)
class TableSettings:
    """What the Settings screen edits: the narration's VoiceSettings and the phone board.

    Every limit comes from `moderator.narration.settings` (the narrator clamps
    to the same ranges this validates).
    """

    enabled: bool = True
    lang: str = "en"
    #: Words per minute of the voice.
    rate: int = DEFAULT_RATE
    #: 0.0 .. 1.0
    volume: float = 1.0
    #: Length of the Possessed's eyes-open window in the reveal.
    reveal_seconds: float = DEFAULT_REVEAL_SECONDS
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
        if (
            not isinstance(self.lang, str)
            or not self.lang.strip()
            or len(self.lang) > 20
            or not self.lang.isprintable()
        ):
            raise ValueError("The language must be a code such as en, fr or de.")
        if not isinstance(self.rate, int) or isinstance(self.rate, bool):
            raise ValueError("The speech rate must be a whole number of words per minute.")
        if not MIN_RATE <= self.rate <= MAX_RATE:
            raise ValueError(
                f"The speech rate must be between {MIN_RATE} and {MAX_RATE} words per minute."
            )
        volume = _within(self.volume, 0.0, 1.0, "The volume must be between 0 and 1.")
        seconds = _within(
            self.reveal_seconds,
            MIN_REVEAL_SECONDS,
            MAX_REVEAL_SECONDS,
            f"The reveal window must be between {MIN_REVEAL_SECONDS:g} and "
            f"{MAX_REVEAL_SECONDS:g} seconds.",
        )
        growl = _within(
            self.growl_seconds,
            MIN_GROWL_SECONDS,
            MAX_GROWL_SECONDS,
            f"The growling time must be between {MIN_GROWL_SECONDS:g} and "
            f"{MAX_GROWL_SECONDS:g} seconds.",
        )
        if not isinstance(self.ambience, bool):
            raise ValueError("Ambience must be on or off.")
        level = _within(
            self.ambience_level, 0.0, 1.0, "The ambience level must be between 0 and 1."
        )
        if self.english_engine not in ENGLISH_ENGINES:
            raise ValueError(f"The English voice must be one of: {', '.join(ENGLISH_ENGINES)}.")
        passing = _within(
            self.passing_seconds,
            1.0,
            MAX_PAUSE_SECONDS,
            f"The silent passing must be between 1 and {MAX_PAUSE_SECONDS:g} seconds.",
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


def _within(value: object, least: float, most: float, sentence: str) -> float:
    """`value` as a float if it is a number from `least` to `most`, else ValueError(sentence).

    A string or a bool is not a number here (settings.json holds numbers), and
    neither is NaN or infinity.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(sentence)
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        raise ValueError(sentence) from None
    if not math.isfinite(number) or not least <= number <= most:
        raise ValueError(sentence)
    return number


def load_settings(config_dir: Path) -> tuple[TableSettings, str | None]:
    """The saved settings, or the defaults and a sentence saying why.

    The file is read by `safe_input` (any content gives a sentence, never an
    exception). A field out of range, or of the wrong kind, takes its default and
    is named in the sentence; the other fields are kept. Unknown fields are
    ignored (a newer version's file still loads).
    """
    path = config_dir / SETTINGS_FILE
    try:
        data = read_json(path)
    except FileProblem as problem:
        return TableSettings(), (
            f"The settings file {problem.where} was not used: it {problem.reason}. "
            "Using the default settings."
        )
    if data is None:
        return TableSettings(), None
    if not isinstance(data, dict):
        return TableSettings(), (
            f"The settings file {path} was not used: it holds no settings "
            "(a JSON object in braces). Using the default settings."
        )
    settings, refused = _fields_of(data)
    if not refused:
        return settings, None
    back = "That setting is" if len(refused) == 1 else "Those settings are"
    return settings, (
        f"In the settings file {path}, {' '.join(refused)} "
        f"{back} back to the default; the others are kept."
    )


def _fields_of(data: Mapping[str, Any]) -> tuple[TableSettings, list[str]]:
    """The settings the file gives, one field at a time, and a sentence per refused field.

    Each field is checked alone on top of the ones already accepted, so a bad
    field cannot take a good one down with it.
    """
    settings = TableSettings()
    refused: list[str] = []
    for item in fields(TableSettings):
        if item.name not in data:
            continue
        try:
            settings = replace(settings, **{item.name: data[item.name]}).validated()
        except ValueError as error:
            sentence = str(error)
            refused.append(
                f"{item.name} = {_shown(data[item.name])} was not used: "
                f"{sentence[:1].lower()}{sentence[1:]}"
            )
    return settings, refused


def _shown(value: object) -> str:
    """A value from the file as JSON, cut short: quoted back in a sentence."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 24 else text[:23] + "…"


def save_settings(config_dir: Path, settings: TableSettings) -> str | None:
    """Write the settings atomically, through the one writer (`moderator.safe_output`).

    A `settings.json` that is a symlink (as dotfile managers make) keeps its link and
    the file it points at is replaced; one that is not a regular file (a FIFO would
    block the app) is refused. An earlier file that could not be read (a typo in a
    hand-edited file) is not overwritten: it is renamed aside first, and the
    sentence returned says where it is.

    Raises:
        OutputError: the file cannot be written; `str(error)` says why.
        OSError: the config folder cannot be created, or the unreadable file moved.
    """
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / SETTINGS_FILE
    if safe_output.check_target(path).kind is not safe_output.Kind.FILE:
        raise safe_output.OutputError(
            f"Could not write {path}: it is not a regular file. Nothing was written."
        )
    kept = _set_aside_if_unreadable(path)
    safe_output.write_text(path, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n")
    if kept is None:
        return None
    return f"The earlier {SETTINGS_FILE}, which could not be read, is kept as {kept}."


def _set_aside_if_unreadable(path: Path) -> Path | None:
    """Rename an unreadable settings file (the link's target) to a free `.unreadable` name."""
    try:
        read_json(path)
        return None
    except FileProblem:
        pass
    real = path.resolve()
    for number in range(1, 100):
        aside = real.with_name(f"{real.name}.unreadable" + (f"-{number}" if number > 1 else ""))
        if not aside.exists() and not aside.is_symlink():
            os.replace(real, aside)
            return aside
    raise safe_output.OutputError(
        f"Could not write {path}: it could not be read, and 99 earlier unreadable copies "
        "are kept beside it already. Nothing was written."
    )
