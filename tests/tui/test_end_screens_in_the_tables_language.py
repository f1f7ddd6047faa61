"""The reveal, the finale, the results and the series board in the table's language (issue 18).

The real app at 80x24, its language from settings.json as a table sets it: the big
words, the status lines, the cue, the key bar and the tooltips' words say the
table's words, none of the English ones they replace is left, and nothing is cut
(every word of a sentence is drawn; the big text keeps its block letters). A
language chosen in the Settings during a game shows on the screen under the dialog.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from controller_shortcuts import (
    accepted,
    controller_of,
    declared,
    knocked_out,
    next_started,
    show,
    started,
    to_results,
)
from driving import FOUR, key, new_game, shown
from no_message_left import settled
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, DataTable, Static

from moderator import i18n
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.widgets.bigtext import BigText, big_lines, pick_scale, wrap_words
from tests.tui.app_driver import TrackedNarrator, narration_over, text_of, tracked_app
from tests.tui.drawn import drawn_rows
from tests.tui.test_i18n_screens import speaking
from tests.tui.test_play_screens_in_the_tables_language import (
    bar_of,
    choose_in_the_settings,
    keys_listed,
    words_of,
)

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin"]


def drawn_whole(app: MindFlayerApp, sentence: str) -> None:
    """Every word of `sentence` is on the screen as drawn (a wrapped line cuts none)."""
    screen = " ".join(drawn_rows(app)).split()
    missing = [word for word in sentence.split() if word not in screen]
    assert not missing, (missing, drawn_rows(app))


def big_words(app: MindFlayerApp, selector: str, words: str) -> None:
    """The big text says `words` in block letters (accents as their own glyphs), all rows shown."""
    widget = app.screen.query_one(selector, BigText)
    assert widget.text == words
    width = widget.content_region.width
    scale = pick_scale(words, width, app.size.height)
    wrapped = wrap_words(words, width, scale)
    assert wrapped is not None, "a word wider than the screen: plain text instead"
    expected = [row.strip() for line in wrapped for row in big_lines(line, scale)]
    rows = [widget.render_line(y).text.strip() for y in range(widget.size.height)]
    assert rows == expected, (rows, expected)


async def on_the_reveal(pilot: Pilot[None], narrator: TrackedNarrator) -> RevealScreen:
    """Six players: a new game, on the reveal screen before it starts."""
    screen = await show(pilot, started(controller_of(pilot), SIX), RevealScreen)
    await narration_over(pilot, narrator)
    return screen


async def on_the_finale(pilot: Pilot[None], narrator: TrackedNarrator) -> FinaleScreen:
    """Four players; Cy and Dee knocked out end the game: the count done."""
    controller = controller_of(pilot)
    started(controller, FOUR)
    accepted(controller.pass_turn())
    screen = await show(pilot, knocked_out(controller, 2, 3), FinaleScreen)
    await narration_over(pilot, narrator)
    return screen


#: The English words of the reveal screen a translated table must not see.
REVEAL_ENGLISH = (
    "EYES",
    "REVEAL",
    "Press",
    "reveal",
    "close your eyes",
    "Start reveal",
    "Abort",
    "To table",
    "To the table",
    "Undo start",
    "Help",
)


@pytest.mark.parametrize(
    ("lang", "title", "status", "listed", "bar"),
    [
        (
            "fr",
            "RÉVÉLATION YEUX FERMÉS",
            "Appuyez sur Entrée (ou Espace) pour lancer la révélation, puis fermez les yeux.",
            ["Aide", "Lancer la révélation", "Arrêter", "À la table", "Annuler le début"],
            (" ⏎ Lancer ", " esc Arrêter ", " t Table "),
        ),
        (
            "de",
            "ERKENNEN MIT GESCHLOSSENEN AUGEN",
            "Drückt Enter (oder die Leertaste), um das Erkennen zu starten,"
            " und schließt dann die Augen.",
            ["Hilfe", "Erkennen starten", "Abbrechen", "Zum Tisch", "Start zurücknehmen"],
            (" ⏎ Los ", " esc Abbrechen ", " t Tisch "),
        ),
        (
            "es",
            "RECONOCIMIENTO CON LOS OJOS CERRADOS",
            "Pulsad Intro (o la barra espaciadora) para empezar el reconocimiento"
            " y luego cerrad los ojos.",
            ["Ayuda", "Empezar reconocimiento", "Detener", "A la mesa", "Deshacer inicio"],
            (" ⏎ Empezar ", " esc Detener ", " t Mesa "),
        ),
    ],
)
async def test_the_reveal_in_the_tables_language(
    folders: dict[str, Path],
    lang: str,
    title: str,
    status: str,
    listed: list[str],
    bar: tuple[str, ...],
) -> None:
    """The big words in block letters, the status line whole, the keys in the table's words.

    The footer's short "Start" is the reveal's (start it), not the start screen's section.
    """
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_the_reveal(pilot, narrator)
        big_words(app, "#reveal-caption", title)
        assert words_of(app, "#reveal-status") == status
        drawn_whole(app, status)
        keys = keys_listed(app)
        for words in listed:
            assert words in keys, (words, keys)
        for words in bar:
            assert words in bar_of(app), (words, bar_of(app))
        shown_words = "\n".join([title, status, *keys, bar_of(app)])
        for english in REVEAL_ENGLISH:
            assert english not in shown_words, english
        # Enter's word is the reveal's own, not the start screen's ("Start" is also German).
        assert f" ⏎ {i18n._('Start')} " not in f"{bar_of(app)} ", "the start screen's word"


async def test_french_chosen_in_the_settings_shows_on_the_reveal(folders: dict[str, Path]) -> None:
    """The reveal drawn in English: back from the Settings, its words and keys follow."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_the_reveal(pilot, narrator)
        big_words(app, "#reveal-caption", "EYES CLOSED REVEAL")
        await choose_in_the_settings(pilot, narrator, "fr", RevealScreen)
        big_words(app, "#reveal-caption", "RÉVÉLATION YEUX FERMÉS")
        assert words_of(app, "#reveal-status").startswith("Appuyez sur Entrée (ou Espace)")
        assert " ⏎ Lancer " in bar_of(app) and " t Table " in bar_of(app)


