"""The table's language: which one is chosen, how catalogs load, the CLI in French.

Each source of the choice is tried alone (`--lang`, settings.json, the system's
locale on Linux, macOS and Windows with a stand-in for the OS call), then the
fallback and the notice for a language without a screen translation. The CLI
tests run the real `main` (its help and argparse's own words).
"""

from __future__ import annotations

import argparse
import ctypes
import gettext
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from moderator import i18n
from moderator.cli import lang_given, main
from moderator.i18n import catalogs, choose_language
from moderator.i18n.choice import saved_language
from moderator.i18n.numbers import date_and_time, decimal, number
from moderator.i18n.po import CatalogError, compile_po, read_po
from moderator.i18n.system import apple_locale, language_code, system_language, windows_user_locale

SCREEN = ("de", "en", "es", "fr")


# --- the choice ---------------------------------------------------------------------------


def test_the_command_line_wins_over_the_settings_and_the_system() -> None:
    assert choose_language("de", "fr", "es", SCREEN) == i18n.LanguageChoice("de", "de")


def test_the_settings_win_over_the_system() -> None:
    assert choose_language(None, "fr", "es", SCREEN) == i18n.LanguageChoice("fr", "fr")


def test_the_system_language_is_used_when_nothing_else_says() -> None:
    assert choose_language(None, None, "es", SCREEN) == i18n.LanguageChoice("es", "es")


def test_a_system_language_without_a_translation_falls_back_to_english_quietly() -> None:
    assert choose_language(None, None, "it", SCREEN) == i18n.LanguageChoice("en", "en")
    assert choose_language(None, None, None, SCREEN) == i18n.LanguageChoice("en", "en")


def test_a_chosen_language_without_a_translation_keeps_its_voice_and_says_so_once() -> None:
    choice = choose_language(None, "it", "fr", SCREEN)
    assert (choice.table, choice.screen) == ("it", "en")
    assert choice.notice is not None
    assert "(it)" in choice.notice and "English" in choice.notice


