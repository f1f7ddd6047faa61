"""Narration is portable by construction: no POSIX-only call outside a platform branch.

Windows has no `os.killpg`, `signal.SIGKILL`, `os.setsid`, `fcntl` or `os.pread`,
`selectors` work only on sockets there, and `preexec_fn` / `start_new_session`
are POSIX-only. Read from the source (every module of `moderator.narration`),
so a laptop we cannot test on is protected anyway. A use is allowed only
inside an `if` whose test reads `os.name` or `sys.platform`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

import moderator.narration
from moderator.narration.speech.child_process import LineReader, LineTimeout, end_child, spawn

NARRATION = Path(moderator.narration.__file__).resolve().parent

#: Attribute uses (module.name) that exist on POSIX only.
POSIX_ATTRIBUTES = {
    ("os", "killpg"),
    ("os", "setsid"),
    ("os", "pread"),
    ("os", "getpgid"),
    ("signal", "SIGKILL"),
}
#: Modules that must not be imported outside a platform branch.
POSIX_MODULES = {"fcntl", "selectors", "termios", "resource"}
#: Keyword arguments that only POSIX honours.
POSIX_KEYWORDS = {"preexec_fn", "start_new_session"}


def _is_platform_test(test: ast.expr) -> bool:
    for node in ast.walk(test):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in {("os", "name"), ("sys", "platform")}
        ):
            return True
    return False


def _breaches(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.If) and _is_platform_test(node.test):
            for child in [*node.body, *node.orelse]:
                visit(child, True)
            return
        if not guarded:
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and (node.value.id, node.attr) in POSIX_ATTRIBUTES
            ):
                found.append((node.lineno, f"{node.value.id}.{node.attr}"))
            elif isinstance(node, ast.Import):
                found.extend((node.lineno, a.name) for a in node.names if a.name in POSIX_MODULES)
            elif isinstance(node, ast.ImportFrom) and node.module in POSIX_MODULES:
                found.append((node.lineno, node.module or ""))
            elif isinstance(node, ast.keyword) and node.arg in POSIX_KEYWORDS:
                found.append((node.value.lineno, f"{node.arg}="))
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return found


def test_no_posix_only_call_outside_a_platform_branch() -> None:
    breaches = [
        f"{path.relative_to(NARRATION)}:{line}: {what}"
        for path in sorted(NARRATION.rglob("*.py"))
        for line, what in _breaches(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert breaches == []


def test_the_checker_sees_a_breach_and_honours_a_branch() -> None:
    unguarded = "import os, signal\nos.killpg(1, signal.SIGKILL)\n"
    guarded = "import os, signal\nif os.name == 'posix':\n    os.killpg(1, signal.SIGKILL)\n"
    assert [what for _, what in _breaches(ast.parse(unguarded))] == ["os.killpg", "signal.SIGKILL"]
    assert _breaches(ast.parse(guarded)) == []
    assert _breaches(ast.parse("import selectors\nPopen(x, start_new_session=True)\n")) == [
        (1, "selectors"),
        (2, "start_new_session="),
    ]


def _child(code: str) -> subprocess.Popen[bytes]:
    return spawn([sys.executable, "-c", code], stdout=subprocess.PIPE)


def test_the_pipe_reader_gives_lines_then_end_of_file_and_keeps_the_last_words() -> None:
    process = _child("import sys; sys.stdout.write('one\\ntwo\\nlast words'); sys.stdout.flush()")
    assert process.stdout is not None
    reader = LineReader(process.stdout)
    deadline = time.monotonic() + 30
    assert reader.read_line(deadline) == b"one"
    assert reader.read_line(deadline) == b"two"
    assert reader.read_line(deadline) is None
    assert reader.read_line(deadline) is None  # end of file stays the end
    assert reader.pending == b"last words"
    end_child(process)


def test_a_silent_child_times_out_and_its_killing_ends_the_read() -> None:
    process = _child(
        "import sys, time; sys.stdout.write('half'); sys.stdout.flush(); time.sleep(60)"
    )
    assert process.stdout is not None
    reader = LineReader(process.stdout)
    with pytest.raises(LineTimeout):
        reader.read_line(time.monotonic() + 0.2)
    end_child(process)
    assert reader.read_line(time.monotonic() + 30) is None
    assert process.returncode is not None
