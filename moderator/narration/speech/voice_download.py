"""Downloading a Piper voice from the public voice repository, checked, resumable, atomic.

The catalogue (`voice_catalogue`) says what each file of a voice is: its path,
its size and its MD5 digest. This module never trusts a byte it was not told about:

- each file is written to `voices/.partial/<voice>/<file>.<digest>.part`; the
  digest in the name means a catalogue that changed never resumes an older file;
- a second run after an interruption asks for the rest (`Range: bytes=N-`); a
  server that answers with the whole file (200) or a range that does not start
  at N makes it start that file over, from an empty part;
- a file is accepted only when its size and MD5 digest are the catalogue's;
  a wrong digest deletes the part (it can never become right);
- the voice's folder is renamed into `voices/<voice>` only when every file is
  whole, so the table sees the whole voice or none of it, and a voice already
  there keeps working until the new one replaces it in one rename.

Every failure is a `DownloadError` whose message is one sentence for the
player (no network, a server error, a short read, a wrong digest, a full disk).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import http.client
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from moderator import safe_output
from moderator.i18n import _
from moderator.narration.speech.piper_voices import (
    MANIFEST,
    InstalledVoice,
    family_of,
    read_voice,
    voices_dir,
)
from moderator.narration.speech.voice_catalogue import (
    TIMEOUT,
    CatalogueVoice,
    DownloadCancelled,
    DownloadError,
    RemoteFile,
    broke_off,
    file_url,
    opened,
    reason_of,
    write_failed,
)

#: The hidden folder under `voices/` where downloads are built.
PARTIAL = ".partial"
CHUNK = 64 * 1024
#: Room kept free beyond the download itself (bytes), so the disk is never filled to the brim.
SPARE_BYTES = 16 * 1024 * 1024
_CONTENT_RANGE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")


@dataclass(frozen=True)
class Progress:
    """How far a download is: bytes, the rate this run and the time left."""

    done: int
    total: int
    #: Bytes per second since this run started (0 until measurable).
    rate: float
    #: Seconds left at that rate, or None while unknown.
    left: float | None


ProgressSink = Callable[[Progress], object]


# -- installing ------------------------------------------------------------------


def installed_as_listed(voice: CatalogueVoice, root: Path | None = None) -> bool:
    """Whether `voice` is installed with exactly the catalogue's files (nothing to fetch)."""
    folder = voices_dir(root) / voice.name
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        listed = manifest["files"]
        return all(
            listed[f.name]["md5_digest"] == f.md5 and (folder / f.name).stat().st_size == f.size
            for f in voice.files
        )
    except (OSError, ValueError, KeyError, TypeError):
        return False


