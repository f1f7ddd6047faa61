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
    return encoded_list_text([_compact(item) for item in items], indent)


def encoded_list_text(items: Sequence[str], indent: str = "") -> str:
    """`list_text` of items already encoded, each as `json.dumps(item, ensure_ascii=False)`."""
    if not items:
        return "[]"
    inner = indent + "  "
    return f"[\n{inner}" + f",\n{inner}".join(items) + f"\n{indent}]"  # one join, in C


def quoted(text: str) -> str:
    """`text` as a JSON string, as `json.dumps(text, ensure_ascii=False)` writes it."""
    return _compact(text)


class Encoded(list[str]):
    """A list value of `document_text` whose items are already encoded (`encoded_list_text`)."""


def document_text(document: Mapping[str, Any]) -> str:
    """A JSON object, one key per line; a list value has one item per line; ends with a newline."""
    lines = [f"  {_compact(key)}: " + _value_text(value) for key, value in document.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _value_text(value: Any) -> str:
    if isinstance(value, Encoded):
        return encoded_list_text(value, "  ")
    return list_text(value, "  ") if isinstance(value, list) else _compact(value)
