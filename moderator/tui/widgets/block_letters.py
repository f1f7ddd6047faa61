"""The big text's letters beyond A–Z: accented capitals, ß, ¿, ¡ and typographic marks.

The voice scripts (and the captions drawn from them) are French, German and
Spanish as well as English, and names are anything a table types. A letter the
block font lacked used to drop to a plain small letter in the middle row, so
"POSSÉDÉS" read as "POSS é D é S" across the table. Here every accented
capital of those languages is drawn at full height: the accent takes the top
row and the base letter is redrawn in the four rows below (a cedilla takes the
bottom row instead). Any other letter with a decomposition (Ś, Ž, Ⅻ, ﬁ …)
degrades to its base letters in the ordinary font rather than to a small
letter, and so does a Latin letter Unicode gives no decomposition but names
after its base (Ł is "LATIN CAPITAL LETTER L WITH STROKE"). Anything else
(Ω, Я, emoji, CJK …) is drawn as `PLACEHOLDER`, a full-height box: a small
letter in the middle row of the big text cannot be read across a table.

Bitmaps use the font's notation: rows separated by spaces, "#" is ink.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

#: The base letters in four rows, for a capital with an accent above (or a cedilla below).
_FOUR_ROWS: dict[str, str] = {
    "A": ".#. #.# ### #.#",
    "C": ".## #.. #.. .##",
    "E": "### ##. #.. ###",
    "I": "### .#. .#. ###",
    "N": "#..# ##.# #.## #..#",
    "O": ".#. #.# #.# .#.",
    "U": "#.# #.# #.# ###",
    "Y": "#.# .#. .#. .#.",
}

#: One row of accent for a letter 3 or 4 pixels wide, by combining mark.
_ACCENTS: dict[str, dict[int, str]] = {
    "\u0301": {3: "..#", 4: "..#."},  # acute
    "\u0300": {3: "#..", 4: ".#.."},  # grave
    "\u0302": {3: ".#.", 4: ".##."},  # circumflex
    "\u0308": {3: "#.#", 4: "#..#"},  # diaeresis
    "\u0303": {3: "###", 4: "####"},  # tilde
    "\u030a": {3: ".#.", 4: ".##."},  # ring
}

#: The cedilla's row under a three-pixel C.
_CEDILLA = "\u0327"
_CEDILLA_ROW = ".#."

#: Letters and marks drawn whole, as the five-row font draws A–Z.
EXTRA_LETTERS: dict[str, str] = {
    # U and Y have arms where the dots go: the dots stand apart above a shorter letter.
    "Ü": ".#.#. ..... #...# #...# .###.",
    "Ÿ": ".#.#. ..... #...# .#.#. ..#..",
    "Æ": ".#### #.#.. ####. #.#.. #.###",
    "Œ": ".#### #.#.. #.##. #.#.. .####",
    "Ø": ".## #.# ### #.# ##.",
    "ẞ": "###. #..# #.#. #..# #.##",
    "Ð": "##.. #.#. ###. #.#. ##..",
    "Þ": "#.. ##. #.# ##. #..",
    "¡": "# . # # #",
    "¿": ".#. ... .#. #.. .##",
    "«": "..... ..#.# .#.#. ..#.# .....",
    "»": "..... #.#.. .#.#. #.#.. .....",
    "’": "# # . . .",
    "‘": "# # . . .",
    "“": "#.# #.# ... ... ...",
    "”": "#.# #.# ... ... ...",
    '"': "#.# #.# ... ... ...",
    "–": "... ... ### ... ...",
    "—": "..... ..... ##### ..... .....",
    "…": "..... ..... ..... ..... #.#.#",
    ";": ". # . # #",
    "(": ".# #. #. #. .#",
    ")": "#. .# .# .# #.",
    "+": "... .#. ### .#. ...",
    "=": "... ### ... ### ...",
    "#": "#.#. #### #.#. #### #.#.",
    "*": "... #.# .#. #.# ...",
    "_": "... ... ... ... ###",
    # The rest of printable ASCII, so a name such as "[Bob]" or "@ann" keeps its marks.
    "%": "#.# ..# .#. #.. #.#",
    "@": ".##. #..# #.## #... .##.",
    "<": "..# .#. #.. .#. ..#",
    ">": "#.. .#. ..# .#. #..",
    "[": "## #. #. #. ##",
    "]": "## .# .# .# ##",
    "{": ".## .#. ##. .#. .##",
    "}": "##. .#. .## .#. ##.",
    "|": "# # # # #",
    "\\": "#.. #.. .#. ..# ..#",
    "^": ".#. #.# ... ... ...",
    "~": ".... .... .#.# #.#. ....",
    "`": "#. .# .. .. ..",
    "$": ".###. #.#.. .###. ..#.# .###.",
    # Marks the app's own texts use: bullets, arrows, the first player's star.
    "•": ".. .. ## ## ..",
    "·": ". . # . .",
    "→": ".... ..#. #### ..#. ....",
    "←": ".... .#.. #### .#.. ....",
    "↑": ".#. ### .#. .#. .#.",
    "↓": ".#. .#. .#. ### .#.",
    "★": "..#.. ##### .###. .#.#. #...#",
    "×": "..... .#.#. ..#.. .#.#. .....",
    "°": ".#. #.# .#. ... ...",
    "€": ".### #... ###. #... .###",
    # The ambience marker's note (issue 35: the marker says what it is, with this icon).
    "♪": ".##. .#.# .#.. ##.. ##..",
    # The placeholder: the empty box fonts draw for a character they lack.
    "□": "#### #..# #..# #..# ####",
}

#: What a character the font cannot draw, even by its base letters, is drawn as.
PLACEHOLDER = "□"
#: " WITH STROKE", " WITH HOOK" ...: the base letter's name is what comes before.
_WITH = " WITH "


def accented(char: str) -> str | None:
    """The five-row bitmap of an accented capital built from its base letter, if it has one."""
    parts = unicodedata.normalize("NFD", char)
    if len(parts) != 2 or parts[0] not in _FOUR_ROWS:
        return None
    base, mark = parts[0], parts[1]
    four = _FOUR_ROWS[base]
    width = len(four.split()[0])
    if mark == _CEDILLA:
        return f"{four} {_CEDILLA_ROW}" if width == len(_CEDILLA_ROW) else None
    row = _ACCENTS.get(mark, {}).get(width)
    return f"{row} {four}" if row else None


def accented_letters(taken: Mapping[str, str]) -> dict[str, str]:
    """Every accented capital the four-row letters and the accents can draw.

    A capital drawn whole in `taken` keeps that drawing, and one whose built
    bitmap would look like a glyph of `taken` (Ũ like 0) is left out: it
    degrades to its base letter instead of reading as another character.
    """
    looks = set(taken.values())
    letters: dict[str, str] = {}
    for base in _FOUR_ROWS:
        for mark in (*_ACCENTS, _CEDILLA):
            char = unicodedata.normalize("NFC", base + mark)
            bitmap = accented(char) if len(char) == 1 and char not in taken else None
            if bitmap is not None and bitmap not in looks:
                letters[char] = bitmap
    return letters


def base_letters(char: str, font: Mapping[str, object]) -> str | None:
    """The letters `char` degrades to (compatibility decomposition, marks dropped, capitals).

    None when nothing of it is in `font`: the caller then draws `PLACEHOLDER`.
    """
    decomposed = unicodedata.normalize("NFKD", char)
    letters = "".join(part for part in decomposed if not unicodedata.combining(part)).upper()
    if letters == char.upper() and len(letters) == 1:
        letters = named_base(letters)
    if not letters or letters == char or not all(letter in font for letter in letters):
        return None
    return letters


def named_base(char: str) -> str:
    """The letter `char` is named after: "L" for Ł, "D" for Đ, "H" for Ħ; else `char`.

    Unicode decomposes only letters built of a letter and a combining mark; a
    stroke or a hook drawn through the letter has no decomposition, but its
    name is the base letter's name followed by " WITH ...".
    """
    name = unicodedata.name(char, "")
    if _WITH not in name:
        return char
    try:
        return unicodedata.lookup(name.split(_WITH, 1)[0])
    except KeyError:
        return char
