"""The rules' refusals and the table's notices in the table's language (issue 18, item 1).

The domain raises English templates with their fields (`IllegalAction`); the
English sentence (`str(error)`) is what it always was, and `refusal` gives the
table's language. The controller on the real store hands the screens its
notices and refusals in that language, the names of the players as typed.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator import i18n
from moderator.domain import IllegalAction, ResultsDeclared, new_game
from moderator.domain.errors import IllegalCount
from moderator.domain.events import PlayerKnockedOut
from moderator.domain.game import apply
from moderator.domain.names import clean_roster
from moderator.i18n.refusals import refusal
from moderator.narration import SilentSpeaker, VoiceSettings, make_narrator
from moderator.storage import Store
from moderator.table.config import TableSettings
from moderator.table.controller import TableController

FOUR = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableController]:
    store = Store.open(tmp_path / "data")
    narrator = make_narrator(
        VoiceSettings(enabled=False), None, tmp_path / "cache", SilentSpeaker(), time_scale=0.01
    )
    controller = TableController(store, narrator, TableSettings(), tmp_path / "config")
    yield controller
    controller.close()


def knocked_twice() -> IllegalAction:
    state = apply(new_game(FOUR), PlayerKnockedOut(1))
    with pytest.raises(IllegalAction) as refused:
        apply(state, PlayerKnockedOut(1))
    return refused.value


def test_the_english_sentence_is_unchanged_and_the_template_keeps_its_fields() -> None:
    error = knocked_twice()
    assert str(error) == "Bob is already knocked out."
    assert error.template == "{name} is already knocked out."
    assert error.fields == {"name": "Bob"}
    assert refusal(error) == "Bob is already knocked out."


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", "Bob est déjà éliminé."),
        ("de", "Bob ist bereits ausgeschieden."),
        ("es", "Bob ya está eliminado."),
    ],
)
def test_a_refusal_of_the_rules_in_each_language(lang: str, said: str) -> None:
    i18n.use_language(lang)
    error = knocked_twice()
    assert refusal(error) == said
    assert str(error) == "Bob is already knocked out.", "logs and tools keep the English"


def test_a_name_is_filled_in_as_typed_never_read_as_a_template() -> None:
    i18n.use_language("fr")
    with pytest.raises(IllegalAction) as refused:
        clean_roster(["{name} [b]", "{NAME} [B]"])
    assert refusal(refused.value) == (
        "Deux joueurs s'appellent « {NAME} [B] » : chaque nom doit être différent."
    )


@pytest.mark.parametrize(
    ("lang", "count", "said"),
    [
        ("fr", 1, "À 5 joueurs, au moins 1 joueur était Possédé dès le début"),
        ("fr", 2, "À 5 joueurs, au moins 2 joueurs étaient Possédés dès le début"),
        ("de", 1, "Bei 5 Spielern war mindestens 1 Spieler von Anfang an besessen"),
        ("de", 2, "Bei 5 Spielern waren mindestens 2 Spieler von Anfang an besessen"),
    ],
)
def test_a_counted_refusal_takes_the_languages_plural_form(
    lang: str, count: int, said: str
) -> None:
    i18n.use_language(lang)
    error = IllegalCount(
        "With {players} players at least {count} player was Possessed from the start: "
        "mark everyone who growled.",
        "With {players} players at least {count} players were Possessed from the start: "
        "mark everyone who growled.",
        count,
        players=5,
    )
    assert refusal(error).startswith(said), refusal(error)
    assert str(error).startswith(f"With 5 players at least {count} player")


def test_the_results_refused_by_the_rules_in_german(table: TableController) -> None:
    i18n.use_language("de")
    table.new_series()
    table.start_game(FOUR, 0)
    table.knock_out(2)
    table.knock_out(3)
    said = table.judge(ResultsDeclared((), (0, 0, 0, 0)))
    assert said == (
        "Bei 4 Spielern war mindestens 1 Spieler von Anfang an besessen: "
        "Markiert alle, die geknurrt haben."
    )


class _Broken(gettext.NullTranslations):
    """A catalog whose translation names a field its msgid lacks (a hand-edited .po)."""

    def gettext(self, message: str) -> str:
        return "{nom} est déjà éliminé."


def test_a_broken_translation_shows_the_english_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_active", _Broken())
    assert refusal(knocked_twice()) == "Bob is already knocked out."


def test_the_tables_notices_and_refusals_in_french(table: TableController) -> None:
    i18n.use_language("fr")
    table.new_series()
    table.start_game(FOUR, 0)
    assert table.knock_out(3).notice == "Dee est éliminé."
    assert table.undo().notice == "Annulé : Dee éliminé."
    assert table.redo().notice == "Refait : Dee éliminé."
    refused = table.redo()
    assert refused.refused and refused.notice == "Il n'y a rien à refaire."
    table.draw_meeting()
    refused = table.pass_turn()
    assert refused.refused and refused.notice == "Terminez la Réunion avant de passer le tour."
    assert table.undo().notice == "Annulé : la carte Réunion."


def test_the_start_withdrawn_and_the_summary_in_spanish(table: TableController) -> None:
    i18n.use_language("es")
    table.new_series()
    table.start_game(FOUR, 0)
    assert table.unfinished_summary() == (
        True,
        "La partida 1 está sin terminar: 4 jugadores, turno 1.",
    )
    assert table.undo().notice == (
        "Deshecho: el inicio de la partida 1. Vuelta a la preparación, mismos jugadores."
    )
    refused = table.undo()
    assert refused.refused and refused.notice == "No hay ninguna partida abierta."
