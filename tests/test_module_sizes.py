"""No module of the app grows past 400 lines: a big module is split, not grown.

Small modules with names that explain them are a standard of the project
(README): a module over the limit fails here, naming itself and its length.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "moderator"
LIMIT = 400


def test_no_module_of_the_app_is_over_400_lines() -> None:
    too_long = {
        str(path.relative_to(PACKAGE.parent)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not too_long, f"split these modules (over {LIMIT} lines): {too_long}"