#: The English words of the finale a translated table must not see.
FINALE_ENGLISH = (
    "GAME OVER",
    "Only",
    "still in play",
    "the game ends",
    "growl!",
    "stand up and applaud",
    "Press Enter",
    "Enter results",
    "Count again",
    "Results",
    "Undo",
    "Redo",
    "Help",
)


@pytest.mark.parametrize(
    ("lang", "title", "reason", "cue", "then", "bar"),
    [
        (
            "fr",
            "PARTIE TERMINÉE",
            "Il ne reste que 2 joueurs en jeu : la partie est finie.",
            "Possédés : grognez ! Joueurs sains encore en jeu : levez-vous et applaudissez !",
            "Appuyez sur Entrée pour indiquer qui a grogné.",
            (" ⏎ Résultats ", " c Recompter "),
        ),
        (
            "de",
            "SPIEL VORBEI",
            "Nur noch 2 Spieler sind im Spiel: Das Spiel endet.",
            "Besessene: knurrt! Gesunde Spieler, die noch im Spiel sind: Steht auf und klatscht!",
            "Drückt Enter, um einzugeben, wer geknurrt hat.",
            (" ⏎ Ergebnisse ", " c Nochmal zählen "),
        ),
        (
            "es",
            "FIN DE LA PARTIDA",
            "Solo quedan 2 jugadores en juego: la partida termina.",
            "¡Poseídos, gruñid! Jugadores cuerdos que seguís en juego: ¡levantaos y aplaudid!",
            "Pulsad Intro para anotar quién ha gruñido.",
            (" ⏎ Resultados ", " c Contar otra vez "),
        ),
    ],
)
async def test_the_finale_in_the_tables_language(
    folders: dict[str, Path],
    lang: str,
    title: str,
    reason: str,
    cue: str,
    then: str,
    bar: tuple[str, ...],
) -> None:
    """Why the game ended, the cue and the next step drawn whole, the keys in its words.

    The reason's first line is the knock-out's voice line (the voice's language).
    """
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_the_finale(pilot, narrator)
        big_words(app, "#finale-title", title)
        assert words_of(app, "#finale-reason").splitlines()[-1] == reason
        assert words_of(app, "#finale-cue") == cue
        assert words_of(app, "#finale-next") == then
        for sentence in (reason, cue, then):
            drawn_whole(app, sentence)
        for words in bar:
            assert words in bar_of(app), (words, bar_of(app))
        shown_words = "\n".join([title, reason, cue, then, *keys_listed(app), bar_of(app)])
        for english in FINALE_ENGLISH:
            assert english not in shown_words, english


