"""Letters large enough to read across a table.

`textual.widgets.Digits` only draws digits (in thin line drawing), and pyfiglet
is not a dependency, so this module carries a tiny 5-pixel-high block font in
three sizes, all solid blocks:

- `LARGE` (scale 2): 5 rows, each pixel two full blocks wide;
- `SOLID` (scale 3): 5 rows, each pixel one full block wide (half the width);
- `COMPACT` (scale 1): 3 rows of half blocks, for long text on small screens.

The largest size whose wrapped text fits the width and about two fifths of
the screen's height is used, so on an 80x24 terminal a name or a turn number
keeps the 5-row solid letters it has at 120x40, and only long captions drop to
the compact size. Accented capitals, ß, ¿ and ¡ are drawn at full height
(`block_letters`); another letter degrades to its base letters; a character
with no letter of the font in it (Ω, emoji, CJK …) is drawn as the font's
placeholder box, never as a small letter in the middle row. Text is composed
first (NFC: an "e" typed with a combining accent is an "é") and marks left
over, with nothing to sit on, take no room. Names are data and are always
shown literally (no markup is ever parsed), only the letter case changes.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from moderator.tui.widgets.block_letters import (
    EXTRA_LETTERS,
    PLACEHOLDER,
    accented_letters,
    base_letters,
)
from moderator.tui.widgets.relayout import fixed_width

#: 5-row bitmaps; "#" is ink. Upper case only: lower case is drawn in capitals.
_LATIN: dict[str, str] = {
    "A": ".#. #.# ### #.# #.#",
    "B": "##. #.# ##. #.# ##.",
    "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.",
    "E": "### #.. ##. #.. ###",
    "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##",
    "H": "#.# #.# ### #.# #.#",
    "I": "### .#. .#. .#. ###",
    "J": "..# ..# ..# #.# .#.",
    "K": "#.# #.# ##. #.# #.#",
    "L": "#.. #.. #.. #.. ###",
    "M": "#...# ##.## #.#.# #...# #...#",
    "N": "#..# ##.# #.## #..# #..#",
    "O": ".#. #.# #.# #.# .#.",
    "P": "##. #.# ##. #.. #..",
    "Q": ".#. #.# #.# ##. .##",
    "R": "##. #.# ##. #.# #.#",
    "S": ".## #.. .#. ..# ##.",
    "T": "### .#. .#. .#. .#.",
    "U": "#.# #.# #.# #.# ###",
    "V": "#.# #.# #.# #.# .#.",
    "W": "#...# #...# #.#.# ##.## #...#",
    "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.",
    "Z": "### ..# .#. #.. ###",
    "0": "### #.# #.# #.# ###",
    "1": ".#. ##. .#. .#. ###",
    "2": "##. ..# .#. #.. ###",
    "3": "##. ..# .#. ..# ##.",
    "4": "#.# #.# ### ..# ..#",
    "5": "### #.. ##. ..# ##.",
    "6": ".## #.. ### #.# ###",
    "7": "### ..# .#. .#. .#.",
    "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ##.",
    " ": ".. .. .. .. ..",
    "-": "... ... ### ... ...",
    ".": ". . . . #",
    "!": "# # # . #",
    "?": "##. ..# .#. ... .#.",
    "'": "# # . . .",
    ":": ". # . # .",
    ",": ". . . # #",
    "●": "... ### ### ### ...",
    "○": "... ### #.# ### ...",
    "&": ".#. #.# .#. #.# .##",
    "/": "..# ..# .#. #.. #..",
    **EXTRA_LETTERS,
}

#: The font sizes (the `scale` argument below).
COMPACT = 1
LARGE = 2
SOLID = 3
#: Terminal rows of one line of big text (compact: half blocks; large and solid: full blocks).
ROWS = 3
ROWS_LARGE = 5
ROWS_SOLID = 5
#: Big text may take at most this share of the terminal's height (5 rows always fit).
HEIGHT_SHARE = 2 / 5


def _compress(bitmap: str) -> tuple[str, ...]:
    """Turn a 5-row bitmap into 3 rows of half-block characters."""
    rows = bitmap.split()
    rows.append("." * len(rows[0]))
    out: list[str] = []
    for top, bottom in zip(rows[0::2], rows[1::2], strict=True):
        line = ""
        for upper, lower in zip(top, bottom, strict=True):
            line += {
                ("#", "#"): "█",
                ("#", "."): "▀",
                (".", "#"): "▄",
                (".", "."): " ",
            }[(upper, lower)]
        out.append(line)
    return tuple(out)


def _enlarge(bitmap: str) -> tuple[str, ...]:
    """The 5-row bitmap at full size: each pixel two full blocks wide."""
    return tuple(row.replace("#", "██").replace(".", "  ") for row in bitmap.split())


def _solid(bitmap: str) -> tuple[str, ...]:
    """The 5-row bitmap in full blocks, one cell per pixel."""
    return tuple(row.replace("#", "█").replace(".", " ") for row in bitmap.split())


#: How each size draws a 5-row bitmap (an unknown scale draws as `COMPACT`).
_DRAW = {COMPACT: _compress, LARGE: _enlarge, SOLID: _solid}


@cache
def font_at(scale: int = COMPACT) -> dict[str, tuple[str, ...]]:
    """Every letter's block rows at `scale`, the accented capitals too.

    Built on first use, one size at a time: the start screen draws its title in
    one size, and building all three at import cost the first frame
    (docs/startup.md).
    """
    draw = _DRAW.get(scale, _compress)
    source = {**_LATIN, **accented_letters(_LATIN)}
    return {char: draw(bits) for char, bits in source.items()}


_ROWS = {COMPACT: ROWS, LARGE: ROWS_LARGE, SOLID: ROWS_SOLID}
#: Blank cells between two letters.
_GAP = {COMPACT: 1, LARGE: 2, SOLID: 1}
#: Unicode categories drawn as nothing: enclosing marks, format characters (ZWJ …).
_NO_ROOM = frozenset({"Me", "Mn", "Cf"})


def rows_of(scale: int) -> int:
    """Terminal rows one line of text takes at `scale`."""
    return _ROWS.get(scale, ROWS)


@lru_cache(maxsize=4096)
def glyph(char: str, scale: int = COMPACT) -> tuple[str, ...] | None:
    """The block rows for `char` (its capital, or the base letters it degrades to).

    None when no letter of it is in the font (the caller then draws the placeholder box).
    """
    font = font_at(scale)
    capital = char.upper()
    rows = font.get(capital)
    if rows is not None:
        return rows
    # "ß".upper() is "SS"; "Ś" degrades to "S", "Ⅻ" to "XII".
    letters = capital if all(letter in font for letter in capital) else base_letters(char, font)
    if not letters:
        return None
    gap = " " * _GAP.get(scale, 1)
    return tuple(gap.join(font[letter][row] for letter in letters) for row in range(rows_of(scale)))


def drawn(char: str, scale: int = COMPACT) -> tuple[str, ...]:
    """The block rows `char` is drawn with: its glyph, else the placeholder box."""
    rows = glyph(char, scale)
    if rows is None:
        rows = font_at(scale)[PLACEHOLDER]
    return rows


@lru_cache(maxsize=1024)
def drawable(text: str) -> str:
    """`text` composed (NFC), without the marks and format characters that take no room.

    A combining accent left alone after composing, a zero-width joiner or a
    variation selector has no glyph and no width of its own: drawn, each
    would be a placeholder box between two letters.
    """
    return "".join(
        char
        for char in unicodedata.normalize("NFC", text)
        if not unicodedata.combining(char) and unicodedata.category(char) not in _NO_ROOM
    )


def big_width(text: str, scale: int = COMPACT) -> int:
    """Terminal cells the big rendering of `text` needs (one line)."""
    chars = drawable(text)
    gaps = _GAP.get(scale, 1) * max(len(chars) - 1, 0)
    return gaps + sum(len(drawn(char, scale)[0]) for char in chars)


def big_lines(text: str, scale: int = COMPACT) -> list[str]:
    """The rows of `text` drawn in the block font (one line, no wrapping).

    A character the font lacks, even by its base letters, is the placeholder box.
    """
    gap = " " * _GAP.get(scale, 1)
    glyphs = [drawn(char, scale) for char in drawable(text)]
    return [gap.join(rows[row] for rows in glyphs) for row in range(rows_of(scale))]


def wrap_words(text: str, width: int, scale: int = COMPACT) -> list[str] | None:
    """Split `text` into lines whose big rendering fits `width`; None if a word can't."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if big_width(candidate, scale) <= width:
            current = candidate
            continue
        if big_width(word, scale) > width:
            return None
        if current:
            lines.append(current)
        current = word
    lines.append(current)
    return lines


