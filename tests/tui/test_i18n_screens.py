"""The start screen and the dialogs in the table's language (issue 18).

The real app on temp folders, its language from settings.json as a table sets
it: the choices, the key bar, the help (keys, sections and the rulebook's
panels), the settings dialog and the seat picker in French, German or Spanish.
A language with no screen translation keeps English and says so once; choosing
another language in the Settings shows it on the next screen.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from driving import key, shown
from no_message_left import settled, toasts
from textual.widgets import Label, Select

from moderator.narration import VoiceSettings, make_narrator
from moderator.table.config import SETTINGS_FILE
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.run import make_app
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.choice import ChoiceList
from tests.tui.app_driver import footer, screen_text, speaking


def assert_told_once_in_english(app: MindFlayerApp, code: str) -> None:
    """The screen is English, and one toast said why (no translation for `code`)."""
    assert "New series (n)" in choices_of(app)
    about = [toast for toast in toasts(app) if "no translation" in toast]
    assert len(about) == 1 and f"({code})" in about[0], about


def choices_of(app: MindFlayerApp) -> str:
    return str(app.screen.query_one(ChoiceList).render())


@pytest.mark.parametrize(
    ("lang", "choices", "bar"),
    [
        ("fr", ["Nouvelle série (n)", "Historique (h)", "Réglages (F2)", "Quitter (q)"], "Quitter"),
        ("de", ["Neue Serie (n)", "Verlauf (h)", "Optionen (F2)", "Beenden (q)"], "Beenden"),
        ("es", ["Nueva serie (n)", "Historial (h)", "Ajustes (F2)", "Salir (q)"], "Salir"),
    ],
)
async def test_the_start_screen_in_the_tables_language(
    app_factory: Callable[[], MindFlayerApp],
    folders: dict[str, Path],
    lang: str,
    choices: list[str],
    bar: str,
) -> None:
    speaking(folders, lang)
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(pilot, StartScreen)
        await settled(pilot)
        listed = choices_of(app)
        for choice in choices:
            assert choice in listed
        assert bar in footer(app)
        assert "New series" not in listed and " q Quit " not in footer(app)
        assert "palette" not in footer(app), "Textual's own word is translated too"
        assert app.controller.settings.lang == lang, "the voice speaks the same language"


async def test_the_help_in_french_keys_sections_and_rulebook(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    speaking(folders, "fr")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await shown(pilot, StartScreen)
        await key(pilot, "f1")
        help_screen = await shown(pilot, HelpScreen)
        text = screen_text(help_screen)
        for french in (
            "Sur cet écran",
            "Nouvelle série : Commencer une nouvelle série",
            "Pendant une réunion (règle du jeu)",
            "Flagelleur mental",
            "fermer cette aide.",
        ):
            assert french in text, french
        for english in ("On this screen", "Start a new series", "During a Meeting"):
            assert english not in text, english


async def test_the_settings_dialog_in_german(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    speaking(folders, "de")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await shown(pilot, StartScreen)
        await key(pilot, "f2")
        dialog = await shown(pilot, SettingsScreen)
        labels = [str(label.render()) for label in dialog.query(Label)]
        assert "Sprache" in labels and "Englische Stimme" in labels and "an" in labels
        assert "Language" not in labels
        assert "Optionen" in screen_text(dialog)


async def test_a_language_without_a_screen_translation_is_english_with_one_notice(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    speaking(folders, "it")
    app = app_factory()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await shown(pilot, StartScreen)
        await settled(pilot)
        assert_told_once_in_english(app, "it")
        assert app.controller.settings.lang == "it", "the voice keeps the table's language"


async def test_lang_on_the_command_line_is_for_this_run_over_the_settings(
    folders: dict[str, Path],
) -> None:
    speaking(folders, "fr")
    narrator = make_narrator(VoiceSettings(enabled=False), None, folders["cache"], time_scale=0.01)
    app = make_app(
        folders["data"], folders["config"], folders["cache"], None, narrator=narrator, lang="es"
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(pilot, StartScreen)
        await settled(pilot)
        assert "Nueva serie (n)" in choices_of(app)
        assert app.controller.settings.lang == "es"
    saved = json.loads((folders["config"] / SETTINGS_FILE).read_text(encoding="utf-8"))
    assert saved == {"lang": "fr"}, "the settings file is left as it was"


async def test_choosing_a_language_without_a_translation_says_so_once(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    speaking(folders, "fr")
    app = app_factory()
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await shown(pilot, StartScreen)
        await key(pilot, "f2")
        dialog = await shown(pilot, SettingsScreen)
        # A table's own voice scripts in Italian (voice_scripts/it/) would list it so.
        select = dialog.query_one("#settings-lang", Select)
        select.set_options([("Français (fr)", "fr"), ("Italiano (it)", "it")])
        select.value = "it"
        await settled(pilot)
        await key(pilot, "ctrl+s")
        await shown(pilot, StartScreen)
        await settled(pilot)
        assert_told_once_in_english(app, "it")


async def test_choosing_french_in_the_settings_shows_french_on_the_next_screen(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await shown(pilot, StartScreen)
        await key(pilot, "f2")
        dialog = await shown(pilot, SettingsScreen)
        assert "Language" in [str(label.render()) for label in dialog.query(Label)]
        dialog.query_one("#settings-lang").value = "fr"  # type: ignore[attr-defined]
        await settled(pilot)
        await key(pilot, "ctrl+s")
        await shown(pilot, StartScreen)
        await settled(pilot)
        assert "Réglages enregistrés." in toasts(app)
        assert "Nouvelle série (n)" in choices_of(app), "the start screen under the dialog too"
        assert " q Quitter " in footer(app)
        await key(pilot, "f1")
        help_screen = await shown(pilot, HelpScreen)
        assert "Sur cet écran" in screen_text(help_screen)
