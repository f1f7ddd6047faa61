"""The players' failure sentences, in each platform's own terms.

A Mac has no `apt-get` and a Windows laptop no `aplay`: the sentences of a
missing or failing player come from here, chosen by `platforms.platform_family`,
so no platform is told another's fix (the speech engine's are in `platforms`:
`library_missing`, `engine_check`, `voice_missing`). Each is an English msgid
marked `N_` and translated when it is asked for, in the table's language then.
"""

from __future__ import annotations

import sys

from moderator.i18n import N_, _
from moderator.narration.speech.platforms import platform_family

_PLAYER_MISSING = {
    "linux": N_(
        "voice off: no audio player found. Install alsa-utils (aplay), pipewire (pw-play) "
        "or pulseaudio-utils (paplay); showing captions only."
    ),
    "darwin": N_("voice off: macOS's audio player (afplay) was not found; showing captions only."),
    "win32": N_(
        "voice off: this Python has no `winsound` module; reinstall Python from python.org. "
        "Showing captions only."
    ),
}
_SOUND_CHECK = {
    "linux": N_("Is a sound card or PulseAudio available? `aplay -l` lists sound cards."),
    "darwin": N_("Check the output device in System Settings > Sound."),
    "win32": N_("Check the output device in Settings > System > Sound."),
}


def player_missing(system: str | None = None) -> str:
    """The sentence for a platform (default: this one) without its audio player."""
    return _(_PLAYER_MISSING[platform_family(system or sys.platform)])


def sound_check(system: str | None = None) -> str:
    """How to check the sound output of a platform (default: this one)."""
    return _(_SOUND_CHECK[platform_family(system or sys.platform)])
