"""Ambience in the TUI: the settings that control it and the marker during a span."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from driving import key, until
from no_message_left import settled
from textual.widgets import Input, Label, Select, Switch

from moderator.narration.narrator import Narrator
from moderator.table.config import SETTINGS_FILE, TableSettings
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.widgets.ambience_marker import UNHEARD, AmbienceMarker
from tests.tui.app_driver import at_the_reveal, text_of


async def test_ambience_settings_say_on_off_in_words_and_reach_the_narrator(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], narrators: list[Narrator]
) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await key(pilot, "f2")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        word = screen.query_one("#settings-ambience-word", Label)
        assert text_of(word) == "on"
        screen.query_one("#settings-ambience", Switch).value = False
        await settled(pilot)
        assert text_of(word) == "off"
        screen.query_one("#settings-ambience-level", Input).value = "1.5"
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, SettingsScreen), "a level over 1 is refused"
        screen.query_one("#settings-ambience-level", Input).value = "0.3"
        screen.query_one("#settings-passing", Input).value = "12"
        screen.query_one("#settings-engine", Select).value = "piper"
        await key(pilot, "ctrl+s")
        assert not isinstance(app.screen, SettingsScreen)
    saved = json.loads((folders["config"] / SETTINGS_FILE).read_text())
    assert (saved["ambience"], saved["ambience_level"], saved["passing_seconds"]) == (
        False,
        0.3,
        12.0,
    )
    assert saved["english_engine"] == "piper"
    settings = narrators[-1].settings
    assert (settings.ambience, settings.english_engine, settings.passing_seconds) == (
        False,
        "piper",
        12.0,
    )


async def test_a_muted_reveal_shows_that_ambience_would_play(
    app_factory: Callable[..., MindFlayerApp],
) -> None:
    app = app_factory(time_scale=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_reveal(pilot, TableSettings(enabled=False))
        marker = screen.query_one(AmbienceMarker)
        assert not marker.display
        await key(pilot, "enter")
        await until(pilot, lambda: marker.display)
        assert text_of(marker) == UNHEARD
        await key(pilot, "escape")
        assert not marker.display
