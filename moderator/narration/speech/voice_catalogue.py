"""The voice repository's catalogue (`voices.json`), its addresses, and its words for faults.

The repository (Hugging Face `rhasspy/piper-voices`) lists every voice in
`voices.json`: its language and, per file, `size_bytes` and `md5_digest`. Files
live at `<base>/<path in the catalogue>` (`fr/fr_FR/siwis/medium/...onnx`), as
piper-tts's own `piper.download_voices` fetches them. The base address comes
from `MINDFLAYER_VOICES_URL` when set (the tests point it at a server on
127.0.0.1), else the repository's. Every failure talking to it is a
`DownloadError` whose message is one sentence for the player.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import json
import os
import re
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from moderator import __version__
from moderator.i18n import _
from moderator.narration.speech.piper_voices import RECOMMENDED, is_voice_name

DEFAULT_BASE_URL = "https://huggingface.co/rhasspy/piper-voices/resolve/main"
BASE_URL_ENV = "MINDFLAYER_VOICES_URL"
CATALOGUE = "voices.json"
#: Longest wait for the server to answer or send the next bytes (seconds).
TIMEOUT = 30.0
#: The catalogue is about 1 MB; more than this is not a catalogue.
MAX_CATALOGUE = 32 * 1024 * 1024
#: The files a voice needs; the model card comes too when the catalogue lists it.
_NEEDED = (".onnx", ".onnx.json")
_EXTRA = ("MODEL_CARD",)
_DIGEST = re.compile(r"^[0-9a-f]{32}$")


class DownloadError(Exception):
    """A download that did not install: `str()` is one sentence for the player."""


class DownloadCancelled(DownloadError):
    """The table stopped the download; what was fetched is kept for the next run."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of a voice as the catalogue lists it."""

    path: str
    size: int
    md5: str

    @property
    def name(self) -> str:
        """The file's own name (the last part of its path)."""
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class CatalogueVoice:
    """One voice of the catalogue: its name, language and the files to fetch."""

    name: str
    language: str
    files: tuple[RemoteFile, ...]

    @property
    def size(self) -> int:
        """Bytes to download for the whole voice."""
        return sum(f.size for f in self.files)


