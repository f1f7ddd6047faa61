"""`mindflayer voices install`: the real download code against a repository on 127.0.0.1.

Each fault (404, 500, refused connection, short read, wrong digest, full disk)
must end in one sentence and a non-zero exit, with nothing half-installed
where the table looks, and a voice already installed keeps working.
"""

from __future__ import annotations

import hashlib
import itertools
import socket
from concurrent.futures import Future
from pathlib import Path

import pytest

from moderator import paths
from moderator.cli import main
from moderator.narration.narrator import Narrator
from moderator.narration.render import render_script
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.scripts.spoken_names import SAID_AS
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.piper_voices import (
    installed_voices,
    read_voice,
    voices_dir,
    voices_for,
)
from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer
from moderator.narration.speech.speaker import Clip, SpeechFault
from moderator.narration.speech.synthesizer import Synthesizer
from moderator.narration.speech.voice_catalogue import (
    BASE_URL_ENV,
    DownloadError,
    fetch_catalogue,
    pick,
)
from moderator.narration.speech.voice_download import PARTIAL, Progress, install
from moderator.narration.speech.voice_engines import choose_engine, routes_for
from tests.device_nodes import FULL_DEVICE, make_device
from tests.voice_repository import (
    CORRUPT,
    FRENCH,
    NOT_FOUND,
    SERVER_ERROR,
    SHORT,
    WHOLE_FILE,
    VoiceRepository,
    made_voice,
)

MODEL = f"{FRENCH}.onnx"


def installed_folder() -> Path:
    return voices_dir() / FRENCH


def nothing_half_installed() -> None:
    """Where the table looks there is no French voice, and no folder but the hidden one."""
    assert not installed_folder().exists()
    assert [v.name for v in installed_voices() if v.language == "fr"] == []
    visible = [p.name for p in voices_dir().iterdir() if not p.name.startswith(".")]
    assert visible == []


def test_install_fr_downloads_checks_shows_progress_and_the_table_speaks_with_it(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["voices", "install", "fr"]) == 0
    out, err = capsys.readouterr()
    assert FRENCH in out and "MB" in out
    assert "Its model card gives its licence: CC0" in out  # read from the card downloaded
    # The progress bar: bytes of the total, then the whole.
    total = sum(len(d) for d in repository.voices[FRENCH].files.values())
    assert f"of {total / 1e6:.1f} MB" in err
    assert f"[{'#' * 24}]  {total / 1e6:.1f} MB of {total / 1e6:.1f} MB" in err
    for name, data in repository.voices[FRENCH].files.items():
        on_disk = (installed_folder() / name).read_bytes()
        assert hashlib.md5(on_disk).hexdigest() == hashlib.md5(data).hexdigest(), name
    assert not (voices_dir() / PARTIAL).exists()
    # The table's French now speaks with it, by default.
    (voice,) = voices_for("fr")
    assert voice.name == FRENCH and voice.downloaded
    routes = routes_for(VoiceSettings(lang="fr"), [("fr", ("fr-fr", None)), ("de", ("de",))])
    assert routes.voices == {"fr-fr": voice.voice} and routes.warm == "fr-fr"
    assert routes.problem is None
    # `mindflayer voices` lists it under French, as the engine French speaks with.
    assert main(["voices"]) == 0
    listing = capsys.readouterr().out
    french = listing[listing.index("Natural voices") :]
    assert f"speaks with: {FRENCH}" in french and f"{FRENCH}  (" in french
    # A second install has nothing to fetch.
    asked = len(repository.requests)
    assert main(["voices", "install", FRENCH]) == 0
    assert "already installed" in capsys.readouterr().out
    assert [path for path, _ in repository.requests[asked:]] == ["voices.json"]


def test_progress_counts_every_byte_once_with_a_rate_and_time_left(
    repository: VoiceRepository,
) -> None:
    seen: list[Progress] = []
    voice = pick(fetch_catalogue(repository.url), "fr")
    install(voice, repository.url, paths.data_dir(), progress=seen.append)
    assert seen[0].done == 0 and seen[-1].done == seen[-1].total == voice.size
    assert all(a.done <= b.done for a, b in itertools.pairwise(seen))
    assert any(p.rate > 0 and p.left is not None for p in seen[1:])


@pytest.mark.parametrize(
    ("fault", "sentence"),
    [
        (NOT_FOUND, "has no fr_FR-siwis-medium.onnx (HTTP 404)"),
        (SERVER_ERROR, "failed (HTTP 500)"),
        (SHORT, "broke off after"),
        (CORRUPT, "its MD5 digest differs"),
    ],
)
def test_a_fault_is_one_sentence_and_nothing_is_half_installed(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str], fault: str, sentence: str
) -> None:
    repository.faults[MODEL] = fault
    assert main(["voices", "install", "fr"]) == 1
    err = capsys.readouterr().err
    (last,) = [line for line in err.splitlines() if not line.startswith("[")]
    assert sentence in last
    nothing_half_installed()


