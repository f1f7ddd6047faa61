"""The domain must stay free of UI, speech and database code."""

from __future__ import annotations

import subprocess
import sys


def test_domain_imports_no_textual_pyttsx3_or_sqlite3() -> None:
    code = (
        "import sys, moderator.domain, moderator.domain.timeline;"
        "banned = ('textual', 'pyttsx3', 'sqlite3', '_sqlite3', 'rich');"
        "bad = [m for m in banned if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
