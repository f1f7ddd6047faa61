"""The language the computer is set to: the terminal's locale, else the OS setting.

The environment comes first (`LC_ALL` > `LC_MESSAGES` > `LANG`, as gettext reads
them): whoever set it in a terminal meant it. Without it, macOS and Windows keep
the user's language in the OS itself, asked only inside their own platform's
branch (`defaults read -g AppleLocale`; `GetUserDefaultLocaleName`, since
`locale.getdefaultlocale` is deprecated). The OS calls are parameters, so the
tests run each platform's code on any platform with a stand-in for the call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

#: The environment variables that name the language of messages, strongest first.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
#: The locales that mean "no translation" (gettext shows the msgids: English).
UNTRANSLATED = frozenset({"c", "posix"})
#: Windows' longest locale name (LOCALE_NAME_MAX_LENGTH).
LOCALE_NAME_MAX_LENGTH = 85
#: How long `defaults` may take to answer (it is a separate program).
DEFAULTS_TIMEOUT = 2.0


def language_code(locale_name: str) -> str | None:
    """The language part of a locale name: "fr_FR.UTF-8", "fr-FR", "fr" are all "fr".

    "C" and "POSIX" are English (the untranslated messages); "" is no answer.
    """
    name = locale_name.strip().partition(".")[0].partition("@")[0]
    code = name.replace("-", "_").partition("_")[0].lower()
    if not code:
        return None
    return "en" if code in UNTRANSLATED else code


def system_language(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    mac_locale: Callable[[], str | None] | None = None,
    windows_locale: Callable[[], str | None] | None = None,
) -> str | None:
    """The computer's language code ("fr"), or None when nothing says.

    Args:
        environ: the environment (default `os.environ`).
        platform: `sys.platform` (a test passes "darwin" or "win32").
        mac_locale: asks macOS (default `apple_locale`).
        windows_locale: asks Windows (default `windows_user_locale`).
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            return language_code(value)
    answer: str | None = None
    if platform == "darwin":
        answer = (mac_locale or apple_locale)()
    elif platform == "win32":
        answer = (windows_locale or windows_user_locale)()
    return language_code(answer) if answer else None


def apple_locale(run: Callable[..., Any] | None = None) -> str | None:
    """macOS's language setting ("fr_FR"), or None if `defaults` cannot say.

    Args:
        run: `subprocess.run` (the default); a test passes a stand-in. Imported
            only here: every start asks for the language, and only macOS runs this.
    """
    import subprocess

    run = subprocess.run if run is None else run
    try:
        done = run(
            ["defaults", "read", "-g", "AppleLocale"],
            capture_output=True,
            text=True,
            timeout=DEFAULTS_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    output = str(done.stdout or "").strip()
    return output if done.returncode == 0 and output else None


def windows_user_locale(kernel32: Any = None) -> str | None:
    """Windows' user locale ("fr-FR"), or None if it cannot say.

    Args:
        kernel32: `ctypes.windll.kernel32` (read only on Windows); a test passes a stand-in.
    """
    import ctypes

    if kernel32 is None:
        if sys.platform != "win32":
            return None
        kernel32 = ctypes.windll.kernel32
    buffer = ctypes.create_unicode_buffer(LOCALE_NAME_MAX_LENGTH)
    try:
        written = kernel32.GetUserDefaultLocaleName(buffer, LOCALE_NAME_MAX_LENGTH)
    except OSError:
        return None
    return str(buffer.value) if written and buffer.value else None
