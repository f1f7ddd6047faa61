"""`mindflayer narrate --wav TARGET`: what the target is decides how it is written.

A folder, a missing folder or a dangling link is refused before any rendering;
a device node (a `mknod` copy, never the real /dev/null) is written into and
stays a device; `-` streams the WAV on stdout with the captions on stderr.
"""

from __future__ import annotations

import io
import os
import wave
from pathlib import Path

import pytest

from moderator.cli import main
from tests.device_nodes import NULL_DEVICE, assert_same_device, make_device


def test_a_folder_is_refused_before_rendering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_speaker(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing may be rendered for a refused target")

    monkeypatch.setattr("moderator.narration.speech.pyttsx3_synth.Pyttsx3Synthesizer", no_speaker)
    assert main(["narrate", "reveal", "--wav", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"Could not write {tmp_path}: it is a folder" in err
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_an_error_and_no_folder_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "previews" / "reveal.wav"
    assert main(["narrate", "reveal", "--wav", str(target)]) == 1
    assert "does not exist (no folder is created)" in capsys.readouterr().err
    assert not (tmp_path / "previews").exists()


def test_a_dangling_link_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "reveal.wav"
    link.symlink_to(tmp_path / "gone" / "reveal.wav")
    assert main(["narrate", "reveal", "--wav", str(link)]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert link.is_symlink()


def test_a_device_node_is_written_into_and_stays_a_device(
    speech: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    null = make_device(tmp_path, "null", NULL_DEVICE)
    assert main(["narrate", "knockout", "--wav", str(null)]) == 0
    assert_same_device(null, NULL_DEVICE)
    assert f"Wrote {null}" in capsys.readouterr().out
    assert sorted(os.listdir(tmp_path)) == ["null"]


def test_dash_streams_the_wav_on_stdout(
    speech: None, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["narrate", "knockout", "--wav", "-"]) == 0
    out, err = capfdbinary.readouterr()
    with wave.open(io.BytesIO(out), "rb") as wav:
        assert wav.getnchannels() == 1 and wav.getnframes() > 0
    assert b"Eleven" in err and b"Wrote -" in err
