"""What a voice script is refused for: the problems `parse_script` names, each with the file
and line, as the table is told them."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.narration.scripts.steps import ScriptError
from moderator.narration.scripts.validation import parse_script


def problems(text: str, name: str = "reveal") -> list[str]:
    """The problems of `text` read as the `name` script of a file reveal.toml (it must fail)."""
    with pytest.raises(ScriptError) as caught:
        parse_script(name, text, Path("reveal.toml"))
    return [str(p) for p in caught.value.problems]
