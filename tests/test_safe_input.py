"""The table's files are read by one helper that turns every failure into a sentence.

Each hostile file here made a stdlib parser (or the read itself) raise something other
than its parse error, or block: the helper must answer with `FileProblem` naming the
file (and the line where known), never with that exception, and never hang.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from moderator.safe_input import MAX_BYTES, FileProblem, read_json, read_text, read_toml
from tests.device_nodes import make_device

ZERO_DEVICE = (1, 5)  # /dev/zero's numbers (tests/device_nodes.py)


def problem_of(read: object, path: Path) -> FileProblem:
    with pytest.raises(FileProblem) as caught:
        read(path)  # type: ignore[operator]
    assert caught.value.path == path
    assert str(caught.value).startswith(str(path))
    return caught.value


def test_a_missing_file_is_none(tmp_path: Path) -> None:
    assert read_text(tmp_path / "nothing.toml") is None
    assert read_toml(tmp_path / "nothing.toml") is None
    assert read_json(tmp_path / "nothing.json") is None


def test_toml_nested_too_deeply_is_a_sentence_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text("next-turn = " + "[" * 100_000, encoding="utf-8")
    assert "nested too deeply" in problem_of(read_toml, path).reason


def test_json_nested_too_deeply_is_a_sentence_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    assert "nested too deeply" in problem_of(read_json, path).reason


@pytest.mark.parametrize(("name", "read"), [("a.toml", read_toml), ("a.json", read_json)])
def test_text_that_is_not_utf8_names_the_line_of_the_wrong_byte(
    tmp_path: Path, name: str, read: object
) -> None:
    path = tmp_path / name
    path.write_bytes(b'# first\n\n"caf\xe9"\n')
    problem = problem_of(read, path)
    assert problem.line == 3
    assert "not UTF-8" in problem.reason and "0xe9" in problem.reason
    assert str(problem).startswith(f"{path}:3: ")


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'\xef\xbb\xbf{"rate": 200}')
    assert read_json(path) == {"rate": 200}


@pytest.mark.parametrize(
    ("name", "text", "read"),
    [("a.toml", f"x = {'1' * 5000}\n", read_toml), ("a.json", "1" * 5000, read_json)],
    ids=["toml", "json"],
)
def test_a_number_too_long_to_convert_is_a_sentence(
    tmp_path: Path, name: str, text: str, read: object
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert "a number too long to read" in problem_of(read, path).reason


def test_bad_toml_gives_its_line_once(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text('mute = "v"\n\nnext-turn = space\n', encoding="utf-8")
    problem = problem_of(read_toml, path)
    assert problem.line == 3
    assert problem.reason.startswith("is not valid TOML (Invalid value")
    assert "at line" not in problem.reason, "the line is said once, as path:line"


def test_bad_json_gives_its_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "rate": 200,\n  nope\n}\n', encoding="utf-8")
    problem = problem_of(read_json, path)
    assert problem.line == 3
    assert problem.reason.startswith("is not valid JSON")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.mkdir()
    assert problem_of(read_json, path).reason


def test_a_file_too_large_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES * 50)
    assert "too large" in problem_of(read_json, path).reason


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    os.mkfifo(path)
    assert "not a file" in problem_of(read_toml, path).reason


@pytest.mark.skipif(sys.platform == "win32", reason="device nodes are POSIX")
def test_an_endless_device_is_refused(tmp_path: Path) -> None:
    path = make_device(tmp_path, "settings.json", ZERO_DEVICE)
    assert "not a file" in problem_of(read_json, path).reason
