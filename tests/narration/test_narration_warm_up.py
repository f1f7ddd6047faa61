"""The speech engine's warm-up waits for the app's first frame; a line asked for never waits.

The synthesis child is a real one (the real worker); the fake part only writes
down when the child started.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

import moderator
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent


def recording_worker(tmp_path: Path) -> tuple[list[str], Path]:
    """The real synthesis child, which first notes that it started in a file."""
    marker = tmp_path / "started"
    script = tmp_path / "recording_worker.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(PACKAGE_ROOT)!r})\n"
        f"open({str(marker)!r}, 'a').write('started\\n')\n"
        "from moderator.narration.speech import synth_worker\nsys.exit(synth_worker.main())\n",
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
def test_a_line_asked_for_before_the_warm_up_does_not_wait_for_it(tmp_path: Path) -> None:
    command, marker = recording_worker(tmp_path)
    speaker = Pyttsx3Synthesizer(tmp_path / "cache", command, warm_up_delay=60.0)
    try:
        clip = speaker.synthesize("Everyone, close your eyes.", "en", 160, 1.0).result(timeout=30)
        assert clip.duration > 0.5
        assert marker.read_text() == "started\n", "one child, started for the line"
    finally:
        speaker.close()
