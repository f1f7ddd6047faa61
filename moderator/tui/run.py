"""Starts the TUI from the command line."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from moderator import paths
from moderator.storage import StorageError
from moderator.tui.app import MindFlayerApp, make_app


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
            print(f"mindflayer: {error}", file=sys.stderr)
            return 1
        app.run()
        return 0 if app.return_code in (None, 0) else app.return_code
    finally:
        gc.enable()
