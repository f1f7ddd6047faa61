"""Plays a WAV file in a child process that can never write to the terminal.

`aplay` (alsa-utils) runs with stdin, stdout and stderr on /dev/null and in its
own session, so ALSA's complaints never reach the Textual screen and a Ctrl-C
meant for the app is not delivered to it. `stop()` kills the process group at
once. Every wait is bounded by the clip's length plus a grace period, after
which a hanging player is killed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from moderator.narration.speaker import SpeechFault

#: Extra time a player may take beyond the clip's length (device start-up, drain).
GRACE_SECONDS = 2.0

PLAYER_MISSING = (
    "No audio player found: install alsa-utils (sudo apt-get install alsa-utils) "
    "for the voice; showing captions only."
)


class AplayPlayer:
    """One clip at a time through `aplay -q FILE` (or another command)."""

    def __init__(self, command: Sequence[str] = ("aplay", "-q"), grace: float = GRACE_SECONDS):
        self._command = list(command)
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
            self._kill(process)
            raise SpeechFault(
                "player-hang",
                "The audio player stopped responding and was ended; check the sound "
                "settings (aplay -l lists sound cards).",
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
                f"Could not play sound (aplay exited with code {code} after {elapsed:.1f} s): "
                "is a sound card or PulseAudio available? `aplay -l` lists sound cards. "
                "Showing captions only.",
            )

    def stop(self) -> None:
        """Kill the playing child at once (its whole process group)."""
        with self._lock:
            self._stopped = True
            process = self._process
        if process is not None:
            # No wait here: `stop` runs on the UI thread; `play` reaps the child.
            self._kill(process, reap=False)

    @staticmethod
    def _kill(process: subprocess.Popen[bytes], reap: bool = True) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        if reap:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
