"""Players: each plays a clip's WAV file and nothing else, one per kind of platform.

A player never synthesizes (that is a synthesizer's job, `synthesizer`). It plays
in a child process that can never write to the terminal.

The player (`aplay`, `pw-play` or `paplay` on Linux, `afplay` on macOS; see
`platforms.player_command`) runs with stdout and stderr on /dev/null and in its
own process group, so ALSA's complaints never reach the Textual screen and a
Ctrl-C meant for the app is not delivered to it. It runs under the lifeline
(`child_process.LIFELINE`), so it ends with the app, even after `kill -9`.
`stop()` ends it at once. Every wait is bounded by the clip's length plus a
grace period, after which a hanging player is killed.
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
from typing import IO, Protocol

from moderator.i18n import _, numbers
from moderator.narration.speech.child_process import (
    NOT_FOUND,
    end_child,
    lifeline_command,
    spawn,
)
from moderator.narration.speech.platforms import Which, player_command
from moderator.narration.speech.remedies import player_missing, sound_check
from moderator.narration.speech.speaker import SpeechFault

#: Extra time a player may take beyond the clip's length (device start-up, drain;
#: measured well under 0.3 s with ALSA and PulseAudio). Past it the player is hung:
#: ended and told within a second of the clip's end (it was 2 s, on every line).
GRACE_SECONDS = 0.75
#: How long the lifeline may take to end its player before both are killed.
LIFELINE_BOUND = 1.0


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
    return CommandPlayer(command, system=system)


class CommandPlayer:
    """One clip at a time through `aplay -q FILE` (or another player command)."""

    def __init__(
        self,
        command: Sequence[str] = ("aplay", "-q"),
        grace: float = GRACE_SECONDS,
        system: str = sys.platform,
    ) -> None:
        """Play with `command` + the file; `system` picks the remedies the messages name."""
        self._command = list(command)
        self._system = system
        self._name = Path(self._command[0]).name
        self._grace = grace
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._stopped = False

    def available(self) -> SpeechFault | None:
        """A fault when the player program is not installed."""
        if shutil.which(self._command[0]) is None:
            return SpeechFault("player", player_missing(self._system), permanent=True)
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
                process = spawn(lifeline_command([*self._command, str(path)]))
            except OSError as error:
                missing = player_missing(self._system)
                raise SpeechFault("player", f"{missing} ({error})", True) from error
            self._process = process
        on_start()
        started = time.monotonic()
        try:
            code = process.wait(timeout=duration + self._grace)
        except subprocess.TimeoutExpired:
            _end(process)
            raise SpeechFault(
                "player-hang",
                _(
                    "The audio player ({player}) stopped responding and was ended; "
                    "check the sound settings."
                ).format(player=self._name),
            ) from None
        finally:
            with self._lock:
                if self._process is process:
                    self._process = None
        with self._lock:
            stopped = self._stopped
        _close(process.stdin)
        if code == NOT_FOUND and not stopped:
            raise SpeechFault("player", player_missing(self._system), permanent=True)
        if code != 0 and not stopped:
            elapsed = time.monotonic() - started
            raise SpeechFault(
                "device",
                _(
                    "voice off: no sound device ({player} exited with code {code} after "
                    "{seconds} s). {check} Showing captions only."
                ).format(
                    player=self._name,
                    code=code,
                    seconds=numbers.decimal(elapsed),
                    check=sound_check(self._system),
                ),
            )

    def stop(self) -> None:
        """End the playing child at once: its lifeline reads end-of-file and kills it."""
        with self._lock:
            self._stopped = True
            process = self._process
        if process is not None:
            # No wait here: `stop` runs on the UI thread; `play` reaps the lifeline,
            # and the lifeline its player (a killed group would leave it to init).
            _close(process.stdin)


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
            return SpeechFault("player", player_missing("win32"), permanent=True)
        return None

    def play(self, path: Path, duration: float, on_start: Callable[[], None]) -> None:
        """Start the sound, then wait its length (or until `stop`)."""
        sound = self._module()
        self._stopped.clear()
        try:
            sound.PlaySound(str(path), sound.SND_FILENAME | sound.SND_ASYNC)
        except RuntimeError as error:
            raise SpeechFault(
                "device",
                _("voice off: no sound device ({error}). {check} Showing captions only.").format(
                    error=error, check=sound_check("win32")
                ),
            ) from error
        on_start()
        self._stopped.wait(duration)

    def stop(self) -> None:
        """Cut the sound at once."""
        self._stopped.set()
        if self._sound is not None:
            with contextlib.suppress(RuntimeError):
                self._sound.PlaySound(None, 0)


def _close(stream: IO[bytes] | None) -> None:
    """Close a child's pipe; a pipe already closed (or broken) is fine."""
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


def _end(process: subprocess.Popen[bytes]) -> None:
    """End a player in order (its lifeline kills and reaps it); killed outright if that hangs."""
    _close(process.stdin)
    try:
        process.wait(timeout=LIFELINE_BOUND)
    except subprocess.TimeoutExpired:
        end_child(process)
