"""The setup screen, its checklist and the questions before a start in the table's language.

Issue 18 (the setup's items 1-4). The real app at 80x24, its language from
settings.json as a table sets it (or chosen in the Settings while seating):
the count above the roster, the fields' hints, the roster's marks, the buttons,
the checklist and the key bar say the table's words, none of the English ones
they replace, and nothing is cut (every hint and button label drawn whole).
The checklist states each count in its plural, and the same numbers as the
setup voice in that language. The names stay as typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from driving import key, new_game, seat_players, shown, to_setup, until
from no_message_left import settled, toasts
from textual.widgets import Button, Input, OptionList, Static

from moderator.narration import VoiceSettings
from moderator.table.cues import SetupCue
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.setup import SetupScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.key_bar import KeyBar
from tests.tui.app_driver import asked, narration_over, text_of, tracked_app
from tests.tui.drawn import drawn_rows
from tests.tui.test_i18n_screens import speaking
from tests.tui.test_play_screens_in_the_tables_language import choose_in_the_settings
from tests.tui.test_setup_checklist_screen import numbers

FOUR = ["Ann", "Bob", "Cy", "Dee"]
SIX = [*FOUR, "Eve", "Fin"]
BUTTONS = ("remove", "up", "down", "first", "edit", "read", "start")

#: The English words of the setup screen that a table in another language must
#: not see ("Enter" and "Start" stay out: German writes those keys and words too).
ENGLISH = (
    "player",
    "seated",
    "clockwise",
    "Name, then",
    "Remove",
    "Move",
    "Down",
    "First",
    "Fix",
    "Read",
    "Start game",
    "Say it as",
    "youngest",
    "Each",
    "Character tile",
    "Adventure",
    "Mind Flayer",
    "Waffle",
    "Deal",
    "face down",
    "reveal",
    "Help",
    "Back",
)

#: Per language: the count line, the two hints, the buttons, the first player's mark.
WORDS = {
    "fr": (
        "4 joueurs (4 à 10), sens horaire :",
        "Nom, puis Entrée (sens horaire)",
        "Prononcer : s sur un nom, Entrée",
        ["Retirer", "Haut", "Bas", "1er", "Éditer", "Lire à voix haute ^R", "Commencer ^S"],
        "★ 1er (le plus jeune)",
    ),
    "de": (
        "4 Spieler sitzen (4 bis 10), im Uhrzeigersinn:",
        "Name, dann Enter (Uhrzeigersinn)",
        "Aussprache: s auf Namen, Enter",
        ["Löschen", "Auf", "Ab", "Erster", "Ändern", "Vorlesen ^R", "Spiel starten ^S"],
        "★ beginnt (jüngster)",
    ),
    "es": (
        "4 jugadores sentados (4 a 10), en sentido horario:",
        "Nombre e Intro (sentido horario)",
        "Pronunciación: s y luego Intro",
        ["Quitar", "Sube", "Baja", "1.º", "Editar", "Leer en voz alta ^R", "Empezar ^S"],
        "★ empieza (más joven)",
    ),
}
#: Per language: the footer's words at 80 columns (short where the full ones do not fit).
FOOTER = {
    "fr": ["Aide", "Suppr", "1er", "Éditer", "Commencer", "Lire", "Retour"],
    "de": ["Hilfe", "Entf", "Erster", "Ändern", "Start", "Lesen", "Zurück"],
    "es": ["Ayuda", "Supr", "1.º", "Editar", "Empezar", "Leer", "Volver"],
}


def words_of(screen: SetupScreen, selector: str) -> str:
    return text_of(screen.query_one(selector, Static))


def one_line(text: str) -> str:
    """`text` as one line: a narrow column wraps a sentence, it does not change it."""
    return " ".join(text.split())


def roster_of(screen: SetupScreen) -> list[str]:
    roster = screen.query_one("#setup-roster", OptionList)
    return [str(roster.get_option_at_index(n).prompt) for n in range(roster.option_count)]


def labels_of(screen: SetupScreen) -> list[str]:
    return [str(screen.query_one(f"#setup-{name}", Button).label) for name in BUTTONS]


def footer_of(app: MindFlayerApp) -> str:
    """The footer as drawn at the screen's width."""
    return str(app.screen.query_one(KeyBar).render())


