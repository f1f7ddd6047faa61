"""The settings file's warning at start-up is in the table's language (issue 18).

A hand-edited settings.json with one bad field keeps the others (its `lang`
among them) and names the bad one in a toast; one that cannot be read at all is
said with its reason (`moderator.safe_input`). A German or French table reads
that toast in its own words, the file's path, the value and the parser's own
words as they are.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from no_message_left import record_toasts, settled, toasts

from moderator.table.config import SETTINGS_FILE, TableSettings
from moderator.tui.app import MindFlayerApp
from moderator.tui.keymap import KEYMAP_FILE
from moderator.tui.run import make_app
from tests.tui.app_driver import TrackedNarrator

#: Per language: the toast for `volume = "loud"`, with `{path}` the file.
SAID = {
    "de": (
        'In der Einstellungsdatei {path}: volume = "loud" wurde nicht verwendet: '
        "Die Lautstärke muss zwischen 0 und 1 liegen. Diese Einstellung gilt wieder mit "
        "ihrem Standardwert; die übrigen bleiben erhalten."
    ),
    "fr": (
        'Dans le fichier de réglages {path}, volume = "loud" n\'a pas été utilisé : '
        "Le volume doit être entre 0 et 1. Ce réglage reprend sa valeur par défaut ; "
        "les autres sont conservés."
    ),
}


@pytest.mark.parametrize("lang", sorted(SAID))
async def test_a_bad_field_in_settings_json_is_named_in_the_tables_language(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str
) -> None:
    path = folders["config"] / SETTINGS_FILE
    path.write_text(json.dumps({"lang": lang, "volume": "loud", "rate": 200}), encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        about = [toast for toast in toasts(app) if SETTINGS_FILE in toast]
        assert about == [SAID[lang].format(path=path)]
        assert "was not used" not in about[0] and "back to the default" not in about[0]
        assert app.controller.settings.rate == 200
        assert app.controller.settings.volume == TableSettings().volume


#: Per language: the toast for a settings.json that is not JSON (`{path}` the file).
UNREADABLE = {
    "de": (
        "Die Einstellungsdatei {path}:1 wurde nicht verwendet: Sie ist kein gültiges JSON "
        "(Expecting value). Es gelten die Standardeinstellungen."
    ),
    "fr": (
        "Le fichier de réglages {path}:1 n'a pas été utilisé : il n'est pas du JSON valide "
        "(Expecting value). Réglages par défaut utilisés."
    ),
}


@pytest.mark.parametrize("lang", sorted(UNREADABLE))
async def test_an_unreadable_settings_json_is_said_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    """The file gives no language: the command line's `--lang` is the table's."""
    path = folders["config"] / SETTINGS_FILE
    path.write_text("lang = de\n", encoding="utf-8")  # TOML typed into the JSON file
    app = make_app(
        folders["data"],
        folders["config"],
        folders["cache"],
        None,
        narrator=TrackedNarrator(folders["cache"]),
        lang=lang,
    )
    record_toasts(app)
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        about = [toast for toast in toasts(app) if SETTINGS_FILE in toast]
        assert about == [UNREADABLE[lang].format(path=path)]
        assert "not valid JSON" not in about[0] and "was not used" not in about[0]


async def test_a_keymap_file_nested_too_deeply_is_said_in_german(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """The keymap's warning was German around an English reason; now the reason too."""
    keymap = folders["config"] / KEYMAP_FILE
    keymap.write_text("next-turn = " + "[" * 100_000, encoding="utf-8")
    (folders["config"] / SETTINGS_FILE).write_text(json.dumps({"lang": "de"}), encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert [toast for toast in toasts(app) if KEYMAP_FILE in toast] == [
            f"Die Tastendatei {keymap} wurde nicht verwendet: Sie ist zu tief verschachtelt, "
            "um gelesen zu werden. Es gelten die Standardtasten."
        ]
