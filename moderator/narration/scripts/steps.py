"""A voice script as checked data: its steps, and the problems that refuse a file.

`validation` builds these from a file; `whole_script` checks the steps together;
`library` turns them into what the narrator runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.narration.scripts.templates import Template


@dataclass(frozen=True)
class Condition:
    """`when = "reveal"` or `when = "not reveal"`."""

    flag: str
    negated: bool = False

    def holds(self, flags: Mapping[str, object]) -> bool:
        """Whether the step runs, given the script's flags (missing flags are false)."""
        return bool(flags.get(self.flag, False)) != self.negated


@dataclass(frozen=True)
class Say:
    """Speak a line (and show it as a caption)."""

    template: Template
    when: Condition | None = None
    line: int = 0


@dataclass(frozen=True)
class Pause:
    """Wait, counted from the end of the previous line's audio."""

    #: A fixed number of seconds, or None when `placeholder` gives it.
    seconds: float | None
    placeholder: str | None = None
    when: Condition | None = None
    line: int = 0


@dataclass(frozen=True)
class Ambience:
    """The ambience bed starts (or stops) here; a bed still playing stops with the script."""

    start: bool
    when: Condition | None = None
    line: int = 0


Step = Say | Pause | Ambience


@dataclass(frozen=True)
class Script:
    """One validated script file."""

    name: str
    steps: tuple[Step, ...]
    source: Path
    #: The word that joins lists such as "6+ and 9+" in this language.
    conjunction: str = "and"


@dataclass(frozen=True)
class Problem:
    """One mistake in a script file."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class ScriptError(ValueError):
    """A script file was refused; `problems` says every reason with its line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))
