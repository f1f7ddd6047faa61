"""Every name a bench imports from the project still exists (`make bench` runs them all).

A bench runs only when someone runs `make bench`, so a name it imports from the
project's own code or the instruments beside it can vanish unnoticed: bench_prepared
imported `wait_for` from the tests' driver long after it became `until`, and
`make bench` stopped there. This reads each bench's imports, the ones inside
functions too, and looks every name up in its module (third-party modules are
left to the benches).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted((ROOT / "bench").glob("bench_*.py"))
#: Where the benches find the project's modules (each inserts these into sys.path).
SEARCHED = (ROOT, ROOT / "bench")


def project_module(name: str) -> bool:
    """Whether `name` is one of the project's modules (not the stdlib or a dependency)."""
    top = name.split(".")[0]
    return any((folder / top).is_dir() or (folder / f"{top}.py").is_file() for folder in SEARCHED)


def imported_names(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every `from module import name` of the project in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        if project_module(node.module)
        for alias in node.names
    ]


def test_the_benches_are_found() -> None:
    assert len(BENCHES) >= 10
    assert ("driving", "until") in imported_names(ROOT / "bench" / "bench_prepared.py")


@pytest.mark.parametrize("path", BENCHES, ids=[path.stem for path in BENCHES])
def test_every_project_name_a_bench_imports_exists(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder in SEARCHED:
        monkeypatch.syspath_prepend(str(folder))
    missing = [
        f"{module}.{name}"
        for module, name in imported_names(path)
        if not hasattr(importlib.import_module(module), name)
    ]
    assert not missing, f"{path.name} imports names that no longer exist: {missing}"


@pytest.mark.parametrize("path", BENCHES, ids=[path.stem for path in BENCHES])
def test_no_bench_imports_the_tests(path: Path) -> None:
    """A bench runs on its own: what it shares with the tests lives in bench/, not tests/."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    from_tests = [
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        if node.module.split(".")[0] == "tests"
    ]
    searched_tests = [  # sys.path.insert(0, str(ROOT / "tests" / ...)) and the like
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value == "tests"
    ]
    assert not from_tests and not searched_tests, (
        f"{path.name} imports the tests: {from_tests} {searched_tests}"
    )
