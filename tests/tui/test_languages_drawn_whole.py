"""In German and in French at 80x24, nothing a table reads is cut or wrapped mid-word (issue 18).

German is long. From what each screen draws (tests/tui/drawn.py): every key the
footer keeps at 80 columns in English is still on it, each drawn whole with its
translated words; every word of each seat tile and of the setup checklist appears
whole on one drawn row (a word wrapped in two or cut with an ellipsis does not).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from driving import shown
from no_message_left import settled
from textual.widgets import Static

from moderator.tui.app import MindFlayerApp
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.table_picture import SeatTile
from moderator.tui.widgets.title_bar import fitted_title
from tests.tui import test_footers as footers
from tests.tui.app_driver import text_of
from tests.tui.drawn import drawn_rows
from tests.tui.english_words import english_on, words
from tests.tui.test_i18n_screens import speaking

LANGUAGES = ["de", "fr"]


def cut_words(text: str, rows: list[str]) -> set[str]:
    """The words of `text` no drawn row holds whole."""
    drawn = set().union(*(words(row) for row in rows))
    return words(text) - drawn


@asynccontextmanager
async def in_language(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str, screen: str
) -> AsyncIterator[MindFlayerApp]:
    """The app at 80x24 in `lang`, on `screen` as tests/tui/test_footers.py reaches it."""
    kind, reach, _keys = footers.SCREENS[screen]
    speaking(folders, lang)
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await reach(pilot)
        await shown(pilot, kind)
        await settled(pilot)
        yield app


@pytest.mark.parametrize("screen", list(footers.SCREENS))
@pytest.mark.parametrize("lang", [*LANGUAGES, "es"])
async def test_the_footer_keeps_its_keys_whole_in_the_tables_words(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str, screen: str
) -> None:
    keys = footers.SCREENS[screen][2]
    async with in_language(app_factory, folders, lang, screen) as app:
        bar = app.screen.query_one(KeyBar)
        items, _palette = bar.fitted(bar.size.width)
        last = drawn_rows(app)[-1]
        drawn = {item.display: item.description for item in items}
        for item in items:
            assert f" {item.display} {item.description} " in f"{last} ", (item, last)
        missing = [wanted[0] for wanted in keys if wanted[0] not in drawn]
        assert not missing, f"{lang} {screen}: {missing} left out of {last!r}"
        assert not english_on(last, lang), last


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("screen", ["table", "meeting"])
async def test_every_word_of_the_tiles_is_drawn_whole(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str, screen: str
) -> None:
    async with in_language(app_factory, folders, lang, screen) as app:
        rows = drawn_rows(app)
        tiles = list(app.screen.query(SeatTile))
        assert tiles
        for tile in tiles:
            said = text_of(tile)
            assert not cut_words(said, rows), (said, cut_words(said, rows), rows)
            assert not english_on(said, lang, footers.FOUR), said


@pytest.mark.parametrize("lang", ["en", *LANGUAGES, "es"])
async def test_the_turn_caption_and_the_meetings_caption_never_touch(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str
) -> None:
    """The table's top row: whose turn and how many Meetings stay apart by a blank column.

    Both captions fill their boxes, which sat side by side: at 80 columns the
    Spanish row read "Da la vuelta a la carta deReuniones hechas: 0 de".
    """
    async with in_language(app_factory, folders, lang, "table") as app:
        rows = drawn_rows(app)
        box = app.screen.query_one("#table-meetings-box").region
        touching = [
            row
            for row in rows[box.y : box.bottom]
            if row[box.x - 1 : box.x + 1].strip() and " " not in row[box.x - 1 : box.x + 1]
        ]
        assert not touching, touching


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_checklist_is_in_the_tables_words(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str
) -> None:
    async with in_language(app_factory, folders, lang, "setup") as app:
        said = text_of(app.screen.query_one("#setup-checklist", Static))
        assert not english_on(said, lang, footers.FOUR), said


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_word_of_the_checklist_is_drawn_whole(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str
) -> None:
    async with in_language(app_factory, folders, lang, "setup") as app:
        said = text_of(app.screen.query_one("#setup-checklist", Static))
        assert said.strip()
        rows = drawn_rows(app)
        assert not cut_words(said, rows), (cut_words(said, rows), rows)


@pytest.mark.parametrize("screen", ["reveal", "table", "meeting", "finale", "result", "series"])
@pytest.mark.parametrize("lang", [*LANGUAGES, "es"])
async def test_the_header_shows_the_games_state_whole(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], lang: str, screen: str
) -> None:
    """Where the app's name and the game's state do not both fit, the name gives way."""
    async with in_language(app_factory, folders, lang, screen) as app:
        header = drawn_rows(app)[0]
        assert app.screen.sub_title and app.screen.sub_title in header, (header, app.sub_title)
        assert "…" not in header, header


def test_the_apps_name_gives_way_to_the_games_state_but_not_to_the_voices_fault() -> None:
    name, state = "Meneur de jeu Flagelleur mental", "Partie 1 sur 3 · Réunions terminées : 0 sur 3"
    assert fitted_title(name, state, name, 120) == (name, state)
    assert fitted_title(name, state, name, 80) == ("", state)
    marked = f"{name} · voix coupée"
    assert fitted_title(marked, state, name, 80) == ("voix coupée", state)
    assert fitted_title("Mind Flayer moderator", "Game 1 of 3", "Mind Flayer moderator", 80) == (
        "Mind Flayer moderator",
        "Game 1 of 3",
    )


async def test_the_header_is_fitted_again_when_the_terminal_changes_size(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    """A French table that narrows its terminal still reads the game's state whole, and back."""
    kind, reach, _keys = footers.SCREENS["table"]
    speaking(folders, "fr")
    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        await reach(pilot)
        await shown(pilot, kind)
        await settled(pilot)
        name = app.title
        assert name in drawn_rows(app)[0]
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        header = drawn_rows(app)[0]
        assert app.screen.sub_title in header and "…" not in header, header
        await pilot.resize_terminal(120, 40)
        await settled(pilot)
        assert name in drawn_rows(app)[0], drawn_rows(app)[0]
