"""One settings model (issue 21): each field and its limits declared once.

`TableSettings` used to copy `VoiceSettings` field for field (and had no
`lead_in`, which the voice plays); now it extends it with the phone board's
fields alone. These tests hold the file format steady across that change and
prove the lead-in goes from settings.json and the Settings screen to the voice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest
from driving import key
from no_message_left import settled
from textual.widgets import Input, Select, Switch

from moderator.narration.narrator import Narrator
from moderator.narration.setting_rules import RULE, Rule
from moderator.narration.settings import DEFAULT_LEAD_IN, MAX_LEAD_IN, VoiceSettings
from moderator.narration.speech.piper_voices import voices_dir
from moderator.table.config import SETTINGS_FILE, TableSettings, load_settings
from moderator.table.voice import to_voice_settings
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen

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


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("rate", 60),
        ("rate", 500),
        ("volume", 1.5),
        ("reveal_seconds", 0.5),
        ("reveal_seconds", 61.0),
        ("growl_seconds", 31.0),
        ("ambience_level", -0.1),
        ("passing_seconds", 0.5),
        ("lead_in", -1.0),
        ("lead_in", 2.5),
        ("english_engine", "festival"),
    ],
)
def test_what_the_settings_refuse_the_narrator_clamps_into_what_they_accept(
    name: str, refused: object
) -> None:
    with pytest.raises(ValueError):
        TableSettings(**{name: refused}).validated()
    clamped = getattr(VoiceSettings(**{name: refused}).clamped(), name)
    assert clamped != refused
    accepted = TableSettings(**{name: clamped}).validated()
    assert getattr(accepted, name) == clamped


#: Each field's widget in the Settings dialog and the value typed or chosen there.
DIALOG: dict[str, tuple[str, object]] = {
    "enabled": ("#settings-enabled", False),
    "lang": ("#settings-lang", "fr"),
    "english_engine": ("#settings-engine", "piper"),
    "rate": ("#settings-rate", "200"),
    "volume": ("#settings-volume", "0.8"),
    "reveal_seconds": ("#settings-reveal", "7"),
    "growl_seconds": ("#settings-growl", "4"),
    "ambience": ("#settings-ambience", False),
    "ambience_level": ("#settings-ambience-level", "0.3"),
    "passing_seconds": ("#settings-passing", "12"),
    "lead_in": ("#settings-lead-in", "0.5"),
    "announce_turns": ("#settings-announce", True),
    "board": ("#settings-board", True),
    "remote": ("#settings-remote", True),
    # Chosen once the language's own voices are offered (after "lang" is applied).
    "voice_engines": ("#settings-voice", "espeak"),
}


async def test_the_settings_dialog_shows_and_saves_every_field(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], narrators: list[Narrator]
) -> None:
    """Every field but the board's port and address (settings.json only) has a row."""
    assert set(DIALOG) | {"board_port", "board_address"} == {
        item.name for item in fields(TableSettings)
    }
    (folders["config"] / SETTINGS_FILE).write_text(
        json.dumps({"board_port": 9000, "board_address": "192.168.1.20"}), encoding="utf-8"
    )
    install_french_voice(voices_dir())
    app = app_factory()
    async with app.run_test(size=(80, 30)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        lead_in = screen.query_one("#settings-lead-in", Input)
        assert lead_in.value == str(DEFAULT_LEAD_IN), "the saved lead-in is shown"
        for widget_id, value in DIALOG.values():
            if widget_id == "#settings-voice":
                continue
            widget = screen.query_one(widget_id)
            if isinstance(widget, Switch):
                assert isinstance(value, bool)
                widget.value = value
            elif isinstance(widget, Select):
                widget.value = value
            else:
                assert isinstance(widget, Input) and isinstance(value, str)
                widget.value = value
        await settled(pilot)
        voice = screen.query_one("#settings-voice", Select)
        assert voice.value == "fr_FR-siwis-medium", "French's natural voice by default"
        voice.value = DIALOG["voice_engines"][1]
        await settled(pilot)
        await key(pilot, "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
    expected = TableSettings(
        voice_engines="fr=espeak",
        enabled=False,
        lang="fr",
        english_engine="piper",
        rate=200,
        volume=0.8,
        reveal_seconds=7.0,
        growl_seconds=4.0,
        ambience=False,
        ambience_level=0.3,
        passing_seconds=12.0,
        lead_in=0.5,
        announce_turns=True,
        board=True,
        board_port=9000,
        board_address="192.168.1.20",
        remote=True,
    )
    assert load_settings(folders["config"]) == (expected, None)
    assert narrators[-1].settings.lead_in == 0.5


def install_french_voice(voices: Path) -> None:
    """A French voice's files where `voices install` puts them (never spoken here)."""
    folder = voices / "fr_FR-siwis-medium"
    folder.mkdir(parents=True)
    (folder / "fr_FR-siwis-medium.onnx").write_bytes(b"a model")
    config = {"audio": {"sample_rate": 22050}, "language": {"family": "fr"}}
    (folder / "fr_FR-siwis-medium.onnx.json").write_text(json.dumps(config), encoding="utf-8")


async def test_a_lead_in_out_of_range_is_refused_by_the_dialog_and_nothing_is_saved(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 30)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#settings-lead-in", Input).value = "3"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        error = str(screen.query_one("#settings-error").render())
        assert error == f"The lead-in must be between 0 and {MAX_LEAD_IN:g} seconds."
    assert not (folders["config"] / SETTINGS_FILE).exists()
