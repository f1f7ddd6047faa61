"""Big text in every language (issue 18 item 4): every catalog, the placeholder, base letters.

`test_block_letters.py` covers the voice scripts and the accented capitals. Here:
the gettext catalogs (`moderator/locale/`, when they exist) render at full height
too; a letter Unicode gives no decomposition (Ł, Đ) degrades to the letter it is
named after; a character with no letter of the font (Ω, Я, an emoji) is the
font's placeholder box, never a small letter in the middle row; and a name typed
with a combining accent ("e" + U+0301) is drawn as the composed letter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from no_message_left import settled
from textual.app import App, ComposeResult

from moderator.tui.widgets.bigtext import (
    COMPACT,
    LARGE,
    SOLID,
    BigText,
    big_lines,
    big_width,
    glyph,
    pick_scale,
    rows_of,
)
from tests.tui.test_block_letters import script_characters

#: The font's placeholder box (`block_letters.PLACEHOLDER`; spelled out, so this
#: file still runs, and fails, against a font without one).
PLACEHOLDER = "□"

LOCALE = Path(__file__).resolve().parents[2] / "moderator" / "locale"
SCALES = (COMPACT, SOLID, LARGE)
#: `{name}`, `%(name)s`, `%s`, `%d`: filled in before anything is drawn.
_FIELDS = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%(\([A-Za-z_][A-Za-z0-9_]*\))?[sdif%]")
_PO_STRING = re.compile(r'^(msgid|msgid_plural|msgstr(\[\d+\])?)?\s*"(.*)"\s*$')
_PO_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def po_strings(text: str) -> Iterator[str]:
    """Every msgid and msgstr of a .po catalog, unescaped; the header entry left out."""
    entry: list[str] = []
    for line in [*text.splitlines(), ""]:
        match = _PO_STRING.match(line.strip())
        if match is None:
            continue
        if match.group(1) and entry:
            yield "".join(entry)
            entry = []
        entry.append(re.sub(r"\\(.)", lambda m: _PO_ESCAPES.get(m[1], m[1]), match.group(3)))
    if entry:
        yield "".join(entry)


def catalog_characters(folder: Path) -> dict[str, str]:
    """Every visible character of every .po catalog under `folder`, with a file it is in.

    The header (msgid "" and its msgstr of "Content-Type: ..." fields) is metadata,
    never shown: its strings are left out.
    """
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.po")) if folder.is_dir() else []:
        strings = list(po_strings(path.read_text(encoding="utf-8")))
        header = "Content-Type:" in "".join(strings[:2])
        for text in strings[2:] if header else strings:
            for char in _FIELDS.sub("", text):
                if not char.isspace() and char.isprintable():
                    found.setdefault(char, path.name)
    return found


@pytest.mark.parametrize("scale", SCALES)
def test_every_character_of_every_catalog_is_drawn_at_full_height(scale: int) -> None:
    """The i18n catalogs, once they exist: no character of theirs falls back."""
    lacking = {
        char: where
        for char, where in catalog_characters(LOCALE).items()
        if glyph(char, scale) is None
    }
    assert not lacking, f"not in the font (drawn as the placeholder box): {lacking}"


#: What the block font draws with: full blocks, half blocks, blank.
INK = frozenset("█▀▄ ")


@pytest.mark.parametrize("scale", SCALES)
def test_every_script_and_catalog_character_is_drawn_in_blocks_within_the_height(
    scale: int,
) -> None:
    """Rendered through the big text: the font's rows, only block cells, never the box."""
    box = big_lines(PLACEHOLDER, scale)
    wrong = {}
    for char in sorted({*script_characters(), *catalog_characters(LOCALE)}):
        rows = big_lines(char, scale)
        if len(rows) != rows_of(scale) or not set("".join(rows)) <= INK or rows == box:
            wrong[char] = rows
    assert not wrong, wrong


def test_the_catalog_test_reads_every_translation(tmp_path: Path) -> None:
    """The reader the test above relies on, on a catalog in gettext's own format."""
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "moderator.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"X-Mail: <a@b>\\n"\n\n'
        '#: moderator/tui/screens/setup.py:40\nmsgid "Possessed players"\n'
        'msgstr "Joueurs possédés"\n\n'
        'msgid "{count} player"\nmsgid_plural "{count} players"\n'
        'msgstr[0] "{count} joueur"\nmsgstr[1] "{count} joueurs Ω"\n\n'
        'msgid ""\n"Say \\"hi\\""\nmsgstr "Dites « salut »"\n',
        encoding="utf-8",
    )
    found = catalog_characters(tmp_path)
    assert {"é", "«", "Ω", '"', "P"} <= set(found)
    assert not {"@", "<", "{", "\\"} & set(found), "header, fields or escapes read as text"
    assert [char for char in found if glyph(char, SOLID) is None] == ["Ω"]


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize(("char", "base"), [("Ł", "L"), ("ł", "L"), ("Đ", "D"), ("Ħ", "H")])
def test_a_letter_without_a_decomposition_degrades_to_the_letter_it_is_named_after(
    scale: int, char: str, base: str
) -> None:
    """Ł has no NFD decomposition (a stroke is not a combining mark): its name gives L."""
    assert glyph(char, scale) == glyph(base, scale)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("char", ["Ω", "Я", "👩", "李", "\t"])
