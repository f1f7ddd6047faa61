"""The platforms' sound files, read as the app's mono 16-bit WAV.

Files come from a real writer (SoX, which writes WAVE_FORMAT_EXTENSIBLE for
24-bit stereo and a COMT chunk before COMM in AIFF) and are compared with
SoX's own conversion of the same file; AIFF-C `sowt` and a compressed AIFF-C
are built by hand, byte by byte, as Apple documents the layout.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import wave
from pathlib import Path

import pytest
from standins.cocoa import aiff

from moderator.narration.audio.wavfile import read_pcm
from moderator.narration.speech.platform_audio import convert_to_wav, read_platform_audio

needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="SoX writes the test files")


def _sox(*arguments: str) -> None:
    subprocess.run(["sox", *arguments], check=True, capture_output=True)


@needs_sox
@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("extensible.wav", ["-r", "48000", "-b", "24", "-c", "2"]),
        ("thirty-two.wav", ["-r", "16000", "-b", "32", "-c", "1"]),
        ("eight.wav", ["-r", "11025", "-b", "8", "-c", "1", "-e", "unsigned-integer"]),
        ("mac.aiff", ["-r", "22050", "-b", "16", "-c", "1"]),
        ("stereo.aifc", ["-r", "44100", "-b", "16", "-c", "2"]),
        ("deep.aiff", ["-r", "24000", "-b", "24", "-c", "1"]),
    ],
)
def test_platform_files_match_soxs_own_conversion(
    tmp_path: Path, name: str, layout: list[str]
) -> None:
    source = tmp_path / name
    _sox("-n", *layout, str(source), "synth", "0.4", "sine", "300", "sine", "500", "vol", "0.5")
    reference = tmp_path / "reference.wav"
    _sox("-D", str(source), "-b", "16", "-c", "1", "-e", "signed-integer", str(reference))
    out = tmp_path / "app.wav"
    seconds = convert_to_wav(source, out)
    got, expected = read_pcm(out), read_pcm(reference)
    assert got.rate == expected.rate and len(got.samples) == len(expected.samples)
    assert abs(seconds - 0.4) < 0.001
    worst = max(abs(a - b) for a, b in zip(got.samples, expected.samples, strict=True))
    assert worst <= 2, worst  # SoX rounds where this truncates: within 2 of 32768


@needs_sox
def test_pythons_own_wave_refuses_what_is_read_here(tmp_path: Path) -> None:
    """Why this module exists: `wave` on 3.11 rejects the EXTENSIBLE header outright."""
    source = tmp_path / "extensible.wav"
    _sox("-n", "-r", "48000", "-b", "24", "-c", "2", str(source), "synth", "0.1", "sine", "300")
    assert struct.unpack("<H", source.read_bytes()[20:22]) == (0xFFFE,)
    if sys.version_info < (3, 12):  # 3.12 learned EXTENSIBLE PCM
        with pytest.raises(wave.Error, match="unknown format: 65534"):
            wave.open(str(source), "rb")  # noqa: SIM115 - it raises before opening
    assert read_platform_audio(source).rate == 48000


def _aifc(kind: bytes, frames: bytes, count: int) -> bytes:
    """An AIFF-C file with compression `kind` (COMM's extra fields, as Apple lays them out)."""
    plain = aiff(b"", 22050, 1)
    rate = plain[plain.index(b"COMM") + 16 : plain.index(b"COMM") + 26]
    comm = struct.pack(">hIh", 1, count, 16) + rate + kind + b"\x00\x00"
    ssnd = struct.pack(">II", 0, 0) + frames
    body = b"AIFC" + b"COMM" + struct.pack(">I", len(comm)) + comm
    body += b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    return b"FORM" + struct.pack(">I", len(body)) + body


def test_little_endian_aifc_sowt_is_read(tmp_path: Path) -> None:
    samples = [0, 1000, -1000, 32767, -32768]
    source = tmp_path / "sowt.aifc"
    source.write_bytes(_aifc(b"sowt", struct.pack(f"<{len(samples)}h", *samples), len(samples)))
    pcm = read_platform_audio(source)
    assert (pcm.rate, list(pcm.samples)) == (22050, samples)


def test_unreadable_files_are_told_by_name(tmp_path: Path) -> None:
    compressed = tmp_path / "ulaw.aifc"
    compressed.write_bytes(_aifc(b"ulaw", b"\x00" * 10, 10))
    with pytest.raises(ValueError, match=r"ulaw\.aifc: AIFF-C compression 'ulaw' is not PCM"):
        read_platform_audio(compressed)
    text = tmp_path / "notes.wav"
    text.write_text("not audio", encoding="utf-8")
    with pytest.raises(ValueError, match=r"notes\.wav: not a WAV or AIFF file"):
        read_platform_audio(text)
    empty = tmp_path / "empty.aiff"
    empty.write_bytes(aiff(b"", 22050, 1))
    with pytest.raises(ValueError, match=r"empty\.aiff: the speech engine wrote no audio"):
        convert_to_wav(empty, tmp_path / "out.wav")
    assert not (tmp_path / "out.wav").exists()
