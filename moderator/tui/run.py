"""Builds the app on its folders (`make_app`) and starts it from the command line.

`make_app` is shared by `run_app` and the tests: it injects the store, the
narrator and the folders, so a test runs the real app on temp folders.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from moderator import paths
from moderator.i18n import _
from moderator.i18n.choice import LanguageChoice
from moderator.i18n.refusals import refusal
from moderator.storage import StorageError, Store
from moderator.storage.errors import told
from moderator.table.config import load_settings
from moderator.table.controller import TableController
from moderator.table.language import choose_table_language, speaking
from moderator.table.ports import NarratorLike, StoreLike
from moderator.table.voice import DeferredNarrator, build_narrator
from moderator.tui.app import MindFlayerApp
from moderator.tui.keymap import load_keymap
from moderator.tui.terminal_giveback import terminal_given_back


def make_app(
    data_dir: Path,
    config_dir: Path,
    cache_dir: Path,
    voice_scripts_dir: Path | None,
    narrator: NarratorLike | None = None,
    store: StoreLike | None = None,
    lang: str | None = None,
    language: LanguageChoice | None = None,
) -> MindFlayerApp:
    """Build the app on these folders; raises StorageError if the database can't open.

    Args:
        data_dir: folder of the score database.
        config_dir: folder of settings.json.
        cache_dir: folder of synthesized speech.
        voice_scripts_dir: user voice scripts overriding the shipped ones, if any.
        narrator: a ready narrator (tests pass one with a small time scale).
        store: a ready store (otherwise `Store.open(data_dir)`).
        lang: the table's language for this run (`--lang`), over the settings' and the system's.
        language: the table's language as the command line already chose it (and put
            the screen in), so a start does not choose it twice; None: chosen here.
    """
    if language is None:
        language = choose_table_language(config_dir, lang)
    # After the language is chosen: the settings file's warnings are in the table's words.
    settings, settings_notice = load_settings(config_dir)
    settings = speaking(settings, language)
    keymap, keymap_notice = load_keymap(config_dir, MindFlayerApp)
    if store is None:
        # Its integrity check runs a moment after the first frame (`moderator.tui.start_up`).
        store = Store.open(data_dir, check_integrity=False)
    if narrator is None:
        # Built after the first frame, off the UI thread (see `DeferredNarrator`).
        narrator = DeferredNarrator(lambda: build_narrator(settings, voice_scripts_dir, cache_dir))
    notices = [told(notice) for notice in store.notices]  # in the table's language
    notices += [notice for notice in (settings_notice, keymap_notice, language.notice) if notice]
    controller = TableController(store, narrator, settings, config_dir, data_dir)
    app = MindFlayerApp(controller, notices)
    app.use_keymap(keymap)
    return app


def build_app(args: argparse.Namespace) -> MindFlayerApp:
    """The app on the command line's folders, as `run_app` starts it (the bench uses it too).

    Raises:
        StorageError: the database cannot be opened (newer version, in use, unwritable).
    """
    voice_scripts = getattr(args, "voice_scripts", None)
    return make_app(
        data_dir=paths.data_dir(getattr(args, "data_dir", None)),
        config_dir=paths.config_dir(),
        cache_dir=paths.cache_dir(),
        voice_scripts_dir=Path(voice_scripts).expanduser() if voice_scripts else None,
        lang=getattr(args, "table_lang", None),
        language=getattr(args, "table_language", None),
    )


def run_app(args: argparse.Namespace) -> int:
    """Run the app until the table quits.

    A database that cannot be opened (newer version, already in use, unwritable)
    is reported as its sentence and a non-zero exit, never as a traceback. The
    garbage collector the command paused for the start-up is on again when this
    returns, whatever happened (the app resumes it after its first frame).
    """
    try:
        try:
            app = build_app(args)
        except StorageError as error:
            print(_("mindflayer: {error}").format(error=refusal(error)), file=sys.stderr)
            return 1
        with terminal_given_back(app):  # SIGTERM, SIGHUP: the app exits its own way
            app.run()
        return 0 if app.return_code in (None, 0) else app.return_code
    finally:
        gc.enable()
