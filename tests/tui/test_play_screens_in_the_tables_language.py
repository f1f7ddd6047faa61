"""The table screen and the Meeting in the table's language (issue 18, items 1-2).

The real app at 80x24, its language from settings.json as a table sets it: the
captions, the header's progress words, the tiles, the picture's centre and the
key bar say the table's words, and none of the English ones they replace; the
names stay as typed. A Meeting's tiles, in every language, still lie inside the
picture with both passing lines whole.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from controller_shortcuts import controller_of, show, started
from driving import key, shown
from no_message_left import settled
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Select, Static

from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.key_bar import KeyBar
from tests.tui.app_driver import TrackedNarrator, knock_out, narration_over, text_of, tracked_app
from tests.tui.test_i18n_screens import speaking

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fin"]
TEN = [f"Player {n}" for n in range(10)]


async def playing(
    pilot: Pilot[None],
    narrator: TrackedNarrator,
    names: list[str],
    keys: tuple[str, ...],
    screen: type[Screen[None]],
) -> None:
    """A new game of `names` (seated by the table's controller), then `keys` as pressed:
    on the `screen` reached, its voice done."""
    await show(pilot, started(controller_of(pilot), names), RevealScreen)
    await key(pilot, *keys)
    await shown(pilot, screen)
    await narration_over(pilot, narrator)


def words_of(app: MindFlayerApp, selector: str) -> str:
    return text_of(app.screen.query_one(selector, Static))


def header(app: MindFlayerApp) -> str:
    return str(app.screen.query_one("HeaderTitle").render())


def keys_listed(app: MindFlayerApp) -> list[str]:
    """Every key the footer has (before a narrow line leaves some out), as described."""
    return [item.description for item in app.screen.query_one(KeyBar).items]


def bar_of(app: MindFlayerApp) -> str:
    """The footer as drawn (its short words where the full ones do not fit)."""
    return str(app.screen.query_one(KeyBar).render())


def tiles(app: MindFlayerApp, count: int) -> list[str]:
    return [words_of(app, f"#seat-{seat}") for seat in range(count)]


async def test_the_table_screen_in_french(folders: dict[str, Path]) -> None:
    speaking(folders, "fr")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await playing(pilot, narrator, SIX, ("t",), TableScreen)
        await knock_out(pilot, 5)
        await narration_over(pilot, narrator)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        caption = [text_of(widget) for widget in screen.query(".caption").results(Static)]
        assert caption[0] == "Tour"
        # At 80 columns the captions over the big text say it shorter (whole, they wrapped
        # into the big letters: issue 34); 120 columns has room for the whole sentence.
        assert words_of(app, "#table-current-label") == "Place 1 : à toi de jouer."
        assert words_of(app, "#table-meetings-label") == "Réunions : 0 sur 3"
        assert "Partie 1 sur 3 · prochaine : Réunion 1 sur 3" in header(app)
        drawn = tiles(app, 6)
        assert drawn[0] == "1 Ann\n▶ À TOI"  # the seat number first (issue 35)
        assert drawn[1:5] == [f"{seat + 1} {SIX[seat]}\nen jeu" for seat in range(1, 5)]
        assert drawn[5] == "6 Fin\n✗ ÉLIMINÉ"
        assert words_of(app, "#table-centre") == "sens horaire ↻"
        listed = keys_listed(app)
        for french in ("Aide", "Tour suivant", "Carte Réunion", "Éliminer", "Menu", "Annuler"):
            assert french in listed, (french, listed)
        assert " m Réunion " in bar_of(app), "the short word at 80 columns is French too"
        listed.append(bar_of(app))
        shown_words = "\n".join([*caption, *drawn, header(app), *listed])
        shown_words += words_of(app, "#table-current-label") + words_of(app, "#table-centre")
        for english in (
            "Turn",
            "Seat",
            "your turn",
            "Meetings done",
            "Game 1",
            "next: Meeting",
            "YOUR TURN",
            "in play",
            "KNOCKED OUT",
            "clockwise",
            "Next turn",
            "Meeting card",
            "Knock out",
            "Help",
            "Undo",
            "Redo",
        ):
            assert english not in shown_words, english


async def test_a_meeting_in_german(folders: dict[str, Path]) -> None:
    speaking(folders, "de")
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await playing(pilot, narrator, SIX, ("t", "m"), MeetingScreen)
        assert words_of(app, "#meeting-number-label") == "Treffen 1 von 3"
        assert "Spiel 1 von 3 · Treffen 1 von 3" in header(app)
        assert words_of(app, "#meeting-sitting-out") == (
            "6 nehmen teil: Ann, Bob, Cy, Dee, Eve, Fin."
            " Die Platztasten (oder ein Klick): setzt aus / kommt zurück."
        )
        assert words_of(app, "#table-centre") == "L: links · R: rechts"
        listed = keys_listed(app)
        for german in ("Hilfe", "Treffen beendet", "Aussetzen", "Ausscheiden", "Menü"):
            assert german in listed, (german, listed)
        assert " ⏎ Beendet " in bar_of(app), "the short word at 80 columns is German too"
        listed.append(bar_of(app))
        await key(pilot, "2", "3", "4", "5")  # Bob, Cy, Dee and Eve sit out: two take part
        assert words_of(app, "#meeting-caption") == (
            "Nicht sprechen. Nur zwei Spieler nehmen teil: Jeder gibt beide Karten dem anderen."
        )
        roster = words_of(app, "#meeting-sitting-out")
        assert roster.startswith("2 nehmen teil: Ann, Fin. Setzen aus: Bob, Cy, Dee, Eve."), roster
        drawn = tiles(app, 6)
        assert drawn[1] == "2 Bob\nsetzt aus", drawn
        assert drawn[0].splitlines()[1:] == ["L ▸ Fin", "R ▸ Fin"], drawn
        await key(pilot, "6")  # Fin too: Ann alone
        assert words_of(app, "#meeting-caption") == (
            "Nur ein Spieler nimmt an diesem Treffen teil: Er behält seine Karten."
        )
        assert words_of(app, "#meeting-sitting-out").startswith("1 nimmt teil: Ann.")
        assert tiles(app, 1) == ["1 Ann\nbehält die Karten"]
        shown_words = "\n".join(
            [
                *tiles(app, 6),
                *listed,
                header(app),
                words_of(app, "#meeting-number-label"),
                words_of(app, "#meeting-caption"),
                words_of(app, "#meeting-sitting-out"),
                words_of(app, "#table-centre"),
            ]
        )
        for english in (
            "Meeting",
            "Game",
            "take part",
            "takes part",
            "Sitting out",
            "sits out",
            "seat number keys",
            "keep",
            "left",
            "right",
            "Sit out",
            "Knock out",
            "Resolved",
            "Help",
        ):
            assert english not in shown_words, english


@pytest.mark.parametrize(
    ("lang", "left", "right", "roster"),
    [
        ("fr", "G", "D", "10 participent : Player 0, "),
        ("de", "L", "R", "10 nehmen teil: Player 0, "),
        ("es", "I", "D", "10 participan: Player 0, "),
    ],
)
async def test_ten_players_meeting_tiles_fit_in_every_language(
    folders: dict[str, Path], lang: str, left: str, right: str, roster: str
) -> None:
    """At 80x24, under the table's own instructions and roster line: every tile inside
    the picture, none overlapping, each giver's two passing lines drawn whole."""
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await playing(pilot, narrator, TEN, ("t", "m"), MeetingScreen)
        screen = app.screen
        assert words_of(app, "#meeting-sitting-out").startswith(roster)
        picture = screen.query_one("#meeting-picture").region
        regions = []
        for seat in range(10):
            tile = screen.query_one(f"#seat-{seat}", Static)
            assert picture.contains_region(tile.region), (seat, tile.region, picture)
            lines = text_of(tile).splitlines()
            assert len(lines) == 3, lines
            assert lines[1].startswith(f"{left} ▸ ") and lines[2].startswith(f"{right} ▸ "), lines
            assert tile.region.height == len(lines) + 2, "the lines and the borders all show"
            regions.append(tile.region)
        for first, second in combinations(regions, 2):
            assert not first.overlaps(second)


async def choose_in_the_settings(
    pilot: Pilot[None], narrator: TrackedNarrator, lang: str, back_on: type[Screen[None]]
) -> None:
    """F2, the language `lang`, Ctrl+S: back on the `back_on` screen, its voice done."""
    await key(pilot, "f2")
    dialog = await shown(pilot, SettingsScreen)
    dialog.query_one("#settings-lang", Select).value = lang
    await settled(pilot)
    await key(pilot, "ctrl+s")
    await shown(pilot, back_on)
    await narration_over(pilot, narrator)


async def test_french_chosen_in_the_settings_during_a_game_shows_on_the_table_screen(
    folders: dict[str, Path],
) -> None:
    """The screen under the dialog was drawn in English: back on it, all its words follow."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await playing(pilot, narrator, SIX, ("t",), TableScreen)
        assert tiles(app, 1) == ["1 Ann\n▶ YOUR TURN"]
        await choose_in_the_settings(pilot, narrator, "fr", TableScreen)
        assert words_of(app, "#table-turn-label") == "Tour"
        assert words_of(app, "#table-current-label").startswith("Place 1 : à toi de jouer.")
        assert tiles(app, 2) == ["1 Ann\n▶ À TOI", "2 Bob\nen jeu"]
        assert words_of(app, "#table-centre") == "sens horaire ↻"
        assert "Partie 1 sur 3" in header(app)
        # The app's title too; at 80 columns the header gives it up for the game's state.
        assert app.title == "Meneur de jeu Flagelleur mental"
        # 80 columns: "Suivant" (short) keeps Undo on the footer (issue 35).
        assert " n Suivant " in bar_of(app) and " m Réunion " in bar_of(app)


async def test_spanish_chosen_in_the_settings_during_a_meeting_shows_on_the_meeting(
    folders: dict[str, Path],
) -> None:
    """The English voice line gives way to the written instructions in Spanish."""
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(80, 24)) as pilot:
        await playing(pilot, narrator, SIX, ("t", "m"), MeetingScreen)
        await choose_in_the_settings(pilot, narrator, "es", MeetingScreen)
        assert words_of(app, "#meeting-number-label") == "Reunión 1 de 3"
        assert words_of(app, "#meeting-caption") == (
            "Sin hablar. Dad una carta a la izquierda (←) y otra a la derecha (→)."
        )
        assert words_of(app, "#meeting-sitting-out").startswith("6 participan: Ann, ")
        assert tiles(app, 1)[0].splitlines()[1:] == ["I ▸ Bob", "D ▸ Fin"]
        assert words_of(app, "#table-centre") == "I: izquierda · D: derecha"
        assert " ⏎ Resuelta " in bar_of(app)