async def test_the_third_meeting_ends_the_game_in_german(folders: dict[str, Path]) -> None:
    """Three Meetings resolved: the reason is the rulebook's, in German, drawn whole."""
    speaking(folders, "de")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_game(pilot, FOUR)
        for _meeting in range(3):
            await key(pilot, "m")
            await shown(pilot, MeetingScreen)
            await key(pilot, "enter")
        await shown(pilot, FinaleScreen)
        await narration_over(pilot, narrator)
        reason = "Das dritte Treffen ist beendet: Das Spiel endet."
        assert words_of(app, "#finale-reason") == reason
        drawn_whole(app, reason)


async def test_spanish_chosen_in_the_settings_shows_on_the_finale(folders: dict[str, Path]) -> None:
    """The finale drawn in English: back from the Settings, its words and keys follow."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_the_finale(pilot, narrator)
        big_words(app, "#finale-title", "GAME OVER")
        await choose_in_the_settings(pilot, narrator, "es", FinaleScreen)
        big_words(app, "#finale-title", "FIN DE LA PARTIDA")
        reason = words_of(app, "#finale-reason").splitlines()[-1]
        assert reason == "Solo quedan 2 jugadores en juego: la partida termina."
        assert words_of(app, "#finale-cue").startswith("¡Poseídos, gruñid!")
        assert words_of(app, "#finale-next") == "Pulsad Intro para anotar quién ha gruñido."
        assert " ⏎ Resultados " in bar_of(app)


def test_a_word_marked_with_its_context_is_translated_in_it() -> None:
    """`NP_`: the reveal's short "Start" is "Lancer", the start screen's stays "Accueil"."""
    marked = i18n.NP_("reveal footer: start the reveal", "Start")
    assert marked == "Start" and i18n._(marked) == "Start", "English: the msgid itself"
    i18n.use_language("fr")
    assert i18n._(marked) == "Lancer"
    assert i18n._("Start") == "Accueil"


#: The English words of the result screen a translated table must not see.
RESULT_ENGLISH = (
    "Tick everyone",
    "Possessed",
    "Sane",
    "Waffle",
    "knocked out",
    "not counted",
    "If that is right",
    "SANE win",
    "Points:",
    "box still shows",
    "type the count again",
    "Not saved",
    "Save result",
    "Help",
)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "fr",
            {
                "help": "Cochez tous ceux qui ont grogné : ce sont les Possédés, les autres sont"
                " sains.\nLes cartes Gaufre ne comptent que pour l'équipe gagnante.",
                "teams": ("Possédé", "Sain"),
                "waffles": "Gaufres :",
                "out": "Dee  (éliminé)",
                "not counted": "non compté",
                "preview": "Si c'est juste : les SAINS gagnent. Points : Ann 1, Bob 1, Cy 0, Dee 1",
                "refused": "La case de Bob affiche toujours 9, pas 99 : retapez le nombre"
                " pour continuer.",
                "not saved": "Pas enregistré : corrigez d'abord la case Gaufres marquée.",
                "save": "Enregistrer le résultat (^S)",
                "key": "Enregistrer le résultat",
            },
        ),
        (
            "de",
            {
                "help": "Kreuzt alle an, die geknurrt haben: Sie sind Besessene, die anderen"
                " Gesunde.\nWaffel-Karten zählen nur für das Siegerteam.",
                "teams": ("Besessen", "Gesund"),
                "waffles": "Waffeln:",
                "out": "Dee  (ausgeschieden)",
                "not counted": "zählt nicht",
                "preview": "Wenn das stimmt: die GESUNDEN gewinnen. Punkte: Ann 1, Bob 1, Cy 0,"
                " Dee 1",
                "refused": "Das Feld von Bob zeigt noch 9, nicht 99: Gebt die Zahl neu ein,"
                " um weiterzumachen.",
                "not saved": "Nicht gespeichert: Korrigiert zuerst das markierte Waffelfeld.",
                "save": "Ergebnis speichern (^S)",
                "key": "Ergebnis speichern",
            },
        ),
        (
            "es",
            {
                "help": "Marcad a todos los que han gruñido: son Poseídos; los demás, cuerdos."
                "\nLas cartas de Gofre solo cuentan para el equipo ganador.",
                "teams": ("Poseído", "Cuerdo"),
                "waffles": "Gofres:",
                "out": "Dee  (eliminado)",
                "not counted": "no cuenta",
                "preview": "Si es correcto: ganan los CUERDOS. Puntos: Ann 1, Bob 1, Cy 0, Dee 1",
                "refused": "La casilla de Bob sigue mostrando 9, no 99: escribid el número"
                " otra vez para seguir.",
                "not saved": "No guardado: corregid primero la casilla de Gofres marcada.",
                "save": "Guardar resultado (^S)",
                "key": "Guardar resultado",
            },
        ),
    ],
)
async def test_the_results_in_the_tables_language(
    folders: dict[str, Path], lang: str, words: dict[str, str]
) -> None:
    """Who growled, the teams, the winner and points, a refused keystroke, a refused save.

    Cy growled: the Sane win. The names stay as typed; the domain's own sentence
    under the rows is the domain's (not this screen's) and is not read here.
    """
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_results(pilot)
        await narration_over(pilot, narrator)
        assert words_of(app, "#result-help") == words["help"]
        drawn_whole(app, words["help"])
        screen.query_one("#possessed-2", Checkbox).value = True
        await settled(pilot)
        possessed, sane = words["teams"]
        assert words_of(app, "#team-2") == possessed and words_of(app, "#team-0") == sane
        labels = [text_of(label) for label in screen.query(".waffle-label").results(Static)]
        assert labels[0] == words["waffles"]
        assert str(screen.query_one("#possessed-3", Checkbox).label) == words["out"]
        assert words_of(app, "#waffle-note-2") == words["not counted"]
        preview = words_of(app, "#result-winner")
        assert preview == words["preview"]
        drawn_whole(app, preview)
        assert str(screen.query_one("#result-save", Button).label) == words["save"]
        assert words["key"] in keys_listed(app)
        shown_words = "\n".join(
            [words_of(app, "#result-help"), *labels, preview, *keys_listed(app), bar_of(app)]
            + [words_of(app, f"#team-{seat}") for seat in range(4)]
            + [words_of(app, f"#waffle-note-{seat}") for seat in range(4)]
        )
        await key(pilot, "down", "9", "9")  # Bob: 99 is refused, the box shows 9
        refused = words_of(app, "#result-winner")
        assert refused == words["refused"]
        drawn_whole(app, refused)
        await key(pilot, "ctrl+s")
        assert isinstance(app.screen, ResultScreen)
        not_saved = words_of(app, "#result-error")
        assert not_saved == words["not saved"]
        for english in RESULT_ENGLISH:
            for shown_now in (shown_words, refused, not_saved):
                assert english not in shown_now, english


async def test_german_chosen_in_the_settings_shows_on_the_results(
    folders: dict[str, Path],
) -> None:
    """The results drawn in English: back from the Settings, their words follow, ticks kept."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_results(pilot)
        screen.query_one("#possessed-2", Checkbox).value = True
        await settled(pilot)
        assert words_of(app, "#team-2") == "Possessed"
        await choose_in_the_settings(pilot, narrator, "de", ResultScreen)
        assert words_of(app, "#result-help").startswith("Kreuzt alle an, die geknurrt haben")
        assert words_of(app, "#team-2") == "Besessen" and words_of(app, "#team-0") == "Gesund"
        assert str(screen.query_one("#possessed-3", Checkbox).label) == "Dee  (ausgeschieden)"
        assert screen.query_one("#possessed-2", Checkbox).value, "the tick is kept"
        labels = [text_of(label) for label in screen.query(".waffle-label").results(Static)]
        assert set(labels) == {"Waffeln:"}
        assert words_of(app, "#result-winner").startswith("Wenn das stimmt: die GESUNDEN")
        assert str(screen.query_one("#result-save", Button).label) == "Ergebnis speichern (^S)"