def assert_drawn_whole(app: MindFlayerApp, *texts: str) -> None:
    """Each text stands whole on one drawn row of the screen (nothing cut at the edge)."""
    rows = drawn_rows(app)
    for text in texts:
        assert any(text in row for row in rows), (text, rows)


def assert_no_english(*shown: str) -> None:
    text = "\n".join(shown)
    left = [english for english in ENGLISH if english in text]
    assert not left, (left, text)


def everything_on(app: MindFlayerApp, screen: SetupScreen) -> list[str]:
    return [
        words_of(screen, "#setup-count"),
        screen.query_one("#setup-name", Input).placeholder,
        screen.query_one("#setup-say-as", Input).placeholder,
        *roster_of(screen),
        *labels_of(screen),
        words_of(screen, "#setup-checklist"),
        footer_of(app),
    ]


def assert_the_setup_in(app: MindFlayerApp, screen: SetupScreen, lang: str) -> None:
    """Four players seated: the screen's words are `lang`'s, drawn whole at 80x24."""
    count, name_hint, say_hint, labels, first = WORDS[lang]
    assert one_line(words_of(screen, "#setup-count")) == count
    assert screen.query_one("#setup-name", Input).placeholder == name_hint
    assert screen.query_one("#setup-say-as", Input).placeholder == say_hint
    assert labels_of(screen) == labels
    assert roster_of(screen)[0] == f" 1. Ann  {first}"
    assert roster_of(screen)[1:] == [" 2. Bob", " 3. Cy", " 4. Dee"]
    bar = footer_of(app)
    for words in FOOTER[lang]:
        assert f" {words} " in f"{bar} ", (words, bar)
    assert_drawn_whole(app, name_hint, say_hint, *labels, first)
    assert_no_english(*everything_on(app, screen))


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
async def test_the_setup_screen_in_each_language_fits_at_80x24(
    folders: dict[str, Path], lang: str
) -> None:
    speaking(folders, lang)
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        await seat_players(pilot, FOUR)
        assert_the_setup_in(app, screen, lang)
        checklist = screen.query_one("#setup-checklist", Static)
        column = screen.query_one("#setup-right").region
        assert column.contains_region(checklist.region), "the whole checklist inside its column"


async def test_the_french_checklist_states_each_count_in_its_plural(
    folders: dict[str, Path],
) -> None:
    """One Mind Flayer card, one player symbol: singular; and the voice's numbers."""
    speaking(folders, "fr")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        await seat_players(pilot, FOUR)
        assert one_line(words_of(screen, "#setup-checklist")) == (
            "4 joueurs. "
            "• Chaque joueur prend une tuile personnage, côté en jeu visible. "
            "• Remettez dans la boîte les cartes Aventure portant les symboles 6+ et 9+. "
            "• Distribuez les cartes rôle secrètes : 1 carte Flagelleur mental et 3 cartes "
            "Gaufre, une face cachée à chaque joueur. "
            "• Pas de révélation yeux fermés à ce nombre de joueurs. "
            "• Le plus jeune joueur commence."
        )
        # The voice in the table's language (the app builds its narrator so; this
        # test's narrator is built before the settings are read).
        narrator.inner.update_settings(VoiceSettings(enabled=False, lang="fr"))
        said = " ".join(app.controller.lines(SetupCue(4)))
        assert "Flagelleur mental" in said, "the voice speaks French too"
        assert numbers(words_of(screen, "#setup-checklist")) == numbers(said)
        await seat_players(pilot, ["Eve", "Fin"])
        shown_six = one_line(words_of(screen, "#setup-checklist"))
        assert "portant le symbole 9+." in shown_six
        assert "2 cartes Flagelleur mental et 4 cartes Gaufre" in shown_six
        assert "• Puis la révélation yeux fermés : les Possédés se reconnaissent." in shown_six
        said = " ".join(app.controller.lines(SetupCue(6)))
        assert numbers(words_of(screen, "#setup-checklist")) == numbers(said)
        assert one_line(words_of(screen, "#setup-count")) == "6 joueurs (4 à 10), sens horaire :"
        assert_no_english(shown_six)


