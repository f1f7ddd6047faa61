"""JSON for exports that people may open: one item of a long list per line, written fast.

`json.dumps(..., indent=2)` switches Python to its pure-Python encoder: a
20,000-game export then spends seconds formatting whitespace. Here each item of
the long lists is encoded by the C encoder on one line, and only the few
lines around them are indented: the file stays readable (and diffable, one
series or play per line) and is standard JSON, parsed as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def list_text(items: Sequence[Any], indent: str = "") -> str:
    """A JSON list with one item per line (names as typed, not escaped)."""
    if not items:
        return "[]"
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + _compact(item) for item in items) + f"\n{indent}]"


def document_text(document: Mapping[str, Any]) -> str:
    """A JSON object, one key per line; a list value has one item per line; ends with a newline."""
    lines = [
        f"  {_compact(key)}: "
        + (list_text(value, "  ") if isinstance(value, list) else _compact(value))
        for key, value in document.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"
