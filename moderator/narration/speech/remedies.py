"""The sentences that tell the table how to fix speech, in each platform's own terms.

A Mac has no `apt-get` and a Windows laptop no `aplay`: every failure sentence
that names a remedy comes from here, chosen by `platforms.platform_family`, so
no platform is told another's fix.
"""

from __future__ import annotations

import sys

from moderator.narration.speech.platforms import platform_family

_ENGINE_CHECK = {
    "linux": "Check that espeak-ng works (`espeak-ng hello` in a terminal).",
    "darwin": "Check that the Mac's own voice works (`say hello` in Terminal).",
    "win32": "Check that Windows speech works (Settings > Time & language > Speech).",
}
_PLAYER_MISSING = {
    "linux": (
        "voice off: no audio player found. Install alsa-utils (aplay), pipewire (pw-play) "
        "or pulseaudio-utils (paplay); showing captions only."
    ),
    "darwin": "voice off: macOS's audio player (afplay) was not found; showing captions only.",
    "win32": (
        "voice off: this Python has no `winsound` module; reinstall Python from python.org. "
        "Showing captions only."
    ),
}
_SOUND_CHECK = {
    "linux": "Is a sound card or PulseAudio available? `aplay -l` lists sound cards.",
    "darwin": "Check the output device in System Settings > Sound.",
    "win32": "Check the output device in Settings > System > Sound.",
}


#: The platform each pyttsx3 driver speaks on.
_DRIVER_PLATFORM = {"espeak": "linux", "nsss": "darwin", "sapi5": "win32"}


def engine_check(driver: str) -> str:
    """How to check that the speech engine behind pyttsx3's `driver` works."""
    return _ENGINE_CHECK[_DRIVER_PLATFORM.get(driver, "linux")]


def player_missing(system: str | None = None) -> str:
    """The sentence for a platform (default: this one) without its audio player."""
    return _PLAYER_MISSING[platform_family(system or sys.platform)]


def sound_check(system: str | None = None) -> str:
    """How to check the sound output of a platform (default: this one)."""
    return _SOUND_CHECK[platform_family(system or sys.platform)]
