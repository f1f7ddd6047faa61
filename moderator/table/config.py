"""The table's settings, kept as JSON in the config folder.

Saved atomically (`safe_output`: a temp file, fsync, rename) so a crash never
leaves a half-written file; read by `safe_input`, so a missing or damaged file
gives the defaults plus a notice instead of stopping the game night.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from moderator import safe_output
from moderator.domain import worded
from moderator.i18n import N_, _, ngettext
from moderator.i18n.refusals import refusal
from moderator.narration.setting_rules import RULE, Number, OnOff, Text, setting
from moderator.narration.settings import VoiceSettings
from moderator.safe_input import FileProblem, read_json

SETTINGS_FILE = "settings.json"
#: The phone board's port when settings.json names none.
DEFAULT_BOARD_PORT = 8765


class Address(Text):
    """An IP address, or "" (the laptop's own address on the local network).

    Checked by what it means, not only as a string: the address is shown in the
    board's link and handed to the server, and a string of escape sequences there
    changed the terminal's title.
    """

    def check(self, value: object) -> str:
        text = super().check(value)
        if text and not is_address(text):
            raise self.refused(self.sentence)
        return text

    def clamp(self, value: Any, default: Any) -> Any:
        return value if isinstance(value, str) and (not value or is_address(value)) else default


def is_address(text: str) -> bool:
    """Whether `text` is an IPv4 or IPv6 address, written the usual way."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class TableSettings(VoiceSettings):
    """What the Settings screen edits: the narrator's `VoiceSettings` and the phone board.

    The voice's fields (and their limits) are inherited, declared once in
    `moderator.narration.settings`; only the board's are added here. The narrator
    is handed the voice's part alone (`moderator.table.voice.to_voice_settings`).
    settings.json holds every field flat, as it always has.
    """

    #: The phone board may be started (off: its key opens no port).
    board: bool = setting(False, OnOff(N_("The phone board must be on or off.")))
    #: The board's port, and its address ("": the laptop's address on the local network).
    board_port: int = setting(
        DEFAULT_BOARD_PORT,
        Number(
            0,
            65535,
            N_("The phone board's port must be a number from {least} to {most}."),
            whole=True,
        ),
    )
    board_address: str = setting(
        "", Address(N_('The phone board\'s address must be an IP address in quotes (or "").'))
    )
    #: Phones may act (the remote: next turn, Meetings, knock-outs, undo); off by default.
    remote: bool = setting(False, OnOff(N_("The phone remote must be on or off.")))


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
        return TableSettings(), _(
            "The settings file {file} was not used: it {reason}. Using the default settings."
        ).format(file=problem.where, reason=problem.reason_in(_))
    if data is None:
        return TableSettings(), None
    if not isinstance(data, dict):
        return TableSettings(), _(
            "The settings file {file} was not used: it holds no settings "
            "(a JSON object in braces). Using the default settings."
        ).format(file=path)
    settings, refused = _fields_of(data)
    if not refused:
        return settings, None
    return settings, ngettext(
        "In the settings file {file}, {refused} That setting is back to the default; "
        "the others are kept.",
        "In the settings file {file}, {refused} Those settings are back to the default; "
        "the others are kept.",
        len(refused),
    ).format(file=path, refused=" ".join(refused))


def _fields_of(data: Mapping[str, Any]) -> tuple[TableSettings, list[str]]:
    """The settings the file gives, one field at a time, and a sentence per refused field.

    Each field is checked alone by the rule declared with it, so a bad field
    cannot take a good one down with it.
    """
    settings = TableSettings()
    refused: list[str] = []
    for item in fields(TableSettings):
        if item.name not in data:
            continue
        try:
            value = item.metadata[RULE].check(data[item.name])
        except ValueError as error:
            sentence = refusal(error)
            if sentence == str(error):  # the English reads on as a clause after the colon
                sentence = sentence[:1].lower() + sentence[1:]
            refused.append(
                _("{field} = {value} was not used: {reason}").format(
                    field=item.name, value=_shown(data[item.name]), reason=sentence
                )
            )
        else:
            settings = replace(settings, **{item.name: value})
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
            worded.N_("Could not write {path}: it is not a regular file. Nothing was written."),
            path=str(path),
        )
    kept = _set_aside_if_unreadable(path)
    safe_output.write_text(path, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n")
    if kept is None:
        return None
    return _("The earlier {file}, which could not be read, is kept as {kept}.").format(
        file=SETTINGS_FILE, kept=kept
    )


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
        worded.N_(
            "Could not write {path}: it could not be read, and 99 earlier unreadable copies "
            "are kept beside it already. Nothing was written."
        ),
        path=str(path),
    )
