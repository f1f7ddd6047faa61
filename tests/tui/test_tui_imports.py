"""The TUI's imports: screens stay decoupled (none imports the app or another screen), and
the app module loads only what the first frame needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

TUI = Path(__file__).resolve().parents[2] / "moderator" / "tui"
SCREENS = TUI / "screens"
PHASE_MODULES = {"start", "setup", "reveal", "table", "meeting", "finale", "result", "series"}


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """Modules imported by `path`, and whether each import sits inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module:
                found.append((child.module, in_function))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            visit(child, inside)

    visit(tree, False)
    return found


@pytest.mark.parametrize("path", sorted(SCREENS.glob("*.py")), ids=lambda p: p.name)
def test_a_screen_imports_neither_the_app_nor_another_screen(path: Path) -> None:
    for module, _inside in imports_of(path):
        assert module != "moderator.tui.app", f"{path.name} imports the app"
        if module.startswith("moderator.tui.screens."):
            other = module.rsplit(".", 1)[1]
            assert other not in PHASE_MODULES, f"{path.name} imports the {other} screen"


#: Imports left inside a function for a start-up reason measured by the start-up bench,
#: each commented where it is: (file under moderator/tui, module imported).
LAZY_FOR_START_UP = {
    ("keymap.py", "moderator.tui.key_reference"),
    ("messages.py", "moderator.narration.events"),
}


def test_no_import_inside_a_function_in_the_tui_but_the_measured_ones() -> None:
    """Screens load on first use through `importlib` in app.py (measured there), not this way."""
    found = set()
    for path in sorted(TUI.rglob("*.py")):
        name = path.relative_to(TUI).as_posix()
        inside = {module for module, in_function in imports_of(path) if in_function}
        found |= {(name, module) for module in inside}
        unexplained = sorted(
            inside - {module for file, module in LAZY_FOR_START_UP if file == name}
        )
        assert not unexplained, f"{name} imports inside a function: {unexplained}"
    assert found == LAZY_FOR_START_UP, "an allowed lazy import is gone: drop it from the list"


def test_the_app_module_loads_no_phase_screen_but_the_first() -> None:
    """The first frame needs the start screen only; the others load on first visit."""
    code = (
        "import sys, moderator.tui.app\n"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules "
        "if m.startswith('moderator.tui.screens.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert not PHASE_MODULES & set(eval(loaded)), loaded


def test_the_app_module_loads_neither_the_board_snapshot_nor_the_history_summary() -> None:
    """The phone board's snapshot and the History dialog's summary load on first use.

    Neither is needed for the first frame (bench/bench_tui.py measures the start-up).
    """
    code = "import sys, moderator.tui.app, moderator.tui.run\nprint(sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    for module in ("moderator.board.snapshot", "moderator.storage.history_summary"):
        assert f"'{module}'" not in loaded, f"{module} is loaded with the app"


#: Modules the first frame does not need, each with what loaded it before (docs/startup.md).
NOT_FOR_THE_FIRST_FRAME = {
    # Textual's version, for a canary's failure message only (textual_fixes).
    "importlib.metadata": "textual_fixes read Textual's version at import",
    "email": "importlib.metadata reads package metadata as e-mail headers",
    # The phone board's token (board_token) is made from os.urandom.
    "secrets": "board_token made its token with secrets",
    "hmac": "secrets imports hmac",
    # The cues: the controller imports them in the methods that make one.
    "moderator.table.cues": "the controller imported every cue type at import",
    # The BG Stats export: the controller imports it when a game is exported.
    "moderator.storage.export": "the controller imported play_export (bgstats, export rows)",
    # The captions of the phase screens (BigText needs only `relayout.fixed_width`).
    "moderator.tui.widgets.caption": "BigText imported fixed_width from the captions",
}


def test_the_command_loads_nothing_its_first_frame_does_not_need() -> None:
    """The command's imports, up to the start screen's, leave these modules for later.

    As the `mindflayer` command starts (bench/bench_tui.py's child): the command
    line, the app, and the start screen's module (loaded with its mode).
    """
    code = (
        "import sys, moderator.cli, moderator.tui.run, moderator.tui.screens.start\n"
        "print(sorted(sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    early = {
        module: why for module, why in NOT_FOR_THE_FIRST_FRAME.items() if f"'{module}'" in loaded
    }
    assert not early, f"loaded before the first frame: {early}"
