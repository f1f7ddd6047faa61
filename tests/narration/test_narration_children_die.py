"""The app's children die with the app, even after `kill -9` of the app (issue 15, item 5).

For real: a narrator runs in a child process with the real synthesis child
(pyttsx3 on espeak-ng) and a player standing in for a long span (a program that
plays for ten minutes). Both children connect to a socket this test listens
on, so each one's death is an event here: its end of the connection closes.
The narrator's process is killed with SIGKILL (Popen.kill) during the span,
and each child must be gone within a bound.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import moderator

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent
#: Generous bounds for a loaded machine; the children end in milliseconds.
START_BOUND = 60.0
DEATH_BOUND = 10.0

#: Tells the test it started (its name on the socket), then keeps the connection.
_CONNECT = (
    "import os, socket, sys\n"
    "link = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
    "link.sendall(f'{sys.argv[2]} {os.getpid()}\\n'.encode())\n"
)
#: "Plays" for ten minutes (a long span on a slow device).
_PLAYER = _CONNECT + "import time\ntime.sleep(600)\n"
#: The real synthesis child, after connecting.
_WORKER = (
    _CONNECT + f"sys.path.insert(0, {str(PACKAGE_ROOT)!r})\n"
    "sys.argv[1:3] = []\n"
    "from moderator.narration.speech import synth_worker\n"
    "sys.exit(synth_worker.main())\n"
)
#: The narrator's process: plays the reveal (its eyes-closed span) and waits to be killed.
_NARRATOR = f"""
import sys, threading
sys.path.insert(0, {str(PACKAGE_ROOT)!r})
from moderator.narration.narrator import Narrator
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.players import CommandPlayer
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

port, folder, engine = sys.argv[1], sys.argv[2], sys.argv[3]
python = sys.executable
synthesizer = Pyttsx3Synthesizer(
    folder, [python, folder + "/worker.py", port, "worker"], warm=False
)
player = CommandPlayer([python, folder + "/player.py", port, "player"])


def piper(cache):
    from moderator.narration.speech.neural_voice import find_neural_voice, piper_command
    from moderator.narration.speech.piper_synth import PiperSynthesizer

    voice = find_neural_voice()
    real = piper_command(voice, 1.0, Path(folder))
    command = [python, folder + "/piper_child.py", port, "piper", *real[3:]]
    return PiperSynthesizer(cache, voice, command=command)


from pathlib import Path
speaker = ChoosingSpeaker(synthesizer, folder, player=player, neural_factory=piper)
settings = VoiceSettings(english_engine=engine)
narrator = Narrator(settings, ScriptLibrary.load(None), speaker)
narrator.play("reveal", {{"seconds": 5}}, lambda event: None)
threading.Event().wait()
"""
#: Piper's own command line, after connecting.
_PIPER = (
    _CONNECT + "import runpy\nsys.argv[1:3] = []\nrunpy.run_module('piper', run_name='__main__')\n"
)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(START_BOUND)
    yield server
    server.close()


def _accept(server: socket.socket, count: int) -> dict[str, tuple[socket.socket, int]]:
    """The first `count` children to connect (their link and pid), by the name each sent."""
    links: dict[str, tuple[socket.socket, int]] = {}
    while len(links) < count:
        link, _ = server.accept()
        link.settimeout(START_BOUND)
        name = b""
        while not name.endswith(b"\n"):
            chunk = link.recv(64)
            assert chunk, "a child hung up before saying who it is"
            name += chunk
        child, pid = name.decode().split()
        links[child] = (link, int(pid))
    return links


def _kill_the_app_during_the_span(
    tmp_path: Path, listener: socket.socket, engine: str, children: set[str]
) -> None:
    """Start the narrator's process, wait for `children`, SIGKILL it, check each child ends."""
    (tmp_path / "player.py").write_text(_PLAYER, encoding="utf-8")
    (tmp_path / "worker.py").write_text(_WORKER, encoding="utf-8")
    (tmp_path / "piper_child.py").write_text(_PIPER, encoding="utf-8")  # not piper.py
    (tmp_path / "narrator.py").write_text(_NARRATOR, encoding="utf-8")
    port = str(listener.getsockname()[1])
    app = subprocess.Popen(
        [sys.executable, str(tmp_path / "narrator.py"), port, str(tmp_path), engine],
        stdin=subprocess.DEVNULL,
    )
    survivors: list[int] = []
    try:
        links = _accept(listener, len(children))  # synthesized; the player plays the span
        assert set(links) == children
        app.kill()  # SIGKILL on POSIX: no handler, no atexit, nothing of the app runs
        app.wait(timeout=DEATH_BOUND)
        for name, (link, pid) in links.items():
            link.settimeout(DEATH_BOUND)
            try:
                gone = link.recv(1) == b""
            except TimeoutError:
                gone = False
                survivors.append(pid)
            assert gone, f"the {name} child outlived the app by more than {DEATH_BOUND} s"
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(timeout=DEATH_BOUND)
        for pid in survivors:  # a failed run leaves nothing behind
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)


def test_player_and_synthesis_child_die_with_a_killed_app(
    speech: None, tmp_path: Path, listener: socket.socket
) -> None:
    _kill_the_app_during_the_span(tmp_path, listener, "espeak", {"worker", "player"})


@pytest.mark.neural
def test_the_piper_child_dies_with_a_killed_app(tmp_path: Path, listener: socket.socket) -> None:
    from moderator.narration.speech.neural_voice import neural_problem

    reason = neural_problem()
    if reason is not None:
        pytest.skip(f"the neural extra is not installed: {reason}")
    _kill_the_app_during_the_span(tmp_path, listener, "piper", {"piper", "player"})
