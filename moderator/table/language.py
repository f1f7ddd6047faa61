"""The table's one language, chosen at start: the screen's and the voice's.

`--lang CODE` (one run) > settings.json's `lang` > the computer's language > English
(`moderator.i18n.choice`). The choice is installed for the screen (gettext) and
written into the settings the narrator is given, so the voice speaks what the
screen shows.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from moderator import i18n
from moderator.i18n.choice import LanguageChoice, saved_language
from moderator.i18n.system import system_language
from moderator.narration.settings import VoiceSettings
from moderator.table.config import SETTINGS_FILE

SettingsT = TypeVar("SettingsT", bound=VoiceSettings)


def choose_table_language(config_dir: Path, command_line: str | None) -> LanguageChoice:
    """Choose the table's language and show the screen in it from now on."""
    choice = i18n.choose_language(
        command_line,
        saved_language(config_dir / SETTINGS_FILE),
        system_language(),
        i18n.screen_languages(),
    )
    i18n.use_language(choice.screen)
    return choice


def speaking(settings: SettingsT, choice: LanguageChoice) -> SettingsT:
    """The settings with the voice in the table's language."""
    return settings if settings.lang == choice.table else replace(settings, lang=choice.table)