def test_the_settings_language_is_read_only_when_the_file_gives_one(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    assert saved_language(settings) is None  # no file
    settings.write_text(json.dumps({"rate": 170}))
    assert saved_language(settings) is None
    settings.write_text(json.dumps({"lang": " fr "}))
    assert saved_language(settings) == "fr"
    settings.write_text(json.dumps({"lang": 3}))
    assert saved_language(settings) is None
    settings.write_text("{ not json")
    assert saved_language(settings) is None


# --- the system's language ----------------------------------------------------------------


def test_locale_names_give_their_language() -> None:
    assert language_code("fr_FR.UTF-8") == "fr"
    assert language_code("de-DE") == "de"
    assert language_code("es_ES@euro") == "es"
    assert language_code("C.UTF-8") == "en"
    assert language_code("POSIX") == "en"
    assert language_code("") is None


def test_the_environment_is_read_as_gettext_reads_it() -> None:
    env = {"LANG": "es_ES.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"}
    assert system_language(env, "linux") == "fr"
    del env["LC_ALL"]
    assert system_language(env, "linux") == "de"
    del env["LC_MESSAGES"]
    assert system_language(env, "linux") == "es"
    assert system_language({}, "linux") is None


def test_macos_is_asked_only_without_a_locale_in_the_environment() -> None:
    asked: list[str] = []

    def mac() -> str:
        asked.append("asked")
        return "fr_FR"

    assert system_language({"LANG": "de_DE.UTF-8"}, "darwin", mac_locale=mac) == "de"
    assert asked == []
    assert system_language({}, "darwin", mac_locale=mac) == "fr"
    assert system_language({}, "linux", mac_locale=mac) is None  # never asked elsewhere
    assert asked == ["asked"]


def test_apple_locale_reads_defaults_and_survives_its_absence() -> None:
    calls: list[list[str]] = []

    def run(command: list[str], **options: Any) -> SimpleNamespace:
        calls.append(command)
        return SimpleNamespace(returncode=0, stdout="es_ES\n")

    assert apple_locale(run) == "es_ES"
    assert calls == [["defaults", "read", "-g", "AppleLocale"]]

    def missing(command: list[str], **options: Any) -> SimpleNamespace:
        raise FileNotFoundError(2, "No such file", "defaults")

    assert apple_locale(missing) is None
    assert apple_locale(lambda *a, **k: SimpleNamespace(returncode=1, stdout="")) is None


class _Kernel32:
    """A stand-in for `ctypes.windll.kernel32`: writes a locale name into the buffer."""

    def __init__(self, name: str) -> None:
        self.name = name

    def GetUserDefaultLocaleName(self, buffer: Any, size: int) -> int:
        assert size == 85
        buffer.value = self.name
        return len(self.name) + 1


def test_windows_is_asked_for_the_users_locale_name() -> None:
    assert windows_user_locale(_Kernel32("de-DE")) == "de-DE"
    assert system_language({}, "win32", windows_locale=lambda: "es-ES") == "es"
    assert windows_user_locale(_Kernel32("")) is None
    if sys.platform != "win32":
        assert windows_user_locale() is None  # no windll here: no answer, no error
    assert isinstance(ctypes.create_unicode_buffer(1), ctypes.Array)


# --- catalogs ------------------------------------------------------------------------------


def test_every_shipped_language_loads_and_translates() -> None:
    assert i18n.screen_languages() == SCREEN
    for lang, close in (("fr", "Fermer"), ("de", "Schließen"), ("es", "Cerrar")):
        assert i18n.use_language(lang) == lang
        assert i18n._("Close") == close
    assert i18n.use_language("it") == "en"  # no catalog: English
    assert i18n._("Close") == "Close"


def test_plural_forms_follow_each_language() -> None:
    i18n.use_language("fr")  # French: 0 and 1 take the singular
    assert i18n.ngettext("Winner: {names}", "Winners: {names}", 0) == "Gagnant : {names}"
    assert i18n.ngettext("Winner: {names}", "Winners: {names}", 2) == "Gagnants : {names}"
    i18n.use_language("es")  # Spanish: 0 takes the plural
    assert i18n.ngettext("Winner: {names}", "Winners: {names}", 0) == "Ganadores: {names}"
    assert i18n.ngettext("Winner: {names}", "Winners: {names}", 1) == "Ganador: {names}"


def test_a_source_checkout_compiles_a_catalog_once_into_the_cache(tmp_path: Path) -> None:
    first = catalogs.load("fr", tmp_path)
    assert first is not None and first.gettext("Close") == "Fermer"
    (kept,) = (tmp_path / "locale").iterdir()
    kept.write_bytes(compile_po(catalogs.catalog_path("de")))  # proves the cache is read
    again = catalogs.load("fr", tmp_path)
    assert again is not None and again.gettext("Close") == "Schließen"


def test_a_changed_compiler_never_reads_an_earlier_ones_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalogs.load("fr", tmp_path)
    (kept,) = (tmp_path / "locale").iterdir()
    kept.write_bytes(b"what an earlier, broken compiler wrote")
    monkeypatch.setattr(catalogs, "COMPILER_VERSION", catalogs.COMPILER_VERSION + 1)
    loaded = catalogs.load("fr", tmp_path)
    assert loaded is not None and loaded.gettext("Close") == "Fermer"


def test_a_cache_that_cannot_be_written_still_gives_the_catalog(tmp_path: Path) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    loaded = catalogs.load("es", blocked)
    assert loaded is not None and loaded.gettext("Close") == "Cerrar"


def test_the_compiler_leaves_fuzzy_and_untranslated_entries_out(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        '#, fuzzy\nmsgid "Guess"\nmsgstr "Devinette"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        'msgctxt "menu"\nmsgid "Open"\nmsgstr "Ouvrir"\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] "plu"\n"sieurs"\n\n'
        '#~ msgid "Old"\n#~ msgstr "Vieux"\n',
        encoding="utf-8",
    )
    translations = gettext.GNUTranslations(__import__("io").BytesIO(compile_po(po)))
    assert translations.gettext("Guess") == "Guess"
    assert translations.gettext("Empty") == "Empty"
    assert translations.pgettext("menu", "Open") == "Ouvrir"
    assert translations.ngettext("one", "many", 1) == "un"
    assert translations.ngettext("one", "many", 5) == "plusieurs"
    assert translations.gettext("Old") == "Old"


