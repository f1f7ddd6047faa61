"""Big text in every language: accented capitals at full height, other letters degrade to base.

Before, the font had A–Z only: "Joueurs possédés" was drawn "POSS é D é S" with
each é a small letter in the middle row, unreadable across a table.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from no_message_left import settled
from textual.app import App, ComposeResult

from moderator.tui.widgets.bigtext import (
    COMPACT,
    LARGE,
    ROWS_SOLID,
    SOLID,
    BigText,
    big_lines,
    glyph,
)
from moderator.tui.widgets.block_letters import EXTRA_LETTERS

SCRIPTS = Path(__file__).resolve().parents[2] / "voice_scripts"
SCALES = (COMPACT, SOLID, LARGE)
#: The capitals French, German and Spanish write beyond A–Z.
LANGUAGE_LETTERS = "ÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸÄÖẞÁÍÑÓÚ"


def strings(value: object) -> Iterator[str]:
    """Every string inside a parsed TOML value (the words, not the file's syntax)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def script_characters() -> set[str]:
    """Every visible character of every shipped voice script's text (all languages)."""
    text = "".join(
        "".join(strings(tomllib.loads(path.read_text(encoding="utf-8"))))
        for path in SCRIPTS.rglob("*.toml")
    )
    # Placeholders like {seconds} are filled in before anything is drawn.
    text = re.sub(r"\{[a-z_]+\}", "", text)
    return {char for char in text if not char.isspace() and unicodedata.category(char)[0] != "C"}


def test_the_scripts_use_accented_letters() -> None:
    """Guard: the test below covers the letters French, German and Spanish use."""
    assert {"é", "ü", "ñ", "ß", "ç", "¡"} <= script_characters()


@pytest.mark.parametrize("scale", SCALES)
def test_every_character_of_every_script_is_drawn_at_full_height(scale: int) -> None:
    missing = sorted(char for char in script_characters() if glyph(char, scale) is None)
    assert not missing, f"drawn small, in the middle row: {missing}"


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize(
    ("accented", "plain"), [("É", "E"), ("é", "E"), ("À", "A"), ("Ü", "U"), ("Ñ", "N"), ("Ç", "C")]
)
def test_an_accented_capital_is_not_its_plain_letter(scale: int, accented: str, plain: str) -> None:
    drawn, base = glyph(accented, scale), glyph(plain, scale)
    assert drawn is not None and base is not None
    assert drawn != base, f"{accented} lost its accent"
    assert len(drawn) == len(base), f"{accented} is not the font's height"


@pytest.mark.parametrize("scale", SCALES)
def test_no_two_letters_look_alike(scale: int) -> None:
    """Each letter of the four languages differs from its base letter and from any other glyph."""
    built = {char: glyph(char, scale) for char in (*LANGUAGE_LETTERS, *EXTRA_LETTERS)}
    for char, drawn in built.items():
        plain = unicodedata.normalize("NFD", char)[0]
        if plain != char and drawn is not None:
            assert drawn != glyph(plain, scale), f"{char} looks like {plain}"
    drawings = [drawn for drawn in built.values() if drawn is not None]
    quotes = {glyph(char, scale) for char in "’‘“”\"'"}
    repeated = {drawn for drawn in drawings if drawings.count(drawn) > 1} - quotes
    assert not repeated, [char for char, drawn in built.items() if drawn in repeated]


def test_possedes_is_drawn_in_block_letters_only() -> None:
    """The caption of the French reveal: no literal letter left among the blocks."""
    rows = big_lines("Joueurs possédés", SOLID)
    assert len(rows) == ROWS_SOLID
    assert set("".join(rows)) <= {"█", " "}, rows


@pytest.mark.parametrize(
    ("char", "letters"), [("Ś", "S"), ("ž", "Z"), ("Ⅻ", "XII"), ("ß", "SS"), ("ﬁ", "FI")]
)
def test_other_letters_degrade_to_their_base_letters(char: str, letters: str) -> None:
    drawn = glyph(char, SOLID)
    expected = big_lines(letters, SOLID)
    assert drawn is not None and list(drawn) == expected


class Caption(App[None]):
    """A BigText as the reveal screen shows a role's caption."""

    def compose(self) -> ComposeResult:
        yield BigText("Joueurs possédés", id="caption")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_french_caption_on_screen_is_all_blocks(size: tuple[int, int]) -> None:
    app = Caption()
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        widget = app.query_one("#caption", BigText)
        rows = [widget.render_line(y).text for y in range(widget.size.height)]
        ink = "".join(rows)
        assert "█" in ink or "▀" in ink
        assert not {"é", "É", "e", "E"} & set(ink), rows
