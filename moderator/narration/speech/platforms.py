"""Which speech driver and which audio player each kind of laptop uses.

Tables prop up whatever laptop they have, so the voice must not depend on
Linux packages. pyttsx3 ships a driver per platform: espeak-ng on Linux, the
system voice (NSSS) on macOS, SAPI5 on Windows; each can render a line to a
file, which the app plays with the platform's own player, in a child process
(or, on Windows, the stdlib `winsound`), so `stop()` is immediate everywhere.

The espeak-ng library is looked for only where espeak is the driver. On a
Linux desktop without the system package (`libespeak-ng1`), the
`espeakng-loader` wheel's copy of the library and its data is used instead:
the synthesis child preloads that library (its soname matches what pyttsx3
asks for) and points espeak at the wheel's data folder, so a fresh clone
speaks after `make play` with no apt step.

Checked for real on Linux only. On macOS and Windows the choices are covered by
tests with fakes (tests/narration/test_narration_platforms.py), and synthesis by
pyttsx3's real nsss and sapi5 drivers over stand-in OS layers
(tests/narration/test_platform_drivers.py); the real system voices and players
there have not run. The failure sentences name each platform's own remedy.
"""

from __future__ import annotations

import ctypes
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.i18n import N_, _
from moderator.narration.speech.speaker import SpeechFault

#: The system library's names, tried in order where espeak is the driver.
LIBRARY_NAMES = ("libespeak-ng.so.1", "libespeak-ng.1.dylib", "libespeak.so.1")
#: Linux players in order of preference: ALSA's, then PipeWire's, then PulseAudio's.
LINUX_PLAYERS: tuple[tuple[str, ...], ...] = (("aplay", "-q"), ("pw-play",), ("paplay",))

LIBRARY_MISSING = N_(
    "Speech is off: the espeak-ng library is missing. Reinstall mindflayer (it brings "
    "espeakng-loader) or install it with `sudo apt-get install libespeak-ng1` "
    "(Fedora: espeak-ng). Showing captions only."
)

#: The Python packages pyttsx3 drives each system voice through, and where that voice is set up.
_PLATFORM_VOICE = {
    "sapi5": (
        N_("Windows speech (SAPI5)"),
        N_("comtypes and pywin32"),
        N_("Settings > Time & language > Speech"),
    ),
    "nsss": (
        N_("the macOS system voice"),
        "pyobjc",
        N_("System Settings > Accessibility > Spoken Content > System voice > Manage Voices"),
    ),
}

Which = Callable[[str], str | None]


def library_missing(driver: str) -> str:
    """The sentence for a speech engine whose library or Python packages cannot load."""
    if driver not in _PLATFORM_VOICE:
        return _(LIBRARY_MISSING)
    what, packages, _settings = _PLATFORM_VOICE[driver]
    return _(
        "Speech is off: {voice} cannot be reached ({packages} missing). Reinstall mindflayer "
        "(it brings {packages}). Showing captions only."
    ).format(voice=_(what), packages=_(packages))


def engine_check(driver: str) -> str:
    """What to check when the speech engine does not start, in this platform's terms."""
    if driver not in _PLATFORM_VOICE:
        return _("Check that espeak-ng works (`espeak-ng hello`).")
    what, _packages, settings = _PLATFORM_VOICE[driver]
    return _("Check that {voice} speaks and has a voice ({settings}).").format(
        voice=_(what), settings=_(settings)
    )


def voice_missing(driver: str, voice: str) -> str:
    """The sentence for a language.toml voice this platform's engine does not have."""
    if driver in _PLATFORM_VOICE:
        what, _packages, settings = _PLATFORM_VOICE[driver]
        return _(
            "The speech engine has no voice {voice} (set in a language.toml); "
            "`mindflayer voices` lists the voices it has; {engine} adds voices in {settings}."
        ).format(voice=repr(voice), engine=_(what), settings=_(settings))
    return _(
        "The speech engine has no voice {voice} (set in a language.toml); "
        "`mindflayer voices` lists the voices it has."
    ).format(voice=repr(voice))


def platform_family(system: str = sys.platform) -> str:
    """ "linux", "darwin" or "win32" (BSDs and others are treated as Linux)."""
    if system.startswith("win"):
        return "win32"
    if system == "darwin":
        return "darwin"
    return "linux"


def driver_for(system: str = sys.platform) -> str:
    """pyttsx3's driver for this platform."""
    return {"win32": "sapi5", "darwin": "nsss"}.get(platform_family(system), "espeak")


@dataclass(frozen=True)
class EngineSetup:
    """How the synthesis child starts its engine.

    Attributes:
        driver: pyttsx3 driver name (espeak, nsss, sapi5).
        library: espeak only: a libespeak-ng file to preload (None: the system's).
        data: espeak only: the espeak-ng-data folder that goes with `library`.
        fault: why speech cannot work (the library is missing), or None.
    """

    driver: str
    library: str | None = None
    data: str | None = None
    fault: SpeechFault | None = None

    def worker_arguments(self) -> list[str]:
        """The synthesis child's command-line arguments for this setup."""
        arguments = ["--driver", self.driver]
        if self.library is not None:
            arguments += ["--library", self.library]
        if self.data is not None:
            arguments += ["--data", self.data]
        return arguments


def system_library_present(names: Sequence[str] = LIBRARY_NAMES) -> bool:
    """Whether the system's espeak-ng library loads (cheap: a dlopen, no init)."""
    for name in names:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


def loader_library() -> tuple[str, str] | None:
    """(library, data folder) from the espeakng-loader wheel, when it is installed."""
    try:
        import espeakng_loader

        library = Path(espeakng_loader.get_library_path())
        data = Path(espeakng_loader.get_data_path())
    except Exception:  # not installed, or a broken install: no data folder
        return None
    if not library.is_file() or not data.is_dir():
        return None
    return str(library), str(data)


def engine_setup(
    system: str = sys.platform,
    library_names: Sequence[str] = LIBRARY_NAMES,
    loader: Callable[[], tuple[str, str] | None] = loader_library,
    prefer_loader: bool = False,
) -> EngineSetup:
    """The engine for this platform, with the espeak library it will use.

    Args:
        system: `sys.platform` value.
        library_names: the system library's names (tests pass a missing one).
        loader: where the espeakng-loader wheel's library is.
        prefer_loader: use the wheel's library even when the system has one
            (tests use it to check that path on a machine with both).
    """
    driver = driver_for(system)
    if driver != "espeak":
        return EngineSetup(driver)
    if not prefer_loader and system_library_present(library_names):
        return EngineSetup(driver)
    found = loader()
    if found is not None:
        return EngineSetup(driver, library=found[0], data=found[1])
    return EngineSetup(driver, fault=SpeechFault("library", _(LIBRARY_MISSING), permanent=True))


def player_command(system: str = sys.platform, which: Which = shutil.which) -> list[str] | None:
    """The command that plays a sound file here (None on Windows: `winsound` does)."""
    family = platform_family(system)
    if family == "win32":
        return None
    if family == "darwin":
        return ["afplay"]
    for command in LINUX_PLAYERS:
        if which(command[0]) is not None:
            return list(command)
    return list(LINUX_PLAYERS[0])  # reported as missing by the player itself
