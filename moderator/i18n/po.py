"""Reads a gettext `.po` catalog and writes the `.mo` file Python's `gettext` loads.

Standard library only, so the wheel's build hook (`hatch_build.py`) and a source
checkout's first start both compile the catalogs without Babel or the GNU tools
(those are the translators' tools: `make catalogs`). A fuzzy entry is left out, as
`msgfmt` does: a guess is never shown to the table.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

#: gettext's separator between a context and its msgid, and between plural forms.
CONTEXT_SEPARATOR = "\x04"
PLURAL_SEPARATOR = "\x00"
#: The magic number that opens a little-endian `.mo` file.
MO_MAGIC = 0x950412DE


class CatalogError(ValueError):
    """A `.po` file that cannot be read; `str(error)` names the file and line."""


@dataclass
class Entry:
    """One message of a catalog, as the `.po` file holds it."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    #: msgstr, or msgstr[0], msgstr[1]... for a plural message.
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    #: The line the entry starts on (for sentences about it).
    line: int = 0

    @property
    def key(self) -> str:
        """The entry's key in a `.mo` file: context, msgid and plural joined."""
        key = self.msgid
        if self.msgid_plural is not None:
            key += PLURAL_SEPARATOR + self.msgid_plural
        if self.msgctxt is not None:
            key = self.msgctxt + CONTEXT_SEPARATOR + key
        return key

    @property
    def value(self) -> str:
        """The translation as a `.mo` file holds it (plural forms joined)."""
        return PLURAL_SEPARATOR.join(self.msgstr[index] for index in sorted(self.msgstr))


def read_po(path: Path) -> list[Entry]:
    """Every entry of a `.po` file (the header is the entry whose msgid is "").

    Obsolete entries (`#~`) are skipped. Raises CatalogError on a line it cannot read.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CatalogError(f"The catalog {path} cannot be read: {error}.") from error
    entries: list[Entry] = []
    current = Entry()
    started = False
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal current, started
        if started:
            entries.append(current)
        current, started = Entry(), False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if started and current.msgstr:  # the comments of the next entry
                finish()
            if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                current.fuzzy = True
            continue
        if line.startswith('"'):
            if target is None:
                raise CatalogError(f"{path}, line {number}: a string outside any entry.")
            _append(current, target, _unquote(line, path, number))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and started and current.msgstr:
            finish()
        if not started:
            current.line, started = number, True
        if keyword.startswith("msgstr["):
            try:
                index = int(keyword[len("msgstr[") : -1])
            except ValueError:
                raise CatalogError(
                    f"{path}, line {number}: {keyword} is not a plural form."
                ) from None
            target = ("msgstr", index)
        elif keyword in ("msgid", "msgid_plural", "msgctxt", "msgstr"):
            target = (keyword, 0)
        else:
            raise CatalogError(f"{path}, line {number}: {keyword!r} is not a .po keyword.")
        _set(current, target, _unquote(rest.strip(), path, number))
    finish()
    return entries


def _unquote(literal: str, path: Path, number: int) -> str:
    if not (len(literal) >= 2 and literal[0] == literal[-1] == '"'):
        raise CatalogError(f"{path}, line {number}: a string must be in double quotes.")
    import ast  # only when compiling (a source checkout's start with a new catalog)

    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        raise CatalogError(f"{path}, line {number}: the string {literal} cannot be read.") from None
    if not isinstance(value, str):  # pragma: no cover - a quoted literal is a str
        raise CatalogError(f"{path}, line {number}: not a string.")
    return value


def _set(entry: Entry, target: tuple[str, int], value: str) -> None:
    name, index = target
    if name == "msgstr":
        entry.msgstr[index] = value
    else:
        setattr(entry, name, value)


def _append(entry: Entry, target: tuple[str, int], value: str) -> None:
    name, index = target
    if name == "msgstr":
        entry.msgstr[index] = entry.msgstr.get(index, "") + value
    else:
        setattr(entry, name, (getattr(entry, name) or "") + value)


def mo_bytes(entries: list[Entry]) -> bytes:
    """The `.mo` file of these entries: fuzzy and untranslated ones are left out.

    The header (msgid "") is kept even when fuzzy: it carries the plural rule.
    """
    kept = {
        entry.key: entry.value
        for entry in entries
        if (entry.msgid == "" and entry.msgctxt is None)
        or (entry.msgstr and not entry.fuzzy and all(entry.msgstr.values()))
    }
    keys = sorted(kept)
    ids = [key.encode("utf-8") for key in keys]
    strs = [kept[key].encode("utf-8") for key in keys]
    count = len(keys)
    # The header, then the two tables of (length, offset), then the strings.
    ids_at = 7 * 4 + 16 * count
    strs_at = ids_at + sum(len(data) + 1 for data in ids)
    tables: list[int] = []
    for start, strings in ((ids_at, ids), (strs_at, strs)):
        for data in strings:
            tables += [len(data), start]
            start += len(data) + 1
    header = struct.pack("<7I", MO_MAGIC, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0)
    return (
        header
        + struct.pack(f"<{4 * count}I", *tables)
        + b"".join(data + b"\0" for data in ids + strs)
    )


def compile_po(path: Path) -> bytes:
    """A `.po` file compiled to the bytes of its `.mo` file."""
    return mo_bytes(read_po(path))