def columns(app: MindFlayerApp) -> list[str]:
    board = app.screen.query_one("#series-board", DataTable)
    return [str(column.label) for column in board.columns.values()]


def buttons(app: MindFlayerApp) -> list[str]:
    return [str(button.label) for button in app.screen.query(Button) if button.display]


async def one_game_played(pilot: Pilot[None], narrator: TrackedNarrator) -> SeriesScreen:
    """Four players, Cy and Dee knocked out, Cy growled: the Sane win, on the board."""
    controller = controller_of(pilot)
    started(controller, FOUR)
    accepted(controller.pass_turn())
    knocked_out(controller, 2, 3)
    screen = await show(pilot, declared(controller, [2]), SeriesScreen)
    await narration_over(pilot, narrator)
    return screen


#: The English words of the series board a translated table must not see.
SERIES_ENGLISH = (
    "Series:",
    "games played",
    "game 1",
    "Sane won",
    "sane win",
    "Player",
    "Game",
    "Leading",
    "Next game",
    "New series",
    "Start screen",
    "Help",
)


@pytest.mark.parametrize(
    ("lang", "title", "team", "heads", "leading", "labels", "bar"),
    [
        (
            "fr",
            "Série : 1 partie jouée sur 3 (partie 1 : les sains ont gagné)",
            "Les sains gagnent",
            ["Joueur", "Partie 1", "Partie 2", "Partie 3", "Total"],
            "En tête : Ann, Bob, Dee",
            ["Partie suivante (n)", "Nouvelle série (s)", "Écran d'accueil (b)"],
            (" n Suivante ", " s Nouvelle "),  # the footer's short word for New series
        ),
        (
            "de",
            "Serie: 1 von 3 Spielen gespielt (Spiel 1: Die Gesunden haben gewonnen)",
            "Die Gesunden gewinnen",
            ["Spieler", "Spiel 1", "Spiel 2", "Spiel 3", "Summe"],
            "In Führung: Ann, Bob, Dee",
            ["Nächstes Spiel (n)", "Neue Serie (s)", "Startbildschirm (b)"],
            (" s Neu ",),
        ),
        (
            "es",
            "Serie: 1 de 3 partidas jugadas (partida 1: ganaron los cuerdos)",
            "Ganan los cuerdos",
            ["Jugador", "Partida 1", "Partida 2", "Partida 3", "Total"],
            "En cabeza: Ann, Bob, Dee",
            ["Siguiente partida (n)", "Nueva serie (s)", "Pantalla de inicio (b)"],
            (" s Nueva ",),
        ),
    ],
)
async def test_the_series_board_in_the_tables_language(
    folders: dict[str, Path],
    lang: str,
    title: str,
    team: str,
    heads: list[str],
    leading: str,
    labels: list[str],
    bar: tuple[str, ...],
) -> None:
    """After game 1: the title, who won in big letters, the board's heads, who leads, the
    buttons and keys in the table's words; the names as typed."""
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_game_played(pilot, narrator)
        assert words_of(app, "#series-title") == title
        drawn_whole(app, title)
        big_words(app, "#series-team", team)
        assert columns(app) == heads
        assert words_of(app, "#series-leader") == leading
        assert buttons(app) == labels
        for words in bar:
            assert words in bar_of(app), (words, bar_of(app))
        shown_words = "\n".join(
            [title, team, *heads, leading, *labels, *keys_listed(app), bar_of(app)]
        )
        for english in SERIES_ENGLISH:
            assert english not in shown_words, english


