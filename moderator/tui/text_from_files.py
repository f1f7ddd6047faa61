"""Text from a file, shown exactly as written and never as markup or terminal codes.

A language name from a voice script's `language.toml`, a sentence quoting a keymap
line, an error message carrying a parser's words: none of it was typed into the app,
so none of it went through the name checks (`moderator.domain.names`). In Textual
such text is dangerous twice over: `[@click=app.quit]` in a `str` becomes a
clickable action (a Select's options are markup), and ESC bytes reach the real
terminal even with `markup=False` (`"\\x1b[2J"` clears the screen). So every such
string is passed through `visible` (control characters removed, like those a name
may not hold) and shown as a `rich.text.Text`, which Textual never parses.
"""

from __future__ import annotations

import unicodedata

from rich.text import Text

from moderator.domain.names import BIDI_CONTROLS

#: Invisible format characters that only join what is around them (an emoji
#: sequence, Persian and Indic spellings, flag tags): kept, as a name keeps them.
_JOINERS = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))
#: Line and paragraph breaks and tabs: a space in their place keeps words apart.
_SPACES = frozenset("\t\n\r\v\f\x85\u2028\u2029")


def visible(text: str) -> str:
    """`text` without control characters, text-direction controls or hidden format marks.

    Breaks and tabs become a space; every other control (ESC, BEL, NUL...) is dropped.
    """
    return "".join(_visible_char(ch) for ch in text)


def _visible_char(ch: str) -> str:
    if ch in _SPACES:
        return " "
    if ch in BIDI_CONTROLS:
        return ""
    category = unicodedata.category(ch)
    if category in ("Cc", "Cs", "Co", "Zl", "Zp"):
        return ""
    if category == "Cf" and ch not in _JOINERS:
        return ""
    return ch


def literal(text: str) -> Text:
    """`text` as a renderable Textual shows literally (no markup), controls removed."""
    return Text(visible(text))
