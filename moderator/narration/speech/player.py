"""Plays a WAV file in a child process that can never write to the terminal.

The player (`aplay`, `pw-play` or `paplay` on Linux, `afplay` on macOS; see
`platforms.player_command`) runs with stdin, stdout and stderr on /dev/null and in its
own session, so ALSA's complaints never reach the Textual screen and a Ctrl-C
meant for the app is not delivered to it. `stop()` kills the process group at
once. Every wait is bounded by the clip's length plus a grace period, after
which a hanging player is killed.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Protocol

from moderator.narration.speech.child_process import end_child, kill_group
from moderator.narration.speech.platforms import PLAYER_MISSING, Which, player_command
from moderator.narration.speech.speaker import SpeechFault

#: Extra time a player may take beyond the clip's length (device start-up, drain).
GRACE_SECONDS = 2.0


class Player(Protocol):
    """Plays one clip at a time; `stop` is immediate and thread-safe."""

    def available(self) -> SpeechFault | None:
        """A fault when the player cannot work here at all."""
        ...

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        """Play `path`, call `on_start` as it starts, return when it ends (bounded)."""
        ...

    def stop(self) -> None:
        """Silence at once."""
        ...


def platform_player(system: str = sys.platform, which: Which = shutil.which) -> Player:
    """The platform's own player: see `platforms.player_command`."""
    command = player_command(system, which)
    if command is None:
        return WinsoundPlayer()
    return CommandPlayer(command)


class CommandPlayer:
    """One clip at a time through `aplay -q FILE` (or another player command)."""

    def __init__(self, command: Sequence[str] = ("aplay", "-q"), grace: float = GRACE_SECONDS):
        self._command = list(command)
        self._name = Path(self._command[0]).name
        self._grace = grace
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._stopped = False

    def available(self) -> SpeechFault | None:
        """A fault when the player program is not installed."""
        if shutil.which(self._command[0]) is None:
            return SpeechFault("player", PLAYER_MISSING, permanent=True)
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        """Play `path` and return when it ends, or at once after `stop()`.

        Raises:
            SpeechFault: player missing, exited with an error (no sound device),
                or still running after `duration + grace` (then it is killed).
        """
        with self._lock:
            self._stopped = False
            try:
                process = subprocess.Popen(
                    [*self._command, str(path)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    close_fds=True,
                )
            except OSError as error:
                raise SpeechFault("player", f"{PLAYER_MISSING} ({error})", True) from error
            self._process = process
        on_start()
        started = time.monotonic()
        try:
            code = process.wait(timeout=duration + self._grace)
        except subprocess.TimeoutExpired:
            end_child(process)
            raise SpeechFault(
                "player-hang",
                f"The audio player ({self._name}) stopped responding and was ended; "
                "check the sound settings.",
            ) from None
        finally:
            with self._lock:
                if self._process is process:
                    self._process = None
        with self._lock:
            stopped = self._stopped
        if code != 0 and not stopped:
            elapsed = time.monotonic() - started
            raise SpeechFault(
                "device",
                f"voice off: no sound device ({self._name} exited with code {code} after "
                f"{elapsed:.1f} s). Is a sound card or PulseAudio available? `aplay -l` "
                "lists sound cards. Showing captions only.",
            )

    def stop(self) -> None:
        """Kill the playing child at once (its whole process group)."""
        with self._lock:
            self._stopped = True
            process = self._process
        if process is not None:
            # No wait here: `stop` runs on the UI thread; `play` reaps the child.
            kill_group(process)


#: The old name, kept for callers that build an aplay player explicitly.
AplayPlayer = CommandPlayer


class WinsoundPlayer:
    """Windows: the stdlib `winsound`, asynchronous so `stop` can cut it.

    Untested on a real Windows machine here; the tests drive it with a fake
    `winsound` module (what is called, and that waits end).
    """

    def __init__(self, sound: ModuleType | None = None, grace: float = GRACE_SECONDS) -> None:
        self._sound = sound
        self._grace = grace
        self._stopped = threading.Event()

    def _module(self) -> ModuleType:
        if self._sound is None:
            import winsound  # type: ignore[import-not-found,unused-ignore]

            self._sound = winsound
        return self._sound

    def available(self) -> SpeechFault | None:
        """A fault when `winsound` is missing (not Windows)."""
        try:
            self._module()
        except ImportError:
            return SpeechFault("player", PLAYER_MISSING, permanent=True)
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        """Start the sound, then wait its length (or until `stop`)."""
        sound = self._module()
        self._stopped.clear()
        try:
            sound.PlaySound(str(path), sound.SND_FILENAME | sound.SND_ASYNC)
        except RuntimeError as error:
            raise SpeechFault(
                "device", f"voice off: no sound device ({error}). Showing captions only."
            ) from error
        on_start()
        self._stopped.wait(duration)

    def stop(self) -> None:
        """Cut the sound at once."""
        self._stopped.set()
        if self._sound is not None:
            with contextlib.suppress(RuntimeError):
                self._sound.PlaySound(None, 0)