def test_a_refused_connection_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv(BASE_URL_ENV, f"http://127.0.0.1:{port}")
    assert main(["voices", "install", "de"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"The voice repository at 127.0.0.1:{port} refused the connection; nothing was installed."
    )
    assert not (voices_dir() / "de_DE-thorsten-medium").exists()


def full_disk_at(path: Path) -> None:
    """A copy of /dev/full at `path` (writing to it fails with ENOSPC), never the real one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    make_device(path.parent, path.name, FULL_DEVICE)


def test_a_full_disk_is_one_sentence_and_nothing_is_half_installed(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str]
) -> None:
    voice = pick(fetch_catalogue(repository.url), "fr")
    (model,) = [f for f in voice.files if f.name == MODEL]
    full_disk_at(voices_dir() / PARTIAL / FRENCH / f"{MODEL}.{model.md5[:12]}.part")
    assert main(["voices", "install", "fr"]) == 1
    err = capsys.readouterr().err
    assert "The disk is full: the voice could not be written" in err
    nothing_half_installed()
    # Room again: the next run installs it whole.
    assert main(["voices", "install", "fr"]) == 0
    assert read_voice(installed_folder()).name == FRENCH


def test_an_interrupted_install_resumes_where_it_stopped(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str]
) -> None:
    data = repository.voices[FRENCH].files[MODEL]
    repository.faults[MODEL] = SHORT
    assert main(["voices", "install", "fr"]) == 1
    assert "run the install again to finish it" in capsys.readouterr().err
    nothing_half_installed()
    del repository.faults[MODEL]
    asked = len(repository.requests)
    assert main(["voices", "install", "fr"]) == 0
    ranges = [r for path, r in repository.requests[asked:] if path.endswith(MODEL)]
    assert ranges == [f"bytes={len(data) // 2}-"]
    assert (installed_folder() / MODEL).read_bytes() == data


def test_a_server_that_ignores_the_range_makes_the_file_start_over_cleanly(
    repository: VoiceRepository,
) -> None:
    data = repository.voices[FRENCH].files[MODEL]
    repository.faults[MODEL] = SHORT
    assert main(["voices", "install", "fr"]) == 1
    repository.faults[MODEL] = WHOLE_FILE  # answers the range request with the whole file
    assert main(["voices", "install", "fr"]) == 0
    assert (installed_folder() / MODEL).read_bytes() == data


@pytest.mark.parametrize("fault", [NOT_FOUND, SERVER_ERROR, SHORT, CORRUPT, "disk"])
def test_a_failed_reinstall_keeps_the_voice_the_table_had(
    repository: VoiceRepository, fault: str
) -> None:
    assert main(["voices", "install", "fr"]) == 0
    before = {p.name: p.read_bytes() for p in installed_folder().iterdir()}
    # The repository publishes a new model: a reinstall fetches it and fails.
    voice = repository.voices[FRENCH]
    voice.files[MODEL] = voice.files[MODEL][:-1] + b"\x00"
    if fault == "disk":
        (model,) = [f for f in pick(fetch_catalogue(repository.url), "fr").files if f.name == MODEL]
        full_disk_at(voices_dir() / PARTIAL / FRENCH / f"{MODEL}.{model.md5[:12]}.part")
    else:
        repository.faults[MODEL] = fault
    assert main(["voices", "install", "fr"]) == 1
    assert {p.name: p.read_bytes() for p in installed_folder().iterdir()} == before
    assert choose_engine(VoiceSettings(lang="fr"), "fr").engine == FRENCH


def test_an_unknown_voice_and_a_voice_of_another_language(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["voices", "install", "fr_FR-nobody-medium"]) == 1
    assert "has no voice called 'fr_FR-nobody-medium'" in capsys.readouterr().err
    # A config that speaks another language than the catalogue says is not installed.
    liar = made_voice("de_DE-thorsten-medium", espeak_voice="de")
    liar.language = dict(liar.language, family="fr")
    repository.add(liar)
    with pytest.raises(DownloadError, match="says it speaks de"):
        install(pick(fetch_catalogue(repository.url), "de"), repository.url)
    assert not (voices_dir() / "de_DE-thorsten-medium").exists()


def test_remove_takes_the_voice_away_and_french_speaks_with_espeak_again(
    repository: VoiceRepository, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["voices", "install", "fr"]) == 0
    assert main(["voices", "remove", FRENCH]) == 0
    assert not installed_folder().exists()
    assert choose_engine(VoiceSettings(lang="fr"), "fr").engine == "espeak"
    assert main(["voices", "remove", FRENCH]) == 1
    assert "No installed voice is called" in capsys.readouterr().err


def test_a_voice_of_another_language_is_refused_with_a_sentence(
    repository: VoiceRepository,
) -> None:
    repository.add(made_voice("de_DE-thorsten-medium"))
    assert main(["voices", "install", "de"]) == 0
    with pytest.raises(ValueError, match="speaks another language"):
        VoiceSettings(lang="fr", voice_engines="fr=de_DE-thorsten-medium").validated()
    # Even forced past the settings' check, French never speaks with the German voice.
    forced = VoiceSettings(lang="fr", voice_engines="fr=natural")
    object.__setattr__(forced, "voice_engines", "fr=de_DE-thorsten-medium")
    choice = choose_engine(forced, "fr")
    assert choice.voice is None and choice.problem is not None
    assert "speaks another language (de), not fr" in choice.problem
    # German speaks with it; French, with no voice of its own, with espeak-ng, quietly.
    assert choose_engine(VoiceSettings(lang="de"), "de").engine == "de_DE-thorsten-medium"
    french = choose_engine(VoiceSettings(lang="fr"), "fr")
    assert french.engine == "espeak" and french.problem is None


@pytest.mark.speech
def test_the_narrator_speaks_french_with_the_installed_voice_and_english_with_espeak(
    repository: VoiceRepository, speech: None, speech_cache: Path, tmp_path: Path
) -> None:
    assert main(["voices", "install", "fr"]) == 0
    library = ScriptLibrary.load(None)
    french, english = library.languages["fr"].voice, library.languages["en"].voice
    started: list[Path] = []

    def not_started(cache: Path) -> Synthesizer:  # the warm-up asks for the voice's child
        started.append(cache)
        raise SpeechFault("neural", "not started in this test", permanent=True)

    system = Pyttsx3Synthesizer(speech_cache, warm=False)
    speaker = ChoosingSpeaker(system, tmp_path / "cache", neural_factory=not_started)
    narrator = Narrator(VoiceSettings(lang="fr"), library, speaker, time_scale=0.01)
    try:
        assert speaker.route(french) == FRENCH and speaker.route(english) == "espeak"
        assert len(started) == 1, "the French voice is warmed for a French table"
        narrator.update_settings(VoiceSettings(lang="fr", voice_engines="fr=espeak"))
        assert speaker.route(french) == "espeak"
        narrator.update_settings(VoiceSettings(lang="en"))
        assert speaker.route(french) == FRENCH and len(started) == 1, "not warmed for English"
    finally:
        narrator.close()


class Recording:
    """A natural voice that notes what it is asked to say and lets espeak-ng make the sound."""

    def __init__(self, system: Pyttsx3Synthesizer) -> None:
        self.system = system
        self.said: list[tuple[str, str]] = []

    def problems(self) -> list[SpeechFault]:
        return []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        self.said.append((text, voice))
        return self.system.synthesize(text, voice, rate, volume)

    def close(self) -> None:
        pass


@pytest.mark.speech
def test_the_natural_voice_says_names_as_the_table_spelled_them(
    repository: VoiceRepository, speech: None, speech_cache: Path, tmp_path: Path
) -> None:
    assert main(["voices", "install", "fr"]) == 0
    library = ScriptLibrary.load(None)
    system = Pyttsx3Synthesizer(speech_cache, warm=False)
    natural = Recording(system)
    speaker = ChoosingSpeaker(system, tmp_path / "cache", neural_factory=lambda _cache: natural)
    settings = VoiceSettings(lang="fr", ambience=False)
    languages = [(lang.code, (lang.voice,)) for lang in library.languages.values()]
    routes = routes_for(settings, languages)
    speaker.choose_voices(routes.voices, warm=routes.warm)
    context = {"players": 7, "player": "X Æ A-12", SAID_AS: {"X Æ A-12": "Iks Ache"}}
    try:
        out = tmp_path / "knockout.wav"
        rendered = render_script(library, speaker, "knockout", context, settings, out)
    finally:
        speaker.close()
    texts = [text for text, _voice in natural.said]
    assert any("Iks Ache" in text for text in texts), texts
    assert not any("X Æ A-12" in text for text in texts)
    assert any("X Æ A-12" in line for line in rendered.lines), "the caption keeps the name"
    assert {voice for _text, voice in natural.said} == {library.languages["fr"].voice}


def test_narrate_refuses_a_voice_of_another_language_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reveal.wav"
    german = "de_DE-thorsten-medium"
    code = main(["narrate", "reveal", "--lang", "fr", "--engine", german, "--wav", str(out)])
    assert code == 2 and not out.exists()
    assert capsys.readouterr().err.strip() == (  # in the table's language, French here
        "La voix de_DE-thorsten-medium parle une autre langue (de), pas fr ; "
        "choisissez une voix de fr ou espeak."
    )
