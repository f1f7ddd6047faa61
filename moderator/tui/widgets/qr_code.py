"""A QR code drawn with half-block characters: two modules per terminal cell.

A 29-37 module code (the board's URL) fits in 41 columns and 21 rows with its
quiet zone, so it fits at 80x24. Dark modules are drawn as the background
(spaces) and light ones as blocks, in black on white, whatever the theme: a
phone's camera needs dark modules on a light field.
"""

from __future__ import annotations

import segno
from rich.style import Style
from rich.text import Text

#: (top light, bottom light) -> the cell that draws them.
_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
#: Light modules are the foreground (white), dark ones the background (black).
QR_STYLE = Style(color="white", bgcolor="black")


def qr_rows(data: str, border: int = 2) -> list[str]:
    """The QR code of `data` as rows of half blocks (light modules drawn)."""
    code = segno.make(data, error="l", micro=False)
    size = len(code.matrix) + 2 * border
    light = [[True] * size for _ in range(size)]
    for y, row in enumerate(code.matrix):
        for x, module in enumerate(row):
            light[y + border][x + border] = not module
    if size % 2:
        light.append([True] * size)
    return [
        "".join(_HALVES[(top, bottom)] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(light[0::2], light[1::2], strict=True)
    ]


def qr_text(data: str) -> Text:
    """The QR code as Rich text, black on white."""
    return Text("\n".join(qr_rows(data)), style=QR_STYLE, no_wrap=True)
