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

#: Terminal rows of one line of big text.
ROWS = 3


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


FONT: dict[str, tuple[str, ...]] = {char: _compress(bits) for char, bits in _FONT_SOURCE.items()}


def glyph(char: str) -> tuple[str, ...] | None:
    """The block rows for `char`, or None when the font lacks it."""
    return FONT.get(char.upper())


def big_width(text: str) -> int:
    """Terminal cells the big rendering of `text` needs (one line)."""
    width = 0
    for index, char in enumerate(text):
        rows = glyph(char)
        width += len(rows[0]) if rows else cell_len(char)
        if index < len(text) - 1:
            width += 1
    return width


def big_lines(text: str) -> list[str]:
    """The 3 rows of `text` drawn in the block font (one line, no wrapping)."""
    lines = ["", "", ""]
    for index, char in enumerate(text):
        rows = glyph(char)
        if rows is None:
            pad = " " * cell_len(char)
            rows = (pad, char, pad)
        for row in range(ROWS):
            lines[row] += rows[row]
            if index < len(text) - 1:
                lines[row] += " "
    return lines


def wrap_words(text: str, width: int) -> list[str] | None:
    """Split `text` into lines whose big rendering fits `width`; None if a word can't."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if big_width(candidate) <= width:
            current = candidate
            continue
        if big_width(word) > width:
            return None
        if current:
            lines.append(current)
        current = word
    lines.append(current)
    return lines


def render_big(text: str, width: int, style: Style | str = "") -> Text:
    """Big text for `text` wrapped to `width`, or plain bold text when it can't fit."""
    wrapped = wrap_words(text, width) if width > 0 else None
    if wrapped is None:
        return Text(text, style=Style.parse("bold") + Style.parse(str(style) or "none"))
    result = Text(style=style, no_wrap=True, overflow="crop")
    for number, line in enumerate(wrapped):
        if number:
            result.append("\n")
        result.append("\n".join(big_lines(line)))
    return result


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

    def render(self) -> Text:
        """Draw the text as big as the widget's width allows."""
        text = render_big(self.text, self.content_region.width or self.size.width)
        text.justify = "center"
        return text

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """Three rows per wrapped line, or the plain fallback's height."""
        wrapped = wrap_words(self.text, width) if width > 0 else None
        if wrapped is None:
            return max(1, -(-cell_len(self.text) // max(width, 1)))
        return ROWS * len(wrapped)
