"""The speech engine's warm-up waits for the app's first frame; a line asked for never waits.

The synthesis child is a real one (the real worker); the fake part only writes
down when the child started.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import moderator
from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.speech import pyttsx3_synth
from moderator.narration.speech.child_process import spawn
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent


def recording_worker(tmp_path: Path, lose_first_start: bool = False) -> tuple[list[str], Path]:
    """The real synthesis child, which notes in a file that it started and how.

    Each child writes "started", then "ready True" (it serves lines) or
    "ready False <part>" (it refused to start). With `lose_first_start` the
    first child refuses as espeak does when it drops the rate it was given
    (about 1 start in 30, measured: `synth_worker.SettingsLost`), so the app
    starts another one; that is the fault injected, the rest is the real child.
    """
    marker = tmp_path / "started"
    script = tmp_path / "recording_worker.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(PACKAGE_ROOT)!r})\n"
        f"marker = {str(marker)!r}\n"
        "import os\nfirst = not os.path.exists(marker)\n"
        "open(marker, 'a').write('started\\n')\n"
        "from moderator.narration.speech import synth_worker\n"
        "send = synth_worker._send\n"
        "def recording_send(reply, message):\n"
        "    if 'ready' in message:\n"
        "        part = message.get('part', '')\n"
        "        open(marker, 'a').write(f\"ready {message['ready']} {part}\".strip() + '\\n')\n"
        "    send(reply, message)\n"
        "synth_worker._send = recording_send\n"
        f"if first and {lose_first_start!r}:\n"
        "    recording_send(synth_worker._silence_stdio(),\n"
        "                   {'ready': False, 'part': 'retry', 'error': 'rate lost'})\n"
        "    sys.exit(1)\n"
        "sys.exit(synth_worker.main())\n",
        encoding="utf-8",
    )
    return [sys.executable, str(script)], marker


def wait_for_file(path: Path, bound: float) -> bool:
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.usefixtures("speech")
def test_the_engine_warms_up_after_its_delay(tmp_path: Path) -> None:
    command, marker = recording_worker(tmp_path)
    speaker = Pyttsx3Synthesizer(tmp_path / "cache", command, warm_up_delay=1.5)
    try:
        time.sleep(0.5)
        assert not marker.exists(), "the child started before the app had its first frame"
        assert wait_for_file(marker, 20), "the engine never warmed up"
    finally:
        speaker.close()


@pytest.mark.usefixtures("speech")
@pytest.mark.parametrize("lose_first_start", [False, True], ids=["clean-start", "rate-lost"])
def test_a_line_asked_for_before_the_warm_up_does_not_wait_for_it(
    tmp_path: Path, lose_first_start: bool
) -> None:
    """The line starts the one child that serves it, 60 s before any warm-up would.

    A child that refuses to start because espeak lost its rate is replaced at
    once (the line is still spoken, at the right rate): the table notices
    nothing, so such a refusal is allowed, and injected once to prove it.
    What must never happen is a second serving child for one line.
    """
    command, marker = recording_worker(tmp_path, lose_first_start)
    speaker = Pyttsx3Synthesizer(tmp_path / "cache", command, warm_up_delay=60.0)
    try:
        clip = speaker.synthesize("Everyone, close your eyes.", "en", 160, 1.0).result(timeout=30)
        assert clip.duration > 0.5
        records = marker.read_text().splitlines()
        starts = records.count("started")
        served = records.count("ready True")
        refused = records.count("ready False retry")
        assert served == 1, f"one child served the line: {records}"
        assert starts == served + refused, f"every other start was a refusal: {records}"
        if lose_first_start:
            assert refused >= 1, records
    finally:
        speaker.close()


@pytest.mark.usefixtures("speech")
def test_a_muted_narrator_starts_no_speech_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the voice off nothing is said, so no speech child starts (one did, 1 s in).

    A narrator with the voice on, made right after, is the clock: its engine
    warms up after the same delay, so once its child has started the muted
    one's warm-up time has passed too.
    """
    spawned: list[list[str]] = []

    def recording(command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
        spawned.append(list(command))
        return spawn(command, **options)

    # The synthesizer's own name for the real `spawn`: every child it starts.
    monkeypatch.setattr(pyttsx3_synth, "spawn", recording)
    muted = make_narrator(VoiceSettings(enabled=False), None, tmp_path / "muted")
    heard = make_narrator(VoiceSettings(enabled=True), None, tmp_path / "heard")
    try:
        deadline = time.monotonic() + 30
        while not spawned and time.monotonic() < deadline:
            time.sleep(0.02)
        assert spawned, "the narrator with the voice on never warmed up"
        time.sleep(0.5)
        assert len(spawned) == 1, f"the muted narrator started a speech child: {spawned}"
    finally:
        muted.close()
        heard.close()
