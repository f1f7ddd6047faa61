"""Which language the table uses: one setting for the screen and the voice.

`--lang CODE` (one run) > the settings' `lang` > the computer's language (only
if the app has a screen translation for it) > English. A language with voice
scripts but no screen translation (a table's own `voice_scripts/it/`) keeps its
voice, and the screen shows English with one notice saying so.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from moderator.safe_input import FileProblem, read_json

#: The language the msgids are written in (no catalog: gettext shows them as they are).
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class LanguageChoice:
    """The table's language, and the screen's (the same, unless it has no translation)."""

    #: The table's language: the voice speaks it (the narration settings' `lang`).
    table: str
    #: The language of the screen and the command line.
    screen: str

    @property
    def notice(self) -> str | None:
        """One sentence for the table when the screen cannot follow the table's language."""
        if self.screen == self.table:
            return None
        # The notice is shown on an English screen: it is English, and not a msgid.
        return (
            f"The screen has no translation for the table's language ({self.table}) yet, so "
            f"it is shown in English; the voice speaks {self.table} if its voice scripts exist."
        )


def choose_language(
    command_line: str | None,
    saved: str | None,
    system: str | None,
    translated: Collection[str],
) -> LanguageChoice:
    """Pick the table's language from its sources, strongest first.

    Args:
        command_line: `--lang CODE`, if given.
        saved: the settings file's `lang`, if the file gives one.
        system: the computer's language (`system.system_language`), if it says.
        translated: the languages the screen has a catalog for (English included).
    """
    for code in (command_line, saved):
        if code:
            return _for(code.strip(), translated)
    if system and system in translated:
        return LanguageChoice(system, system)
    return LanguageChoice(SOURCE_LANGUAGE, SOURCE_LANGUAGE)


def _for(code: str, translated: Collection[str]) -> LanguageChoice:
    return LanguageChoice(code, code if code in translated else SOURCE_LANGUAGE)


def saved_language(settings_file: Path) -> str | None:
    """The `lang` a settings file gives, or None (no file, no `lang`, or unreadable).

    Only whether the table chose a language: the settings themselves, and any
    sentence about a damaged file, are the settings loader's (`table.config`).
    """
    try:
        data = read_json(settings_file)
    except FileProblem:
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    if isinstance(lang, str) and lang.strip() and lang.isprintable() and len(lang) <= 20:
        return lang.strip()
    return None
