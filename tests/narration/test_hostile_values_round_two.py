"""Fields of the table's voice-script files checked by what they mean (issue 33).

A huge pause, a voice name that reads as an option, a folder named with a
right-to-left mark, a `--voice-scripts` path that is a file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from user_scripts import user_scripts

from moderator.cli import main
from moderator.narration.scripts.library import ScriptLibrary

HUGE = "1" + "0" * 400


def test_a_huge_pause_is_refused_by_narrate_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It crashed `narrate` (and the app at every reveal) with OverflowError."""
    script = f'[[step]]\nsay = "{{player}}"\n[[step]]\npause = {HUGE}\n'
    user = user_scripts(tmp_path, {"en/turn.toml": script})
    library = ScriptLibrary.load(user)
    assert any("pause of ~1e400 s is absurd" in warning for warning in library.warnings)
    main(["--voice-scripts", str(user), "narrate", "turn", "--lang", "zz"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "OverflowError" not in err


def test_a_voice_that_reads_as_an_option_is_refused(tmp_path: Path) -> None:
    """`voice = "--help"` reached the speech child's command line and stopped speech."""
    user = user_scripts(tmp_path, {"nl/language.toml": 'name = "Nederlands"\nvoice = "--help"\n'})
    library = ScriptLibrary.load(user)
    assert f'{user / "nl" / "language.toml"}:2: voice must be an espeak-ng voice such as "fr"' in (
        library.warnings
    )
    assert "nl" not in library.languages


def test_a_folder_with_a_bidi_mark_is_reported_under_its_real_name(tmp_path: Path) -> None:
    user = user_scripts(tmp_path, {"en/turn.toml": '[[step]]\nsay = "{player}"\n'})
    (user / "ab\u202ecd").mkdir()
    library = ScriptLibrary.load(user)
    warning = next(w for w in library.warnings if "not a language code folder" in w)
    assert warning.startswith(f"{user}/ab\\u202ecd: ")
    assert "\u202e" not in warning


def test_voice_scripts_pointing_at_a_file_says_it_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "scripts.toml"
    file.write_text("", encoding="utf-8")
    assert main(["--voice-scripts", str(file), "narrate", "turn"]) == 2
    err = capsys.readouterr().err
    assert f"The voice-scripts path {file} is a file, not a folder (--voice-scripts)." in err
    assert "does not exist" not in err
    library = ScriptLibrary.load(file, user_dir_required=True)
    assert library.warnings[0] == (
        f"The voice-scripts path {file} is a file, not a folder (--voice-scripts); "
        "using the shipped scripts."
    )
