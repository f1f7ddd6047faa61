"""The speech cache folder and its clips, shared by every synthesis engine.

Each engine keys its clips its own way (`cache_path`), but a cached clip is
recognised the same way for all of them: a WAV header that reads, so a
partial or foreign file is synthesized again rather than played.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import stat
import tempfile
from pathlib import Path

from moderator.narration.audio.wavfile import wav_duration
from moderator.narration.speech.speaker import Clip


def usable_cache(folder: Path) -> Path:
    """`folder`, or the user's private fallback when it cannot be written (read-only home).

    The fallback is one folder per user in the system's temporary folder, the
    same every run, so a laptop with a read-only cache keeps its clips between
    runs and does not gather a new temporary folder per start. Only a fallback
    that is not ours (another user's, a link) makes a one-off private folder.
    """
    if _writable_folder(folder):
        return folder
    fallback = Path(tempfile.gettempdir()) / f"mindflayer-speech-{_user()}"
    with contextlib.suppress(OSError):
        fallback.mkdir(mode=0o700, exist_ok=True)
    if _private_folder(fallback):
        return fallback
    return Path(tempfile.mkdtemp(prefix="mindflayer-speech-"))


def _writable_folder(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return os.access(folder, os.W_OK)
    except OSError:
        return False


def _user() -> str:
    """A name for this user that fits in a file name."""
    if os.name == "posix":
        return str(os.getuid())
    try:
        name = getpass.getuser()
    except Exception:  # no user name in the environment: one shared fallback
        return "user"
    return "".join(c for c in name if c.isalnum() or c in "-_") or "user"


def _private_folder(folder: Path) -> bool:
    """A real folder (not a link) we can write, and on POSIX owned by us alone."""
    try:
        status = folder.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(status.st_mode) or not os.access(folder, os.W_OK):
        return False
    if os.name == "posix":
        return status.st_uid == os.getuid() and not status.st_mode & 0o077
    return True


def cached_clip(text: str, path: Path) -> Clip | None:
    """The clip cached at `path`, or None when it must be synthesized (one header read)."""
    try:
        return Clip(text, wav_duration(path), path)
    except Exception:  # missing, partial or foreign file: synthesize again
        return None
