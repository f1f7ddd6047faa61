"""Player names: what a valid name is, so every layer can trust them.

A name is data, never markup: brackets, emoji and accents are allowed and the
UI renders them literally. Control characters are refused because they would
reach the real terminal as escape sequences.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from moderator.domain.errors import IllegalAction

MAX_NAME_LENGTH = 24


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") for ch in text)


def clean_name(raw: str) -> str:
    """Return the trimmed name, or raise `IllegalAction` saying what is wrong."""
    if _has_control(raw):
        raise IllegalAction("A name cannot contain control characters such as Escape or Tab.")
    name = raw.strip()
    if not name:
        raise IllegalAction("A name cannot be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise IllegalAction(
            f"A name can have at most {MAX_NAME_LENGTH} characters; "
            f"“{name[:MAX_NAME_LENGTH]}…” has {len(name)}."
        )
    return name


def clean_roster(raw_names: Iterable[str]) -> tuple[str, ...]:
    """Clean every name and refuse two names that differ only in case."""
    names = tuple(clean_name(raw) for raw in raw_names)
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise IllegalAction(f"Two players are called “{name}”: each name must be different.")
        seen[key] = name
    return names