def test_a_character_with_no_letter_of_the_font_is_the_placeholder(scale: int, char: str) -> None:
    """Drawn at full height, as the box, never as itself (a small letter in the middle row)."""
    rows = big_lines(f"A{char}", scale)
    assert rows == big_lines(f"A{PLACEHOLDER}", scale)
    assert len(rows) == rows_of(scale) and char not in "".join(rows)
    assert big_width(f"A{char}", scale) == len(rows[0])


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("char", ["Ǆ", "Ø", "Ś", "ž"])
def test_other_unknown_letters_degrade_at_full_height(scale: int, char: str) -> None:
    """The brief's examples: each is a glyph of the font's height, not the box."""
    rows = glyph(char, scale)
    assert rows is not None and len(rows) == rows_of(scale)
    assert rows != glyph(PLACEHOLDER, scale)


@pytest.mark.parametrize("scale", SCALES)
def test_a_combining_accent_is_composed_before_drawing(scale: int) -> None:
    """ "José" typed as "Jose" + U+0301 is drawn as "JOSÉ", with no box or loose mark."""
    assert big_lines("Jose\u0301", scale) == big_lines("JOSÉ", scale)
    assert big_width("Jose\u0301", scale) == big_width("JOSÉ", scale)
    assert big_lines("A\u200dB\ufe0f", scale) == big_lines("AB", scale)


def letter_at(rows: list[str], index: int, text: str, scale: int) -> list[str]:
    """The columns of the `index`-th letter of `text` in its big rows."""
    gap = {COMPACT: 1, SOLID: 1, LARGE: 2}[scale]
    start = sum(big_width(char, scale) + gap for char in text[:index])
    width = big_width(text[index], scale)
    return [row[start : start + width] for row in rows]


@pytest.mark.parametrize("scale", SCALES)
def test_possedes_draws_each_e_acute_as_the_full_glyph(scale: int) -> None:
    """ "POSSÉDÉS": both É are the accented glyph (not E, not a small é), at full height."""
    text = "POSSÉDÉS"
    rows = big_lines(text, scale)
    for index in (4, 6):
        assert letter_at(rows, index, text, scale) == list(glyph("É", scale) or ())
    assert glyph("É", scale) != glyph("E", scale)


class Banner(App[None]):
    """One BigText, as the reveal screen shows a role's caption."""

    def compose(self) -> ComposeResult:
        yield BigText("POSSÉDÉS", id="banner")


async def test_possedes_on_screen_holds_the_e_acute_glyph() -> None:
    """At 80x24 the widget draws the É glyph's rows (solid), and no literal letter."""
    app = Banner()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        widget = app.query_one("#banner", BigText)
        rows = [widget.render_line(y).text for y in range(widget.size.height)]
        scale = pick_scale("POSSÉDÉS", widget.content_region.width, app.size.height)
        drawn = big_lines("POSSÉDÉS", scale)
        assert scale != COMPACT
        assert [row.strip() for row in rows] == [row.strip() for row in drawn]
        assert not set("ÉéEe") & set("".join(rows))


#: The letters issue 18 lists for French, German and Spanish.
LISTED = "ÀÂÄÇÉÈÊËÎÏÔÖŒÙÛÜŸÆßÑÁÍÓÚ¿¡"


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("char", sorted({*LISTED, *LISTED.lower()}))
def test_every_listed_letter_and_its_small_letter_has_a_full_glyph(scale: int, char: str) -> None:
    """Drawn from the font at its height; an accented letter is not its plain letter."""
    rows = glyph(char, scale)
    assert rows is not None and len(rows) == rows_of(scale)
    assert rows != glyph(PLACEHOLDER, scale)
    plain = unicodedata.normalize("NFD", char)[0]
    if plain != char and char not in "ßŒœÆæ¿¡":
        assert rows != glyph(plain, scale), f"{char} lost its accent"
