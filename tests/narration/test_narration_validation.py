"""Every kind of mistake in a voice script is reported with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from script_problems import problems

from moderator.cli import main
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.scripts.steps import Ambience, ScriptError
from moderator.narration.scripts.validation import load_script, parse_script
from moderator.narration.settings import VoiceSettings

GOOD = """
[[step]]
say = "Everyone, close your eyes."

[[step]]
pause = "{seconds}"
"""


def test_a_good_script_validates() -> None:
    script = parse_script("reveal", GOOD, Path("reveal.toml"))
    assert len(script.steps) == 2


def test_unknown_step_kind_names_its_line() -> None:
    text = GOOD + '\n[[step]]\nsing = "la la"\n'
    assert problems(name="reveal", text=text) == [
        "reveal.toml:9: unknown step kind 'sing'; a step is say = \"text\", pause = seconds "
        'or ambience = "start"/"stop"'
    ]


def test_unknown_placeholder_names_its_line() -> None:
    text = '[[step]]\nsay = "Hello"\n\n[[step]]\nsay = "Bye {player}"\n'
    (message,) = problems(name="reveal", text=text)
    assert message.startswith("reveal.toml:5: unknown placeholder {player} in the reveal script")


def test_attribute_access_in_a_placeholder_is_refused() -> None:
    (message,) = problems(name="knockout", text='[[step]]\nsay = "{player.__class__}"\n')
    assert message.startswith("reveal.toml:2: placeholder {player.__class__} is not a plain name")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("-1", "pause must be more than 0 seconds, not -1"),
        ("0", "pause must be more than 0 seconds, not 0"),
        ("3600", "pause of 3600 s is absurd (at most 60)"),
        ("true", "pause must be a number of seconds"),
        ('"{player}"', "unknown placeholder {player}"),
        ('"soon"', "pause must be a number of seconds or one of"),
        ("nan", "pause must be more than 0 seconds, not nan"),
        # Too large for a float: refused before any arithmetic (it was an OverflowError).
        ("1" + "0" * 400, "pause of ~1e400 s is absurd (at most 60)"),
        ("-1" + "0" * 400, "pause must be more than 0 seconds, not -~1e400"),
        ("inf", "pause of inf s is absurd (at most 60)"),
    ],
)
def test_bad_pauses_are_refused(value: str, expected: str) -> None:
    (message,) = problems(
        name="reveal", text=f'[[step]]\nsay = "Hi"\n\n[[step]]\npause = {value}\n'
    )
    assert message.startswith("reveal.toml:5: ")
    assert expected in message


def test_a_pause_placeholder_must_hold_seconds() -> None:
    (message,) = problems(name="knockout", text='[[step]]\npause = "{player}"\n')
    assert "pause must be a number of seconds or one of: none in this script" in message


def test_bad_toml_reports_the_parser_line() -> None:
    (message,) = problems(name="reveal", text='[[step]]\nsay = "unterminated\n')
    assert message.startswith("reveal.toml:2: the file is not valid TOML")


def test_a_step_needs_exactly_one_kind() -> None:
    (message,) = problems(name="reveal", text='[[step]]\nsay = "a"\npause = 1\n')
    assert "exactly one of" in message
    (message,) = problems(name="reveal", text="[[step]]\n")
    assert "exactly one of" in message


def test_no_steps_and_unknown_top_level_keys() -> None:
    assert problems(name="reveal", text="") == [
        "reveal.toml:1: no steps: add [[step]] tables with say = ... or pause = ..."
    ]
    found = problems(name="reveal", text='title = "x"\n' + GOOD)
    assert found[0].startswith("reveal.toml:1: unknown key 'title'")


def test_unknown_conditions_are_refused() -> None:
    (message,) = problems(name="setup", text='[[step]]\nwhen = "sunny"\nsay = "Hi"\n')
    assert message.startswith("reveal.toml:2: when = 'sunny' is not a known condition")


def test_conditions_can_be_inverted() -> None:
    # The setup must also say its counts (`rule_counts`): the inverted step comes first.
    counts = 'say = "{mind_flayer} and {waffle}, {back_in_box} back."'
    text = f'[[step]]\nwhen = "not reveal"\nsay = "No reveal."\n[[step]]\n{counts}\n'
    script = parse_script("setup", text, Path("s.toml"))
    step = script.steps[0]
    assert step.when is not None
    assert step.when.holds({"reveal": False})
    assert not step.when.holds({"reveal": True})


def test_unknown_script_name_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="unknown script 'revael'"):
        parse_script("revael", GOOD, Path("revael.toml"))
    with pytest.raises(ScriptError, match="the file is missing"):
        load_script("reveal", tmp_path / "missing.toml")
    binary = tmp_path / "reveal.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ScriptError, match="not UTF-8 text"):
        load_script("reveal", binary)


def test_all_problems_of_a_file_are_reported_together() -> None:
    text = '[[step]]\nsay = "{nope}"\n\n[[step]]\npause = -2\n\n[[step]]\ndance = 1\n'
    found = problems(name="reveal", text=text)
    assert [m.split(": ")[0] for m in found] == ["reveal.toml:2", "reveal.toml:5", "reveal.toml:8"]


def test_a_non_utf8_script_is_reported_at_the_bad_bytes_line(tmp_path: Path) -> None:
    path = tmp_path / "turn.toml"
    path.write_bytes(b'[[step]]\nsay = "Hi"\n\n[[step]]\nsay = "Caf\xe9, {player}"\n')
    with pytest.raises(ScriptError) as refused:
        load_script("turn", path)
    assert f"{path}:5: the file is not UTF-8 text (byte 0xe9)" in str(refused.value)


def test_a_symlink_loop_is_reported_not_ignored(tmp_path: Path) -> None:
    user = tmp_path / "user" / "en"
    user.mkdir(parents=True)
    (user / "turn.toml").symlink_to(user / "turn.toml")
    (tmp_path / "user" / "xx").symlink_to(tmp_path / "user" / "xx")
    library = ScriptLibrary.load(tmp_path / "user")
    loops = [w for w in library.warnings if "a link that leads nowhere" in w]
    assert any(w.startswith(f"{user / 'turn.toml'}:1:") for w in loops)
    assert any(w.startswith(f"{tmp_path / 'user' / 'xx'}:1:") for w in loops)
    assert library.actions("turn", {"player": "Max"}, VoiceSettings(ambience=False)) == [
        Line("Max, your turn.", "en-us")
    ]


def test_a_missing_voice_scripts_folder_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-folder"
    library = ScriptLibrary.load(missing, user_dir_required=True)
    assert library.warnings == [
        f"The voice-scripts folder {missing} does not exist (--voice-scripts); "
        "using the shipped scripts."
    ]
    assert ScriptLibrary.load(missing).warnings == []  # the default config folder may be absent
    assert main(["--voice-scripts", str(missing), "narrate", "turn"]) == 2
    assert f"The voice-scripts folder {missing} does not exist" in capsys.readouterr().err


def test_ambience_steps_start_and_stop_the_bed() -> None:
    text = '[[step]]\nambience = "start"\n\n' + GOOD + '\n[[step]]\nambience = "stop"\n'
    script = parse_script("reveal", text, Path("reveal.toml"))
    marks = [s for s in script.steps if isinstance(s, Ambience)]
    assert [m.start for m in marks] == [True, False]


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ('[[step]]\nambience = "loud"\n', 'reveal.toml:2: ambience must be "start" or "stop"'),
        ('[[step]]\nambience = "stop"\n', 'reveal.toml:2: ambience = "stop" before any "start"'),
        (
            '[[step]]\nambience = "start"\n[[step]]\nambience = "start"\n',
            'reveal.toml:4: ambience = "start" while it already plays',
        ),
    ],
)
def test_a_bad_ambience_step_is_refused_at_its_line(steps: str, expected: str) -> None:
    (message,) = problems(name="reveal", text=steps + "\n" + GOOD)
    assert message.startswith(expected)