def base_url(explicit: str | None = None) -> str:
    """The repository's address: `explicit`, else $MINDFLAYER_VOICES_URL, else Hugging Face's."""
    return (explicit or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")


def file_url(base: str, path: str) -> str:
    """A catalogue path's address, as piper-tts's downloader spells it."""
    return f"{base}/{urllib.parse.quote(path)}?download=true"


def fetch_catalogue(base: str, timeout: float = TIMEOUT) -> dict[str, CatalogueVoice]:
    """The repository's voices by name (the voices this app can use).

    Raises:
        DownloadError: the catalogue could not be fetched or read.
    """
    url = file_url(base, CATALOGUE)
    with opened(url, timeout, CATALOGUE) as response:
        try:
            data = _read_bounded(response, MAX_CATALOGUE)
        except (OSError, http.client.HTTPException) as error:
            raise DownloadError(
                _("The voice catalogue's download broke off ({error}); try again.").format(
                    error=reason_of(error)
                )
            ) from error
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise DownloadError(
            _("The voice repository's catalogue at {url} is not a voice catalogue.").format(url=url)
        ) from error
    return parse_catalogue(raw)


def parse_catalogue(raw: object) -> dict[str, CatalogueVoice]:
    """The usable voices of a `voices.json` (entries without a model and config are left out)."""
    if not isinstance(raw, Mapping):
        raise DownloadError(_("The voice repository's catalogue is not a voice catalogue."))
    voices = {}
    for name, entry in raw.items():
        voice = _catalogue_voice(name, entry)
        if voice is not None:
            voices[name] = voice
    return voices


def _catalogue_voice(name: object, entry: object) -> CatalogueVoice | None:
    if not isinstance(name, str) or not is_voice_name(name) or not isinstance(entry, Mapping):
        return None
    language = entry.get("language")
    family = language.get("family") if isinstance(language, Mapping) else None
    files = entry.get("files")
    if not isinstance(family, str) or not isinstance(files, Mapping):
        return None
    wanted = {name + suffix for suffix in _NEEDED} | set(_EXTRA)
    chosen: list[RemoteFile] = []
    for path, facts in files.items():
        if not isinstance(path, str) or not isinstance(facts, Mapping):
            continue
        parts = path.split("/")
        if parts[-1] not in wanted or any(p in ("", ".", "..") for p in parts):
            continue
        size, md5 = facts.get("size_bytes"), facts.get("md5_digest")
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            continue
        if not isinstance(md5, str) or not _DIGEST.match(md5.lower()):
            continue
        chosen.append(RemoteFile(path, size, md5.lower()))
    names = {f.name for f in chosen}
    if not all(name + suffix in names for suffix in _NEEDED):
        return None
    return CatalogueVoice(name, family, tuple(sorted(chosen, key=lambda f: f.name)))


def pick(catalogue: Mapping[str, CatalogueVoice], wanted: str) -> CatalogueVoice:
    """The voice `wanted` names: a language code (its recommended voice) or a voice name.

    Raises:
        DownloadError: the catalogue has no such voice.
    """
    name = RECOMMENDED.get(wanted.lower(), wanted)
    voice = catalogue.get(name)
    if voice is None:
        raise DownloadError(
            _("The voice repository has no voice called {name}.").format(name=repr(name))
        )
    return voice


# -- the network, in sentences ---------------------------------------------------


@contextlib.contextmanager
def opened(
    url: str, timeout: float, what: str, headers: Mapping[str, str] | None = None
) -> Iterator[http.client.HTTPResponse]:
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise DownloadError(
            _("The voice repository's address must start with https:// or http://: {url}").format(
                url=url
            )
        )
    agent = {"User-Agent": f"mindflayer-moderator/{__version__}"}
    request = urllib.request.Request(url, headers={**agent, **(headers or {})})  # noqa: S310
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - checked above
    except urllib.error.HTTPError as error:
        error.close()
        raise _http_error(error.code, what, url) from error
    except urllib.error.URLError as error:
        raise _unreachable(url, error.reason) from error
    except (OSError, http.client.HTTPException) as error:
        raise _unreachable(url, error) from error
    with response:
        yield response


def _http_error(code: int, what: str, url: str) -> DownloadError:
    host = urllib.parse.urlsplit(url).netloc
    if code == 404:
        return DownloadError(
            _("The voice repository at {host} has no {file} (HTTP 404).").format(
                host=host, file=what
            )
        )
    if code >= 500:
        return DownloadError(
            _(
                "The voice repository at {host} failed (HTTP {code}); nothing was installed, "
                "try again later."
            ).format(host=host, code=code)
        )
    return DownloadError(
        _("The voice repository at {host} refused {file} (HTTP {code}).").format(
            host=host, file=what, code=code
        )
    )


def _unreachable(url: str, reason: object) -> DownloadError:
    host = urllib.parse.urlsplit(url).netloc
    if isinstance(reason, TimeoutError | socket.timeout):
        return DownloadError(
            _("The voice repository at {host} did not answer in time; try again.").format(host=host)
        )
    if isinstance(reason, socket.gaierror):
        return DownloadError(
            _(
                "Could not find {host}: is this computer connected to the internet? "
                "Nothing was installed."
            ).format(host=host)
        )
    if isinstance(reason, ConnectionRefusedError):
        return DownloadError(
            _(
                "The voice repository at {host} refused the connection; nothing was installed."
            ).format(host=host)
        )
    return DownloadError(
        _(
            "Could not reach the voice repository at {host} ({reason}); nothing was installed."
        ).format(host=host, reason=reason_of(reason))
    )


def broke_off(remote: RemoteFile, got: int, error: BaseException | None) -> DownloadError:
    return DownloadError(
        _(
            "The download of {file} broke off after {got} of {size} MB; run the install "
            "again to finish it."
        ).format(file=remote.name, got=f"{got / 1e6:.1f}", size=f"{remote.size / 1e6:.1f}")
    )


def write_failed(path: Path, error: OSError) -> DownloadError:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return DownloadError(
            _(
                "The disk is full: the voice could not be written in {folder}; free some "
                "space and run the install again."
            ).format(folder=path.parent)
        )
    return DownloadError(
        _("Could not write {path} ({reason}); nothing was installed.").format(
            path=path, reason=reason_of(error)
        )
    )


def reason_of(error: object) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _read_bounded(response: http.client.HTTPResponse, most: int) -> bytes:
    data = response.read(most + 1)
    if len(data) > most:
        raise DownloadError(_("The voice repository's catalogue is far too large."))
    return data
