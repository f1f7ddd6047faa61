"""Letters large enough to read across a table.

`textual.widgets.Digits` only draws digits, and pyfiglet is not a dependency,
so this module carries a tiny 5-pixel-high block font drawn with half blocks
(3 terminal rows). Characters the font lacks are drawn as plain bold text in
the middle row: names are data and are always shown literally (no markup is
ever parsed), only the letter case changes.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

#: 5-row bitmaps; "#" is ink. Upper case only: lower case is drawn in capitals.
_FONT_SOURCE: dict[str, str] = {
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
}

#: Terminal rows of one line of big text (scale 1: half blocks, scale 2: full blocks).
ROWS = 3
ROWS_LARGE = 5
#: Terminal height from which the larger font is used, when the text fits.
LARGE_FROM_HEIGHT = 40


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


FONT: dict[str, tuple[str, ...]] = {char: _compress(bits) for char, bits in _FONT_SOURCE.items()}
FONT_LARGE: dict[str, tuple[str, ...]] = {
    char: _enlarge(bits) for char, bits in _FONT_SOURCE.items()
}


def glyph(char: str, scale: int = 1) -> tuple[str, ...] | None:
    """The block rows for `char`, or None when the font lacks it."""
    return (FONT_LARGE if scale == 2 else FONT).get(char.upper())


def big_width(text: str, scale: int = 1) -> int:
    """Terminal cells the big rendering of `text` needs (one line)."""
    width = 0
    for index, char in enumerate(text):
        rows = glyph(char, scale)
        width += len(rows[0]) if rows else cell_len(char)
        if index < len(text) - 1:
            width += scale
    return width


def big_lines(text: str, scale: int = 1) -> list[str]:
    """The rows of `text` drawn in the block font (one line, no wrapping).

    A character the font lacks is drawn as itself in the middle row.
    """
    height = ROWS_LARGE if scale == 2 else ROWS
    lines = [""] * height
    for index, char in enumerate(text):
        rows = glyph(char, scale)
        if rows is None:
            pad = " " * cell_len(char)
            rows = tuple(char if row == height // 2 else pad for row in range(height))
        for row in range(height):
            lines[row] += rows[row]
            if index < len(text) - 1:
                lines[row] += " " * scale
    return lines


def wrap_words(text: str, width: int, scale: int = 1) -> list[str] | None:
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


def render_big(text: str, width: int, style: Style | str = "", scale: int = 1) -> Text:
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
    """2 (full blocks) on a tall terminal when the text fits in two lines, else 1."""
    if screen_height < LARGE_FROM_HEIGHT or width <= 0:
        return 1
    wrapped = wrap_words(text, width, 2)
    return 2 if wrapped is not None and len(wrapped) <= 2 else 1


class BigText(Widget):
    """A line of text in large block letters, read literally (never as markup)."""

    DEFAULT_CSS = """
    BigText { height: auto; width: 1fr; text-align: center; }
    """

    #: The literal text shown; tests and other widgets read it from here.
    text: reactive[str] = reactive("", layout=True)

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
        """Three (or five) rows per wrapped line, or the plain fallback's height."""
        scale = self._scale(width)
        wrapped = wrap_words(self.text, width, scale) if width > 0 else None
        if wrapped is None:
            return max(1, -(-cell_len(self.text) // max(width, 1)))
        return (ROWS_LARGE if scale == 2 else ROWS) * len(wrapped)
