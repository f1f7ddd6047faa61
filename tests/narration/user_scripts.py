"""A user's voice-scripts folder, written for a test (the scripts are data, read as the app
reads a user's own)."""

from __future__ import annotations

from pathlib import Path


def user_scripts(tmp_path: Path, files: dict[str, str]) -> Path:
    """A user's voice-scripts folder in `tmp_path` holding `files` (path -> text)."""
    root = tmp_path / "user"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root