async def test_the_setups_refusals_and_hints_in_german(folders: dict[str, Path]) -> None:
    """Say it as with nobody seated, then fixing a name and its voice words: German."""
    speaking(folders, "de")
    app, _narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        roster = screen.query_one("#setup-roster", OptionList)
        roster.focus()
        await until(pilot, lambda: roster.has_focus, "the roster focused")
        await key(pilot, "s")
        error = words_of(screen, "#setup-error")
        assert error == "Tragt erst einen Spieler ein, dann sagt, wie sein Name ausgesprochen wird."
        # An empty roster is greeted, not refused (issue 35), as the table is addressed: ihr.
        assert one_line(words_of(screen, "#setup-checklist")).endswith(
            "Tippt den Namen jedes Spielers im Uhrzeigersinn ein und drückt Enter: 4 bis 10."
        )
        await seat_players(pilot, FOUR)
        roster.highlighted = 1
        await settled(pilot)
        await key(pilot, "e")
        name = screen.query_one("#setup-name", Input)
        assert name.placeholder == "Platz 2: neuer Name, Enter"
        await key(pilot, "escape")
        roster.focus()
        await until(pilot, lambda: roster.has_focus, "the roster focused again")
        await key(pilot, "s")
        saying = screen.query_one("#setup-say-as", Input)
        assert saying.placeholder == "Wie die Stimme Bob sagt (leer: wie geschrieben)"
        saying.value = "Bobby"
        await key(pilot, "enter")
        assert roster_of(screen)[1] == " 2. Bob  gesprochen »Bobby«"
        assert_no_english(error, name.placeholder, saying.placeholder, *roster_of(screen))


async def test_spanish_chosen_in_the_settings_while_seating_shows_on_the_setup(
    folders: dict[str, Path],
) -> None:
    """The setup was drawn in English: back from the Settings, every word is Spanish."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_setup(pilot)
        await seat_players(pilot, FOUR)
        assert one_line(words_of(screen, "#setup-count")) == (
            "4 players seated (4 to 10), clockwise:"
        )
        await choose_in_the_settings(pilot, narrator, "es", SetupScreen)
        await settled(pilot)
        assert_the_setup_in(app, screen, "es")
        assert "1 carta de Azotamentes y 3 cartas de Gofre" in one_line(
            words_of(screen, "#setup-checklist")
        )


async def test_the_questions_before_a_start_in_french(folders: dict[str, Path]) -> None:
    """A new series asked and kept (Esc), in French: the notice says so in French."""
    speaking(folders, "fr")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR)
        await narration_over(pilot, narrator)
        await key(pilot, "escape")
        await shown(pilot, StartScreen)
        await key(pilot, "n")
        await shown(pilot, PickPlayerScreen)
        await key(pilot, "escape")
        await shown(pilot, StartScreen)
        await settled(pilot)
        assert "Conservée : la série continue." in toasts(app)
        assert not [toast for toast in toasts(app) if "Kept" in toast]


async def test_the_seat_picker_marks_who_sits_out_in_german(folders: dict[str, Path]) -> None:
    speaking(folders, "de")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR)
        await key(pilot, "m")
        await shown(pilot, MeetingScreen)
        await narration_over(pilot, narrator)
        await key(pilot, "2")  # Bob sits out
        await key(pilot, "o")
        picker = await asked(pilot)
        names = dict(picker.choices)
        assert names[1] == "Bob  (setzt aus)" and names[0] == "Ann", names
