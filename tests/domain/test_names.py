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


@pytest.mark.parametrize(
    "raw",
    ["a\x1b[2Jb", "tab\there", "nul\x00", "bell\x07", "zero\u200bwidth", "Ann\u200d", "A\u200dB"],
)
def test_control_and_invisible_characters_are_refused(raw: str) -> None:
    with pytest.raises(
        IllegalAction, match="control characters such as Escape or Tab, nor invisible ones"
    ):
        clean_name(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "👩‍💻 Robin",  # woman technologist: woman + ZWJ + laptop
        "👨‍👩‍👧‍👦",  # family: three joiners
        "🏳️‍🌈 Max",  # rainbow flag: white flag + VS16 + ZWJ + rainbow
        "❤️ Nancy",  # heart + variation selector 16
        "👋🏽 Lucas",  # skin tone modifier
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "می\u200cخواهم",  # Persian with a zero-width non-joiner between letters
    ],
)
def test_joined_emoji_are_valid_name_characters(raw: str) -> None:
    assert clean_name(raw) == raw


@pytest.mark.parametrize(
    "raw", ["rtl\u202eevil", "\u202dLTR", "iso\u2066late\u2069", "mark\u200f", "\u061cx"]
)
def test_bidi_overrides_and_isolates_are_refused_with_their_own_sentence(raw: str) -> None:
    with pytest.raises(IllegalAction, match="text-direction characters") as caught:
        clean_name(raw)
    assert "control" not in str(caught.value)


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


def test_nfc_and_nfd_spellings_are_one_name() -> None:
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    assert clean_name(decomposed) == composed
    with pytest.raises(IllegalAction, match="Two players are called"):
        clean_roster(["Ann", composed, decomposed])


@pytest.mark.parametrize("raw", ["\u3164", "\u2800", "\u3164\u3164", "\uffa0", "\u115f\u1160"])
def test_invisible_filler_names_are_refused_with_a_sentence(raw: str) -> None:
    with pytest.raises(IllegalAction, match="blank filler characters"):
        clean_name(raw)


def test_a_filler_added_to_a_name_is_refused() -> None:
    with pytest.raises(IllegalAction, match="blank filler characters"):
        clean_roster(["Ann", "Ann\u3164"])


def test_a_name_of_combining_marks_only_is_refused() -> None:
    with pytest.raises(IllegalAction, match="at least one visible"):
        clean_name("\u0301\u0308")


def test_colour_codes_pasted_in_caret_notation_are_refused() -> None:
    with pytest.raises(IllegalAction, match="pasted with colour codes"):
        clean_name("^[31mZo\u00eb^[0m")


def test_an_old_log_with_a_decomposed_name_still_replays() -> None:
    from moderator.domain import GameStarted, replay

    players = ("Zoe\u0308", "Ann", "Bob", "Cy")
    assert replay([GameStarted(players, 0)]).players == players
