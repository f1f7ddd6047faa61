"""Where the app keeps its files.

One place decides this so the CLI, the TUI and the tests agree: an explicit
option wins, then an environment variable (the tests set it to a temp dir so a
developer's real data is never touched), then the platform's user directories.

The platform folders are asked for with `appauthor=False`: platformdirs
otherwise nests the app's folder in one named after its author (the app name
again when none is given), which on Windows gave
`...\\AppData\\Local\\mindflayer-moderator\\mindflayer-moderator`. Linux and macOS
never use the author, so their folders are unchanged by it. A Windows laptop that
already has that nested folder keeps using it for its data and settings: nothing
is moved, and the history it holds stays the one the app shows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "mindflayer-moderator"
DATA_DIR_ENV = "MINDFLAYER_DATA_DIR"
CONFIG_DIR_ENV = "MINDFLAYER_CONFIG_DIR"
CACHE_DIR_ENV = "MINDFLAYER_CACHE_DIR"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The folder that holds the score database."""
    dirs = _platform_dirs()
    return _pick(explicit, DATA_DIR_ENV, _kept_where_it_was(dirs, dirs.user_data_dir))


def config_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The folder that holds settings and the user's own voice scripts."""
    dirs = _platform_dirs()
    return _pick(explicit, CONFIG_DIR_ENV, _kept_where_it_was(dirs, dirs.user_config_dir))


def cache_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The folder that holds synthesized speech, safe to delete at any time."""
    return _pick(explicit, CACHE_DIR_ENV, _platform_dirs().user_cache_dir)


def _platform_dirs() -> platformdirs.api.PlatformDirsABC:
    """This platform's user folders for the app, one level deep (no author folder)."""
    return platformdirs.PlatformDirs(APP_NAME, appauthor=False)


def _kept_where_it_was(dirs: platformdirs.api.PlatformDirsABC, folder: str) -> str:
    """On Windows, the nested folder earlier versions wrote to, when it is there."""
    # platformdirs imports its Windows module only where it uses it: not importing it
    # here saves the other platforms ~3 ms of start-up.
    windows = sys.modules.get("platformdirs.windows")
    if windows is None or not isinstance(dirs, windows.Windows):
        return folder
    nested = os.path.join(folder, APP_NAME)
    return nested if os.path.isdir(nested) else folder


def _pick(explicit: str | os.PathLike[str] | None, env: str, default: str) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    from_env = os.environ.get(env)
    if from_env:
        return Path(from_env).expanduser()
    return Path(default)