def render_big(text: str, width: int, style: Style | str = "", scale: int = COMPACT) -> Text:
    """Big text for `text` wrapped to `width`, or plain bold text when it can't fit."""
    wrapped = wrap_words(text, width, scale) if width > 0 else None
    if wrapped is None:
        return Text(text, style=Style.parse("bold") + Style.parse(str(style) or "none"))
    result = Text(style=style, no_wrap=True, overflow="crop")
    for number, line in enumerate(wrapped):
        if number:
            result.append("\n")
        result.append("\n".join(big_lines(line, scale)))
    return result


def pick_scale(text: str, width: int, screen_height: int) -> int:
    """The largest solid font whose text fits `width` in at most two lines and
    about two fifths of the screen's height; the compact font otherwise.

    So a name or a turn number stays 5 rows of full blocks on an 80x24 terminal,
    while a long caption there still wraps in the compact font.
    """
    if width <= 0:
        return COMPACT
    budget = max(ROWS_SOLID, int(screen_height * HEIGHT_SHARE))
    for scale in (LARGE, SOLID):
        wrapped = wrap_words(text, width, scale)
        if wrapped is not None and len(wrapped) <= 2 and rows_of(scale) * len(wrapped) <= budget:
            return scale
    return COMPACT


class BigText(Widget):
    """A line of text in large block letters, read literally (never as markup)."""

    DEFAULT_CSS = """
    BigText { height: auto; width: 1fr; text-align: center; }
    """

    #: The literal text shown; tests and other widgets read it from here. A new text
    #: repaints the widget; the screen is laid out again only if its height changes.
    text: reactive[str] = reactive("")

    def __init__(
        self,
        text: str = "",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(BigText.text, text)

    def _scale(self, width: int) -> int:
        return pick_scale(self.text, width, self.app.size.height)

    def render(self) -> Text:
        """Draw the text as big as the widget's width (and the terminal) allows."""
        width = self.content_region.width or self.size.width
        text = render_big(self.text, width, scale=self._scale(width))
        text.justify = "center"
        return text

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """Three or five rows per wrapped line, or the plain fallback's height."""
        return self._rows(self.text, width)

    def _rows(self, text: str, width: int) -> int:
        """The rows `text` takes at `width`."""
        scale = pick_scale(text, width, self.app.size.height)
        wrapped = wrap_words(text, width, scale) if width > 0 else None
        if wrapped is None:
            return max(1, -(-cell_len(text) // max(width, 1)))
        return rows_of(scale) * len(wrapped)

    def watch_text(self, old: str, new: str) -> None:
        """A layout only when the new text takes other rows at the width the widget has.

        A layout arranges the whole screen again: the next turn's number or
        name, as tall as the last, needs only this widget repainted.
        """
        width = fixed_width(self)
        if not width or self._rows(old, width) != self._rows(new, width):
            self.refresh(layout=True)

    def update(self, text: str) -> None:
        """Show `text` (the same call as `Digits.update`, so either can show a number)."""
        self.text = text
