"""The numbers a sentence states, for the setup's checklist on screen and its spoken script:
both must state the same counts, whatever order each language puts its words in."""

from __future__ import annotations

import re

#: A number as stated: "7", or a player symbol "6+".
NUMBER = re.compile(r"\d+\+?")


def numbers(text: str) -> list[str]:
    """The numbers `text` states, sorted (each language, and the voice, orders its words)."""
    return sorted(NUMBER.findall(text))
