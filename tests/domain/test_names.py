"""Names are trimmed, 1..24 characters, unique ignoring case, free of control characters."""

from __future__ import annotations

import pytest

from moderator.domain import IllegalAction
from moderator.domain.names import clean_name, clean_roster


def test_names_are_trimmed() -> None:
    assert clean_name("  Eleven  ") == "Eleven"


@pytest.mark.parametrize("raw", ["", "   "])
def test_empty_names_are_refused(raw: str) -> None:
    with pytest.raises(IllegalAction, match="cannot be empty"):
        clean_name(raw)


def test_24_characters_is_the_limit() -> None:
    assert clean_name("x" * 24) == "x" * 24
    with pytest.raises(IllegalAction, match="at most 24"):
        clean_name("x" * 25)


@pytest.mark.parametrize("raw", ["a\x1b[2Jb", "tab\there", "nul\x00", "bell\x07", "rtl\u202eevil"])
def test_control_characters_are_refused(raw: str) -> None:
    with pytest.raises(IllegalAction, match="control characters"):
        clean_name(raw)


@pytest.mark.parametrize(
    "raw", ["[/]", "[@click=app.quit]x", "[link=x]y", "Zoë 🧇", "Ñandú", "{player}", "'; DROP"]
)
def test_markup_emoji_and_accents_are_plain_valid_names(raw: str) -> None:
    assert clean_name(raw) == raw


def test_duplicates_ignoring_case_are_refused() -> None:
    with pytest.raises(IllegalAction, match="Two players are called"):
        clean_roster(["Will", "Mike", "WILL "])


def test_a_valid_roster_comes_back_cleaned() -> None:
    assert clean_roster([" Will", "Mike "]) == ("Will", "Mike")
