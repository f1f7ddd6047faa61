"""The import-linter contracts in pyproject.toml hold, and they catch a layer breach.

`make lint` runs `lint-imports` on the tree; these tests also prove the
contracts are not vacuous: the same contracts, run on a copy of the package
with one forbidden import added, report it broken.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run the contracts of `tree`/pyproject.toml on the package found in `tree`."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(tree / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        timeout=120,
        check=False,
    )


def copy_of_the_project(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "moderator", tree / "moderator", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    done = lint_imports(copy_of_the_project(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout


@pytest.mark.slow  # lint-imports on a copy of the project, once per breach
@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("domain/breach.py", "import textual", "The domain imports no UI"),
        ("domain/breach.py", "import sqlite3", "The domain imports no UI"),
        ("domain/breach.py", "from moderator import paths", "Layers"),
        ("storage/breach.py", "import moderator.narration", "Layers"),
        ("storage/breach.py", "import pyttsx3", "Storage imports no UI or speech"),
        ("narration/breach.py", "from moderator.tui import app", "Layers"),
        ("narration/breach.py", "import rich", "Narration imports no UI or database"),
        ("tui/breach.py", "import sqlite3", "The TUI reaches the database"),
        ("tui/breach.py", "import pyttsx3", "The TUI reaches the database"),
        ("safe_input.py", "import moderator.narration", "Layers"),
        ("domain/breach.py", "from moderator import safe_input", "Layers"),
        ("board/breach.py", "import textual", "The phone board imports no UI"),
        ("board/breach.py", "from moderator.tui import app", "Layers"),
        ("board/breach.py", "import moderator.storage", "Layers"),
        ("table/breach.py", "import textual", "The table imports no UI"),
        ("table/breach.py", "import sqlite3", "The table imports no UI"),
        ("table/breach.py", "from moderator.tui import app", "Layers"),
        ("storage/breach.py", "import moderator.table", "Layers"),
        ("storage/breach.py", "import moderator.history_report", "Layers"),
        ("history_report/breach.py", "import moderator.table", "Layers"),
        ("history_report/breach.py", "import sqlite3", "The history's report imports no UI"),
        ("history_report/breach.py", "import textual", "The history's report imports no UI"),
    ],
)
def test_a_forbidden_import_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    tree = copy_of_the_project(tmp_path)
    (tree / "moderator" / module).write_text(f"{line}\n", encoding="utf-8")
    done = lint_imports(tree)
    assert done.returncode != 0, done.stdout[-3000:]
    broken = done.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, done.stdout[-3000:]


def test_the_storage_circle_stays_broken(tmp_path: Path) -> None:
    """Issue 21: `records` named `SavedGame` (for `Unfinished`), which needs `journal`,
    which needs `records`. Putting that import back breaks the acyclic contract."""
    tree = copy_of_the_project(tmp_path)
    records = tree / "moderator" / "storage" / "records.py"
    text = records.read_text(encoding="utf-8")
    records.write_text(
        text + "\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from moderator.storage.saved_game import SavedGame\n",
        encoding="utf-8",
    )
    done = lint_imports(tree)
    assert done.returncode != 0, done.stdout[-3000:]
    broken = done.stdout.split("Broken contracts", 1)[-1]
    assert "Storage modules import each other without a circle" in broken, done.stdout[-3000:]
