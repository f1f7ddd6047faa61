"""Where the app's folders land on each platform (moderator/paths.py).

Windows is run with platformdirs' own Windows implementation; only the shell's
folder lookup (which needs Windows) is stood in by a fixed profile.
"""

from __future__ import annotations

import re
from pathlib import Path

import platformdirs
import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from moderator import paths

_PROFILE = {
    "CSIDL_APPDATA": r"C:\Users\ann\AppData\Roaming",
    "CSIDL_LOCAL_APPDATA": r"C:\Users\ann\AppData\Local",
}


@pytest.fixture
def no_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the conftest's folder variables, so the platform's folders are used."""
    for env in (paths.DATA_DIR_ENV, paths.CONFIG_DIR_ENV, paths.CACHE_DIR_ENV):
        monkeypatch.delenv(env, raising=False)


def test_on_windows_the_app_folder_is_named_once(
    no_overrides: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without `appauthor=False` Windows got `...\\mindflayer-moderator\\mindflayer-moderator`."""
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", _PROFILE.__getitem__)
    found = {
        "data": str(paths.data_dir()),
        "config": str(paths.config_dir()),
        "cache": str(paths.cache_dir()),
    }
    # platformdirs joins with the running system's separator: compare the parts.
    parts = {name: re.split(r"[\\/]", folder) for name, folder in found.items()}
    local = _PROFILE["CSIDL_LOCAL_APPDATA"].split("\\")
    assert parts["data"] == [*local, "mindflayer-moderator"]
    assert parts["config"] == [*local, "mindflayer-moderator"]
    assert parts["cache"] == [*local, "mindflayer-moderator", "Cache"]


def test_a_windows_laptop_keeps_the_nested_folder_it_already_has(
    no_overrides: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The history written under the doubled name stays the one the app opens."""
    local = tmp_path / "Local"
    nested = local / "mindflayer-moderator" / "mindflayer-moderator"
    nested.mkdir(parents=True)
    (nested / "mindflayer.sqlite3").write_bytes(b"a history")
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", lambda _name: str(local))
    assert paths.data_dir() == nested
    assert paths.config_dir() == nested
    assert paths.cache_dir() == local / "mindflayer-moderator" / "Cache"


def test_the_nested_folder_rule_is_for_windows_only(
    no_overrides: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "mindflayer-moderator" / "mindflayer-moderator").mkdir(parents=True)
    assert paths.data_dir() == tmp_path / "mindflayer-moderator"


def test_linux_folders_are_the_ones_earlier_versions_used(
    no_overrides: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No migration on Linux: the XDG folders are exactly where data already is."""
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    for env in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(env, raising=False)
    _home(monkeypatch, tmp_path)
    assert paths.data_dir() == tmp_path / ".local/share/mindflayer-moderator"
    assert paths.config_dir() == tmp_path / ".config/mindflayer-moderator"
    assert paths.cache_dir() == tmp_path / ".cache/mindflayer-moderator"


def test_macos_folders_hold_the_app_name_once(
    no_overrides: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    _home(monkeypatch, tmp_path)
    support = tmp_path / "Library/Application Support/mindflayer-moderator"
    assert paths.data_dir() == support
    assert paths.config_dir() == support
    assert paths.cache_dir() == tmp_path / "Library/Caches/mindflayer-moderator"


def test_an_option_wins_over_the_variable_and_the_variable_over_the_platform(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(tmp_path / "from-env"))
    assert paths.data_dir(tmp_path / "explicit") == tmp_path / "explicit"
    assert paths.data_dir() == tmp_path / "from-env"


def _home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Point `~` at `home` (HOME; USERPROFILE when the suite runs on Windows)."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
