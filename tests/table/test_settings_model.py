"""One settings model (issue 21): each field and its limits declared once.

`TableSettings` used to copy `VoiceSettings` field for field (and had no
`lead_in`, which the voice plays); now it extends it with the phone board's
fields alone. These tests hold the file format steady across that change, prove
the lead-in goes from settings.json to the voice (the Settings dialog has its own
tests in the TUI's), and check each field of a hostile file on its own.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from moderator.narration.setting_rules import RULE, Rule
from moderator.narration.settings import DEFAULT_LEAD_IN, MAX_LEAD_IN, VoiceSettings
from moderator.table.config import SETTINGS_FILE, TableSettings, load_settings
from moderator.table.voice import to_voice_settings

#: settings.json as the version before this change saved it (`save_settings`: sorted
#: keys, indented by 2), with a value other than the default in every field.
EARLIER_FILE = """{
  "ambience": false,
  "ambience_level": 0.3,
  "announce_turns": true,
  "board": true,
  "board_address": "192.168.1.20",
  "board_port": 9000,
  "enabled": false,
  "english_engine": "piper",
  "growl_seconds": 4.0,
  "lang": "fr",
  "passing_seconds": 12.0,
  "rate": 200,
  "reveal_seconds": 7.0,
  "volume": 0.8
}
"""


#: The board's own fields: the only ones the table adds to the voice's.
BOARD_FIELDS = ("board", "board_port", "board_address", "remote")


def test_a_settings_file_of_the_earlier_version_loads_unchanged(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text(EARLIER_FILE, encoding="utf-8")
    settings, notice = load_settings(tmp_path)
    assert notice is None
    assert settings == TableSettings(**json.loads(EARLIER_FILE))
    assert settings.lead_in == DEFAULT_LEAD_IN, "a file without the lead-in keeps its default"


def test_the_lead_in_goes_from_the_file_to_the_voice(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text(json.dumps({"lead_in": 0.5}), encoding="utf-8")
    settings, notice = load_settings(tmp_path)
    assert notice is None
    assert to_voice_settings(settings).lead_in == 0.5


def test_an_out_of_range_lead_in_is_named_and_the_others_are_kept(tmp_path: Path) -> None:
    path = tmp_path / SETTINGS_FILE
    path.write_text(json.dumps({"lead_in": 5, "rate": 200}), encoding="utf-8")
    settings, notice = load_settings(tmp_path)
    assert notice == (
        f"In the settings file {path}, lead_in = 5 was not used: the lead-in must be "
        f"between 0 and {MAX_LEAD_IN:g} seconds. That setting is back to the default; "
        "the others are kept."
    )
    assert settings == TableSettings(rate=200)


def test_the_table_adds_only_the_board_to_the_voice_fields() -> None:
    voice = fields(VoiceSettings)
    table = fields(TableSettings)
    assert table[: len(voice)] == voice
    assert all(mine is theirs for mine, theirs in zip(table, voice, strict=False)), (
        "declared once, inherited: the same field objects"
    )
    assert tuple(item.name for item in table[len(voice) :]) == BOARD_FIELDS
    assert all(isinstance(item.metadata.get(RULE), Rule) for item in table)


def test_every_field_of_the_settings_is_checked_on_its_own(tmp_path: Path) -> None:
    saved = {"rate": 200, "growl_seconds": 1e400, "passing_seconds": 30}
    (tmp_path / SETTINGS_FILE).write_text(
        json.dumps(saved).replace("Infinity", "1e400"), encoding="utf-8"
    )
    settings, notice = load_settings(tmp_path)
    assert settings == TableSettings(rate=200, passing_seconds=30.0)
    assert notice is not None and "growl_seconds = Infinity was not used" in notice
    assert "That setting is back to the default" in notice


def test_the_reveal_window_of_the_settings_goes_to_sixty_seconds() -> None:
    assert TableSettings(reveal_seconds=60).validated().reveal_seconds == 60.0
    with pytest.raises(ValueError, match="between 1 and 60 seconds"):
        TableSettings(reveal_seconds=0.5).validated()
