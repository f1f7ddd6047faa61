"""A file the table names cannot be written: the sentence is in the table's language.

`mindflayer narrate … --wav FILE` refuses a folder or a path in a missing folder
before any rendering (`moderator.safe_output`); a French, German or Spanish table
reads that refusal in its own language, with the path exactly as it was typed.
`str(error)` stays the English sentence (logs, tools).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator import i18n, safe_output
from moderator.cli import main
from moderator.i18n.refusals import refusal


def _no_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_speaker(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing may be rendered for a refused target")

    monkeypatch.setattr("moderator.narration.speech.pyttsx3_synth.Pyttsx3Synthesizer", no_speaker)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fr", "Impossible d'écrire {path} : c'est un dossier ; indiquez un nom de fichier"),
        ("de", "{path} ließ sich nicht schreiben: Das ist ein Ordner; geben Sie einen Dateinamen"),
        ("es", "No se pudo escribir {path}: es una carpeta; indique un nombre de archivo"),
    ],
)
def test_a_folder_as_wav_is_refused_in_the_tables_language(
    lang: str,
    expected: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_rendering(monkeypatch)
    folder = tmp_path / "{x} [b]"  # typed names stay literal: never a field, never markup
    folder.mkdir()
    assert main(["--lang", lang, "narrate", "reveal", "--wav", str(folder)]) == 1
    err = capsys.readouterr().err
    assert expected.format(path=folder) in err
    assert "Could not write" not in err
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fr", "Impossible d'écrire {path} : le dossier {folder} n'existe pas"),
        ("de", "{path} ließ sich nicht schreiben: Der Ordner {folder} existiert nicht"),
    ],
)
def test_a_missing_folder_is_said_in_the_tables_language_with_the_path_as_typed(
    lang: str,
    expected: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_rendering(monkeypatch)
    monkeypatch.chdir(tmp_path)
    typed = "previews/reveal.wav"  # relative, as typed: shown so, not resolved
    assert main(["--lang", lang, "narrate", "reveal", "--wav", typed]) == 1
    err = capsys.readouterr().err
    assert expected.format(path=typed, folder="previews") in err
    assert "does not exist" not in err
    assert not (tmp_path / "previews").exists()


def test_a_kind_of_file_word_is_translated_inside_the_sentence(tmp_path: Path) -> None:
    """`{what}` is a phrase made down in safe_output ("a socket"): it is translated too."""
    import socket

    where = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(where))
        with pytest.raises(safe_output.OutputError) as caught:
            safe_output.check_target(where)
    assert str(caught.value) == f"Could not write {where}: it is a socket. Nothing was written."
    i18n.use_language("fr")
    assert (
        refusal(caught.value)
        == f"Impossible d'écrire {where} : c'est un socket. Rien n'a été écrit."
    )


def test_the_english_sentence_is_unchanged(tmp_path: Path) -> None:
    with pytest.raises(safe_output.OutputError) as caught:
        safe_output.check_target(tmp_path)
    assert str(caught.value) == (
        f"Could not write {tmp_path}: it is a folder; give a file name "
        f"(for example {tmp_path / 'export'}). Nothing was written."
    )
    assert refusal(caught.value) == str(caught.value)
