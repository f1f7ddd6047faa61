"""The Settings dialog on the one settings model (issue 21): it shows and saves every field,
the lead-in included, and refuses a lead-in out of range, saving nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

from driving import key
from no_message_left import settled
from textual.widgets import Input, Select, Switch

from moderator.narration.narrator import Narrator
from moderator.narration.settings import DEFAULT_LEAD_IN, MAX_LEAD_IN
from moderator.narration.speech.piper_voices import voices_dir
from moderator.table.config import SETTINGS_FILE, TableSettings, load_settings
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen

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
