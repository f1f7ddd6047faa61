"""Reading a file the table edits (settings, keymap, voice scripts) without ever crashing.

Such a file can hold anything a text editor, a paste or a bad disk leaves: bytes
that are not UTF-8, a hundred thousand nested brackets (the stdlib parsers recurse
and raise `RecursionError`), numbers too long to convert, gigabytes, or it may be a
folder, a device or a FIFO that blocks the reader forever. This module is the one
place those files are read and parsed: every failure becomes a `FileProblem`, whose
`str()` names the file (and the line where it is known) and says what is wrong in
words, and a missing file is `None`. Callers only choose what to fall back to.

Stdlib only and free of the app's layers, like `safe_output`, so the TUI and the
narration layer share it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from moderator.domain.worded import N_, Phrase

#: Larger than any settings, keymap or voice-script file a table writes (a few KiB),
#: small enough that reading it never stalls the start.
MAX_BYTES = 1_000_000

#: Python's parsers fail on these inputs without a parse error of their own: nesting
#: deeper than the recursion limit, no memory left, an integer longer than
#: `sys.get_int_max_str_digits()` (ValueError: the only one their syntax errors do not cover).
_PARSER_FAILURES = (RecursionError, MemoryError, ValueError)
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column \d+\)|\s*\(at end of document\)")
#: Opens without waiting for a writer when the path is a FIFO (POSIX); 0 elsewhere.
_NON_BLOCKING = getattr(os, "O_NONBLOCK", 0)
#: Windows reads in text mode unless told otherwise; 0 elsewhere.
_BINARY = getattr(os, "O_BINARY", 0)


class FileProblem(ValueError):
    """A table's file could not be used; `str()` is `path:line: reason` (line when known).

    The reason is an English template (`N_`) and its fields, as a `Worded` error's
    is: this module sits below `moderator.i18n`, so the screen translates it
    (`reason_in`); the system's and the parser's own words are fields, as they are.

    Attributes:
        path: the file.
        line: 1-based line of the problem, or None when the file as a whole is at fault.
        reason: what is wrong in English, phrased to follow "it" ("is not valid TOML ...").
    """

    def __init__(
        self, path: Path, template: Phrase, line: int | None = None, **fields: object
    ) -> None:
        self.path = path
        self.line = line
        self.template = template
        self.fields = fields
        self.reason = template.format(**fields)
        super().__init__(f"{self.where}: {self.reason}")

    def reason_in(self, gettext: Callable[[str], str]) -> str:
        """The reason through `gettext` (the English one if a translation breaks it)."""
        try:
            return gettext(self.template).format(**self.fields)
        except (KeyError, IndexError, ValueError, AttributeError):
            return self.reason

    @property
    def where(self) -> str:
        """`path:line`, or the path alone when no line is known."""
        return f"{self.path}:{self.line}" if self.line is not None else str(self.path)


def escaped(text: str | Path) -> str:
    """`text` (a file's name, a path) with every invisible or reordering character escaped.

    A folder named with a right-to-left mark is shown reordered, under another
    name than the one on disk; an escape sequence would act on the terminal.
    Each such character is written as its `\\uXXXX` escape, so the name quoted is
    the real one and can be found again.
    """
    return "".join(_escaped_char(char) for char in str(text))


def _escaped_char(char: str) -> str:
    if unicodedata.category(char) not in _HIDDEN_CATEGORIES:
        return char
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


#: Control, format (the bidi marks among them), surrogate, private-use and separator characters.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def read_text(path: Path) -> str | None:
    """The file's text, or None if there is no such file.

    Only a regular file is read (a FIFO or a device is refused without blocking),
    at most `MAX_BYTES`, decoded as UTF-8 (a byte-order mark, as Windows editors
    write, is allowed).

    Raises:
        FileProblem: the file cannot be read, is not a regular file, is too large,
            or is not UTF-8 (with the line of the first wrong byte).
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NON_BLOCKING | _BINARY)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FileProblem(
            path, N_("could not be read ({error})"), error=error.strerror or str(error)
        ) from error
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise FileProblem(path, N_("is not a file (a folder, a device or a pipe)"))
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise FileProblem(
            path, N_("could not be read ({error})"), error=error.strerror or str(error)
        ) from error
    if len(data) > MAX_BYTES:
        raise FileProblem(path, N_("is too large (over {limit} bytes)"), limit=f"{MAX_BYTES:,}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FileProblem(
            path,
            N_("is not UTF-8 text (byte 0x{byte}); save it as UTF-8"),
            line,
            byte=f"{data[error.start]:02x}",
        ) from error


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """The TOML document in `text`; `path` names it in the problem.

    Raises:
        FileProblem: not valid TOML (with its line when the parser gives one), or
            a document the parser cannot hold (nested too deeply, a number too long).
    """
    # Start-up (docs/startup.md): the TOML parser is loaded only when the table has
    # a file to read; a start without a keymap file never pays for it.
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", None) or _toml_line(str(error))
        message = _TOML_WHERE.sub("", getattr(error, "msg", None) or str(error))
        raise FileProblem(path, N_("is not valid TOML ({detail})"), line, detail=message) from error
    except _PARSER_FAILURES as error:
        raise _unparsable(path, error) from error


def parse_json(text: str, path: Path) -> Any:
    """The JSON value in `text`; `path` names it in the problem.

    Raises:
        FileProblem: not valid JSON (with its line), or a value the parser cannot
            hold (nested too deeply, a number too long).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FileProblem(
            path, N_("is not valid JSON ({detail})"), error.lineno, detail=error.msg
        ) from error
    except _PARSER_FAILURES as error:
        raise _unparsable(path, error) from error


def read_toml(path: Path) -> dict[str, Any] | None:
    """`read_text` then `parse_toml`: the document, or None if there is no such file."""
    text = read_text(path)
    return None if text is None else parse_toml(text, path)


def read_json(path: Path) -> Any:
    """`read_text` then `parse_json`: the value, or None if there is no such file."""
    text = read_text(path)
    return None if text is None else parse_json(text, path)


def _toml_line(message: str) -> int | None:
    found = re.search(r"at line (\d+)", message)
    return int(found.group(1)) if found else None


def _unparsable(path: Path, error: BaseException) -> FileProblem:
    """The problem for a parser failure that is not a syntax error."""
    if isinstance(error, RecursionError):
        return FileProblem(path, N_("has brackets nested too deeply to read"))
    if isinstance(error, MemoryError):
        return FileProblem(path, N_("is too large to read"))
    return FileProblem(
        path,
        N_("has a number too long to read (over {digits} digits)"),
        digits=sys.get_int_max_str_digits(),
    )