def test_a_broken_catalog_is_a_sentence_with_its_file_and_line(tmp_path: Path) -> None:
    po = tmp_path / "broken.po"
    po.write_text('msgid "a"\nmsgstr "b"\nmsgfoo "c"\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"broken\.po, line 3"):
        read_po(po)


# --- numbers and dates ---------------------------------------------------------------------


def test_numbers_and_dates_follow_the_language() -> None:
    moment = datetime(2026, 12, 1, 20, 5)
    assert (number(5001), number(999), date_and_time(moment)) == (
        "5,001",
        "999",
        "2026-12-01 20:05",
    )
    i18n.use_language("fr")
    assert (number(5001), date_and_time(moment)) == ("5\u202f001", "01/12/2026 20:05")
    i18n.use_language("de")
    assert (number(1234567), date_and_time(moment)) == ("1.234.567", "01.12.2026 20:05")
    i18n.use_language("es")
    assert (number(5001), number(10000)) == ("5001", "10.000")


def test_decimals_follow_the_language() -> None:
    assert (decimal(0.04), decimal(12.36)) == ("0.0", "12.4")
    for lang in ("fr", "de", "es"):
        i18n.use_language(lang)
        assert (decimal(0.04), decimal(12.36), decimal(1.5, 2)) == ("0,0", "12,4", "1,50")


# --- the command line ----------------------------------------------------------------------


def test_lang_is_read_before_parsing() -> None:
    assert lang_given(["--lang", "fr", "history"]) == "fr"
    assert lang_given(["--lang=de", "narrate", "reveal", "--lang", "es"]) == "es"
    assert lang_given(["--lang"]) is None
    assert lang_given([]) is None


def test_help_in_french_with_argparses_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("utilisation : mindflayer")
    assert "options:" in out and "arguments positionnels:" in out
    assert "affiche cette aide et quitte" in out
    assert "affiche les séries passées" in out
    assert "show this help" not in out and "usage:" not in out
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]


def test_argparse_errors_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "de", "narrate"])
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: mindflayer narrate")
    assert "Fehler: diese Argumente fehlen: SPRECHTEXT" in err


def test_unknown_arguments_are_said_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    """`parse_args` words its own refusal (not `parse_known_args`): it was left English."""
    with pytest.raises(SystemExit):
        main(["--lang", "es", "history", "--bogus"])
    assert capsys.readouterr().err.endswith("mindflayer: error: argumentos desconocidos: --bogus\n")


def test_the_settings_language_is_the_commands_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = Path(__import__("os").environ["MINDFLAYER_CONFIG_DIR"])
    (config / "settings.json").write_text(json.dumps({"lang": "es"}))
    assert main(["narrate", "nope"]) == 2
    assert "Guion desconocido 'nope'" in capsys.readouterr().err


def test_the_system_locale_is_the_commands_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert main(["narrate", "reveal", "--players", "4"]) == 2
    assert capsys.readouterr().err.startswith("La révélation yeux fermés se joue à partir de 6")


def test_a_language_without_a_translation_is_english_with_one_notice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--lang", "it", "narrate", "nope"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("notice: The screen has no translation for the table's language (it)")
    assert err[1].startswith("Unknown script 'nope'")


def test_the_installed_command_speaks_french_without_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "moderator", "--lang", "fr"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "le meneur de jeu a besoin d'un terminal" in done.stderr


def test_the_keymap_sentences_follow_the_language() -> None:
    from moderator.tui.app import MindFlayerApp
    from moderator.tui.keymap import KeymapError, parse_keymap

    i18n.use_language("fr")
    with pytest.raises(KeymapError, match="aucune touche ne s'appelle 'nope'"):
        parse_keymap('nope = "x"\n', MindFlayerApp)
    with pytest.raises(KeymapError, match="sur l'écran Table"):
        parse_keymap('next_turn = "k"\n', MindFlayerApp)


def test_a_code_that_is_no_catalogs_name_is_never_a_path(tmp_path: Path) -> None:
    for code in ("../fr", "fr/../de", "", "FR", "en"):
        assert i18n.use_language(code) == "en", code