async def test_a_complete_series_in_german(folders: dict[str, Path]) -> None:
    """Three games: the series' end, its winners' names in big letters (as typed), in German."""
    speaking(folders, "de")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_game_played(pilot, narrator)
        controller = controller_of(pilot)
        for _game in (2, 3):
            next_started(controller)  # the same roster
            knocked_out(controller, 2, 3)
            outcome = declared(controller, [3], {0: 1})  # Dee growled, Ann holds a Waffle
        await show(pilot, outcome, SeriesScreen)
        await narration_over(pilot, narrator)
        title = "Serie: 3 von 3 Spielen gespielt (Spiel 3: Die Gesunden haben gewonnen)"
        assert words_of(app, "#series-title") == title
        assert words_of(app, "#series-leader") == "Serie gewonnen von: Ann"
        big_words(app, "#series-winner", "Ann")
        assert buttons(app) == ["Neue Serie (s)", "Startbildschirm (b)"]
        assert "Nächstes Spiel" not in keys_listed(app)


async def test_french_chosen_in_the_settings_shows_on_the_series_board(
    folders: dict[str, Path],
) -> None:
    """The board drawn in English: back from the Settings, all its words follow."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_game_played(pilot, narrator)
        assert buttons(app)[0] == "Next game (n)"
        await choose_in_the_settings(pilot, narrator, "fr", SeriesScreen)
        assert words_of(app, "#series-title").startswith("Série : 1 partie jouée sur 3")
        big_words(app, "#series-team", "Les sains gagnent")
        assert columns(app)[0] == "Joueur"
        assert buttons(app)[0] == "Partie suivante (n)"
        assert " n Suivante " in bar_of(app)
