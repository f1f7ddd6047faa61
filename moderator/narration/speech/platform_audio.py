"""Whatever sound file a platform's synthesizer wrote, as the app's mono 16-bit WAV.

The app's clips are mono 16-bit PCM WAV (what espeak writes). The other
platforms write what they like: macOS' NSSpeechSynthesizer writes AIFF (big-
endian, sometimes AIFF-C), Windows' SpFileStream writes the voice's format,
and platform tools may use a WAVE_FORMAT_EXTENSIBLE header, which Python
3.11's `wave` refuses ("unknown format: 65534"). This module reads RIFF WAV
(PCM or EXTENSIBLE PCM) and AIFF/AIFF-C (NONE, twos, sowt) at 8, 16, 24 or
32 bits and any channel count, mixes down to mono and keeps the rate. Pure
Python, so the conversion is checked here on every platform instead of
trusting an external tool (afconvert) that never ran in CI.
"""

from __future__ import annotations

import array
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

from moderator.narration.audio.wavfile import Pcm, write_pcm_atomic

_WAVE_PCM = 1
_WAVE_EXTENSIBLE = 0xFFFE
#: The tail every KSDATAFORMAT_SUBTYPE_* GUID shares (its first two bytes are the format).
_GUID_TAIL = bytes.fromhex("000000001000800000aa00389b71")
#: AIFF-C compression types that are plain PCM, with their byte order.
_AIFC_PCM = {b"NONE": "big", b"twos": "big", b"sowt": "little"}


def convert_to_wav(source: Path, target: Path) -> float:
    """Write `source` (WAV or AIFF, any PCM layout) to `target` as mono 16-bit; its seconds.

    Raises:
        ValueError: a sentence naming the file when it is not audio this can read,
            or holds no samples.
    """
    pcm = read_platform_audio(source)
    if not pcm.samples:
        raise ValueError(f"{source.name}: the speech engine wrote no audio")
    write_pcm_atomic(target, pcm)
    return pcm.duration


def read_platform_audio(path: Path) -> Pcm:
    """Read a WAV or AIFF file as mono 16-bit samples at its own rate."""
    data = path.read_bytes()
    kind = data[8:12]
    if data[:4] == b"RIFF" and kind == b"WAVE":
        return _read_wav(data, path.name)
    if data[:4] == b"FORM" and kind in (b"AIFF", b"AIFC"):
        return _read_aiff(data, path.name, kind == b"AIFC")
    raise ValueError(f"{path.name}: not a WAV or AIFF file")


def _chunks(data: bytes, order: str) -> Iterator[tuple[bytes, bytes]]:
    """(id, body) of each chunk after the 12-byte RIFF/FORM header (bodies cut at the end)."""
    size_format = "<I" if order == "little" else ">I"
    position = 12
    while position + 8 <= len(data):
        ident = data[position : position + 4]
        (size,) = struct.unpack(size_format, data[position + 4 : position + 8])
        body = data[position + 8 : position + 8 + size]  # a writer that never set sizes: the rest
        yield ident, body
        position += 8 + size + (size & 1)


def _read_wav(data: bytes, name: str) -> Pcm:
    fmt: bytes | None = None
    frames = b""
    for ident, body in _chunks(data, "little"):
        if ident == b"fmt ":
            fmt = body
        elif ident == b"data":
            frames = body
    if fmt is None or len(fmt) < 16:
        raise ValueError(f"{name}: a WAV file without its format chunk")
    tag, channels, rate, _rate, _align, bits = struct.unpack("<HHIIHH", fmt[:16])
    if tag == _WAVE_EXTENSIBLE and len(fmt) >= 40 and fmt[26:40] == _GUID_TAIL:
        tag = struct.unpack("<H", fmt[24:26])[0]
    if tag != _WAVE_PCM:
        raise ValueError(f"{name}: WAV format {tag} is not PCM")
    return Pcm(rate, _mono16(frames, channels, bits, "little", unsigned_8=True, name=name))


def _read_aiff(data: bytes, name: str, compressed: bool) -> Pcm:
    comm: bytes | None = None
    frames = b""
    for ident, body in _chunks(data, "big"):
        if ident == b"COMM":
            comm = body
        elif ident == b"SSND" and len(body) >= 8:
            (offset,) = struct.unpack(">I", body[:4])
            frames = body[8 + offset :]
    if comm is None or len(comm) < 18:
        raise ValueError(f"{name}: an AIFF file without its COMM chunk")
    channels, count, bits = struct.unpack(">hIh", comm[:8])
    rate = _extended(comm[8:18])
    order = "big"
    if compressed:
        kind = comm[18:22]
        if kind not in _AIFC_PCM:
            raise ValueError(f"{name}: AIFF-C compression {kind.decode('latin-1')!r} is not PCM")
        order = _AIFC_PCM[kind]
    frames = frames[: count * channels * ((bits + 7) // 8)]
    return Pcm(rate, _mono16(frames, channels, bits, order, unsigned_8=False, name=name))


def _extended(raw: bytes) -> int:
    """An 80-bit IEEE 754 extended float (AIFF's sample rate) as a whole number of Hz."""
    exponent = int.from_bytes(raw[:2], "big") & 0x7FFF
    mantissa = int.from_bytes(raw[2:10], "big")
    if exponent == 0 and mantissa == 0:
        return 0
    return round(mantissa * 2.0 ** (exponent - 16383 - 63))


def _mono16(
    frames: bytes, channels: int, bits: int, order: str, *, unsigned_8: bool, name: str
) -> array.array[int]:
    """Interleaved PCM of any width as mono 16-bit samples (channels averaged)."""
    width = (bits + 7) // 8
    if channels < 1 or width not in (1, 2, 3, 4):
        raise ValueError(f"{name}: {channels} channels of {bits}-bit audio cannot be read")
    usable = len(frames) - len(frames) % (width * channels)
    samples = array.array("h")
    samples.frombytes(_top16_little(frames[:usable], width, order, unsigned_8))
    if sys.byteorder == "big":
        samples.byteswap()
    if channels == 1:
        return samples
    lanes = [samples[lane::channels] for lane in range(channels)]
    return array.array("h", (sum(frame) // channels for frame in zip(*lanes, strict=True)))


def _top16_little(frames: bytes, width: int, order: str, unsigned_8: bool) -> bytes:
    """The top 16 bits of each sample, as little-endian 16-bit samples (byte slicing, no loop)."""
    if width == 2 and order == "little":
        return frames
    count = len(frames) // width
    out = bytearray(2 * count)
    if width == 1:  # the byte is the high byte; WAV's 8-bit is unsigned
        out[1::2] = frames.translate(_FLIP_SIGN) if unsigned_8 else frames
        return bytes(out)
    high, low = (0, 1) if order == "big" else (width - 1, width - 2)
    out[0::2] = frames[low::width]
    out[1::2] = frames[high::width]
    return bytes(out)


#: Unsigned 8-bit samples to signed ones (flip the top bit).
_FLIP_SIGN = bytes(b ^ 0x80 for b in range(256))