def install(
    voice: CatalogueVoice,
    base: str,
    root: Path | None = None,
    progress: ProgressSink | None = None,
    cancel: threading.Event | None = None,
    timeout: float = TIMEOUT,
) -> InstalledVoice:
    """Download `voice` into the data folder `root` and put it in place; the installed voice.

    Resumes an interrupted download; checks each file's size and digest; the
    voice appears in `voices/` only once whole (see the module's docstring).

    Raises:
        DownloadError: one sentence (nothing is installed; a voice of the same
            name already there is left as it was).
    """
    folder = voices_dir(root)
    staging = folder / PARTIAL / voice.name
    try:
        staging.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise write_failed(staging, error) from error
    _clear_stale(staging, voice)
    meter = _Meter(voice, staging, progress)
    _check_room(folder, meter.total - meter.done)
    for remote in voice.files:
        if _whole(staging / remote.name, remote):
            continue
        _fetch(base, remote, staging, meter, cancel, timeout)
    _check_language(staging, voice)
    manifest = {
        "name": voice.name,
        "language": voice.language,
        "source": base,
        "files": {f.name: {"size_bytes": f.size, "md5_digest": f.md5} for f in voice.files},
    }
    try:
        safe_output.write_text(staging / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    except safe_output.OutputError as error:
        raise DownloadError(str(error)) from error
    return _put_in_place(staging, folder / voice.name)


class _Meter:
    """Counts bytes and tells `progress` at most ten times a second (and at the end)."""

    def __init__(self, voice: CatalogueVoice, staging: Path, sink: ProgressSink | None) -> None:
        self.total = voice.size
        self.done = sum(_already(staging, f) for f in voice.files)
        self._sink = sink
        self._start = time.monotonic()
        self._fetched = 0
        self._told = 0.0
        self.tell(force=True)

    def add(self, count: int) -> None:
        self.done += count
        self._fetched += count
        self.tell()

    def restart(self, lost: int) -> None:
        """A part thrown away: its bytes no longer count."""
        self.done -= lost
        self.tell(force=True)

    def tell(self, force: bool = False) -> None:
        if self._sink is None:
            return
        now = time.monotonic()
        if not force and now - self._told < 0.1 and self.done < self.total:
            return
        self._told = now
        elapsed = now - self._start
        rate = self._fetched / elapsed if elapsed > 0.2 and self._fetched else 0.0
        left = (self.total - self.done) / rate if rate > 0 else None
        self._sink(Progress(self.done, self.total, rate, left))


def _part(staging: Path, remote: RemoteFile) -> Path:
    return staging / f"{remote.name}.{remote.md5[:12]}.part"


def _already(staging: Path, remote: RemoteFile) -> int:
    """Bytes of `remote` already on disk from an earlier run."""
    if _whole(staging / remote.name, remote):
        return remote.size
    try:
        return min(remote.size, _part(staging, remote).stat().st_size)
    except OSError:
        return 0


def _whole(path: Path, remote: RemoteFile) -> bool:
    """Whether `path` is `remote` checked and complete (renamed from its part after the check)."""
    try:
        return path.stat().st_size == remote.size
    except OSError:
        return False


def _clear_stale(staging: Path, voice: CatalogueVoice) -> None:
    """Remove parts of files the catalogue no longer lists as they were (another digest)."""
    keep = {_part(staging, f).name for f in voice.files} | {f.name for f in voice.files}
    for entry in staging.iterdir():
        if entry.name not in keep:
            with contextlib.suppress(OSError):
                entry.unlink()


def _check_room(folder: Path, needed: int) -> None:
    try:
        free = shutil.disk_usage(folder.parent if not folder.exists() else folder).free
    except OSError:
        return
    if free < needed + SPARE_BYTES:
        raise DownloadError(
            _(
                "There is not enough free disk space for the voice: it needs {need} MB "
                "and {free} MB are free in {folder}."
            ).format(
                need=f"{(needed + SPARE_BYTES) / 1e6:.0f}", free=f"{free / 1e6:.0f}", folder=folder
            )
        )


def _fetch(
    base: str,
    remote: RemoteFile,
    staging: Path,
    meter: _Meter,
    cancel: threading.Event | None,
    timeout: float,
) -> None:
    """Download one file into its part, resuming it; rename it when whole and checked."""
    part = _part(staging, remote)
    have = _already(staging, remote)
    if have >= remote.size and remote.size:
        have = _restart(part, meter, have)  # a part as long as the file failed its check before
    url = file_url(base, remote.path)
    headers = {"Range": f"bytes={have}-"} if have else {}
    digest = hashlib.md5(usedforsecurity=False)
    with opened(url, timeout, remote.name, headers) as response:
        if have and not _resumes_at(response, have):
            have = _restart(part, meter, have)  # the server sent the whole file: start it over
        if have:
            _hash_file(part, digest)
        _receive(response, part, have, remote, digest, meter, cancel)
    if digest.hexdigest() != remote.md5:
        part.unlink(missing_ok=True)
        meter.restart(remote.size)
        raise DownloadError(
            _(
                "The downloaded {file} does not match the voice repository's catalogue "
                "(its MD5 digest differs), so it was deleted; run the install again."
            ).format(file=remote.name)
        )
    os.replace(part, staging / remote.name)


def _restart(part: Path, meter: _Meter, had: int) -> int:
    part.unlink(missing_ok=True)
    meter.restart(had)
    return 0


def _resumes_at(response: http.client.HTTPResponse, offset: int) -> bool:
    """Whether the server answered the range request with the bytes from `offset` on."""
    if response.status != 206:
        return False
    match = _CONTENT_RANGE.match(response.headers.get("Content-Range", "").strip())
    return match is not None and int(match.group(1)) == offset


def _hash_file(path: Path, digest: hashlib._Hash) -> None:
    with path.open("rb") as kept:
        while chunk := kept.read(1024 * 1024):
            digest.update(chunk)


def _receive(
    response: http.client.HTTPResponse,
    part: Path,
    have: int,
    remote: RemoteFile,
    digest: hashlib._Hash,
    meter: _Meter,
    cancel: threading.Event | None,
) -> None:
    """Append the response's bytes to `part`; a short read keeps them for the next run."""
    try:
        stream = part.open("ab" if have else "wb")
    except OSError as error:
        raise write_failed(part, error) from error
    got = have
    with stream:
        while got < remote.size:
            if cancel is not None and cancel.is_set():
                raise DownloadCancelled(_("The download was stopped; run it again to finish it."))
            try:
                chunk = response.read(min(CHUNK, remote.size - got))
            except (OSError, http.client.HTTPException) as error:
                raise broke_off(remote, got, error) from error
            if not chunk:
                break
            try:
                stream.write(chunk)
            except OSError as error:
                stream.close()
                part.unlink(missing_ok=True)
                meter.restart(got - have)
                raise write_failed(part, error) from error
            digest.update(chunk)
            got += len(chunk)
            meter.add(len(chunk))
        try:
            stream.flush()
            os.fsync(stream.fileno())
        except OSError as error:
            if error.errno in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
                pass  # a file system without fsync (some network mounts)
            else:
                part.unlink(missing_ok=True)
                raise write_failed(part, error) from error
    if got < remote.size:
        raise broke_off(remote, got, None)


def _check_language(staging: Path, voice: CatalogueVoice) -> None:
    """The config must speak the language the catalogue and the name say."""
    try:
        config_language = _config_language(staging / f"{voice.name}.onnx.json")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DownloadError(
            _("The voice {name}'s config is not a Piper voice config ({error}).").format(
                name=voice.name, error=reason_of(error)
            )
        ) from error
    if config_language != voice.language or family_of(voice.name) != voice.language:
        raise DownloadError(
            _(
                "The voice {name} says it speaks {said}, but the catalogue lists it as "
                "{listed}; it was not installed."
            ).format(name=voice.name, said=config_language, listed=voice.language)
        )


def _config_language(config: Path) -> str:
    settings = json.loads(config.read_text(encoding="utf-8"))
    int(settings["audio"]["sample_rate"])
    return str(settings["language"]["family"])


def _put_in_place(staging: Path, target: Path) -> InstalledVoice:
    """Rename the finished folder into place (replacing an older copy in one rename)."""
    old = target.with_name(f".replaced-{target.name}-{os.getpid()}")
    shutil.rmtree(old, ignore_errors=True)  # left by a run that died between its renames
    try:
        if target.exists():
            os.replace(target, old)
        try:
            os.replace(staging, target)
        except OSError:
            if old.exists() and not target.exists():
                os.replace(old, target)  # the voice the table had keeps working
            raise
    except OSError as error:
        raise write_failed(target, error) from error
    shutil.rmtree(old, ignore_errors=True)
    with contextlib.suppress(OSError):
        staging.parent.rmdir()  # `.partial` when nothing else is being downloaded
    return read_voice(target)
