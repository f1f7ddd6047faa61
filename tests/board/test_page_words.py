"""The board page's words: from the screen's catalogues, served per language, none in the page."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp

from moderator.board import words
from moderator.board.server import BoardServer
from moderator.board.words import PAGE_WORDS, page_words
from moderator.i18n.catalogs import load
from tests.board.test_server import client, server

__all__ = ["client", "server"]  # the server on loopback and a phone's client

STATIC = Path(words.__file__).parent / "static"


def test_each_word_is_the_catalogues_translation() -> None:
    for lang in ("fr", "de", "es"):
        catalog = load(lang)
        assert catalog is not None
        served = page_words(lang)
        assert served["lang"] == lang
        words = served["words"]
        assert isinstance(words, dict) and words.keys() == PAGE_WORDS.keys()
        for key, msgid in PAGE_WORDS.items():
            assert words[key] == catalog.gettext(msgid), (lang, key)
            assert words[key], (lang, key)
    assert page_words("de")["words"]["yourTurn"] == "Wer ist dran"  # type: ignore[index]
    assert page_words("en")["words"]["yourTurn"] == "Whose turn"  # type: ignore[index]


def test_plural_sentences_come_in_each_count_the_page_meets() -> None:
    series = page_words("fr")["series"]
    assert isinstance(series, list) and len(series) == 4  # 0 to 3 games played
    assert series[1] != series[2]  # French: "1 partie jouée" / "2 parties jouées"
    assert all("{played}" in line and "{games}" in line for line in series)


def test_a_language_without_a_catalogue_reads_english() -> None:
    served = page_words("xx")
    assert served["lang"] == "en"
    assert served["words"] == dict(PAGE_WORDS)


def test_the_page_holds_no_sentence_of_its_own() -> None:
    """No second, hand-kept list: none of the English words is written in the page's files."""
    page = "".join(
        (STATIC / name).read_text(encoding="utf-8") for name in ("board.js", "index.html")
    )
    for msgid in PAGE_WORDS.values():
        for piece in re.split(r"\{\w+\}", msgid):
            if " " in piece.strip():  # a sentence, not a lone word an identifier may hold
                assert piece.strip() not in page, msgid


async def test_the_server_serves_the_words_of_a_language(
    server: BoardServer, client: aiohttp.ClientSession
) -> None:
    async with client.get(server.url + "words/de.json") as response:
        assert response.status == 200 and response.content_type == "application/json"
        german = await response.json()
    assert german["lang"] == "de" and german["words"]["turn"] == "Zug"
    async with client.get(server.url + "words/zz.json") as response:
        assert (await response.json())["lang"] == "en"
    async with client.get(server.url.replace(server.token, "x" * 22) + "words/de.json") as wrong:
        assert wrong.status == 403
