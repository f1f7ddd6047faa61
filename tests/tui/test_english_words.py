"""The walk's detector of English words (tests/tui/english_words.py) can fail and is not fooled."""

from __future__ import annotations

from tests.tui.english_words import english_on, english_vocabulary, said_in


def test_the_apps_english_is_found_word_by_word_with_its_line() -> None:
    found = english_on("Nouvelle série (n)\n ? Aide  n New series  q Quitter", "fr")
    assert found == {
        "new": ["? Aide  n New series  q Quitter"],
        "series": ["? Aide  n New series  q Quitter"],
    }


def test_french_words_shared_words_and_typed_names_are_not_english() -> None:
    screen = "Table · Points : 3\nTurn ▶ À TOI\nStranger Things : L'Attaque du Flagelleur mental"
    assert english_on(screen, "fr", ("Turn",)) == {}
    assert "turn" in english_vocabulary("fr"), "a name is left out where typed, not everywhere"
    assert english_on("Turn turn 3", "fr", ("Turn",)) == {"turn": ["Turn turn 3"]}


def test_a_cut_word_is_no_word_and_a_hyphen_joins_none() -> None:
    assert english_on("Réuni", "fr") == {}
    assert set(english_on("the eyes-closed reveal", "fr")) == {"the", "eyes", "closed"}


def test_said_in_is_the_catalogs_french_or_the_english_until_it_has_one() -> None:
    assert said_in("fr", "Reading the history…") == "Lecture de l'historique…"
    assert said_in("fr", "Not a msgid of the catalog") == "Not a msgid of the catalog"
