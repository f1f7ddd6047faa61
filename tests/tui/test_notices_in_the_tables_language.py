"""The notices and refusals a table sees during play, in its language (issue 18, items 1-3).

The real app at 80x24, its language from settings.json: a knock-out, its undo
and redo, and the rules refusing a second redo say the table's words in the
game screen's notice strip, whole, the names as typed, and no English word of
the sentences they replace. The app's own question (who is knocked out?), its
mute notices and its keys in the palette say the table's words too, and so do
the Settings' rules refusing a value out of range (nothing is saved).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import key, shown, until
from no_message_left import record_toasts, settled, toasts
from textual.pilot import Pilot
from textual.widgets import Input, Static

from moderator.table.config import SETTINGS_FILE
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import TrackedNarrator, asked, knock_out, narration_over, tracked_app
from tests.tui.drawn import drawn_rows
from tests.tui.test_i18n_screens import speaking
from tests.tui.test_notices_strip import pinned_clock, strip_text  # noqa: F401 (a fixture)

FOUR = ["Ann", "Bob", "Cy", "Dee"]
#: The English of the converted sentences, none of which a translated table may see.
ENGLISH = ("knocked out", "Undone", "Redone", "nothing to redo", "There is")

#: Per language: the knock-out, its undo, its redo, and the second redo refused.
SAID = {
    "fr": (
        "Dee est éliminé.",
        "Annulé : Dee éliminé.",
        "Refait : Dee éliminé.",
        "Il n'y a rien à refaire.",
    ),
    "de": (
        "Dee ist ausgeschieden.",
        "Rückgängig: Dee ausgeschieden.",
        "Wiederholt: Dee ausgeschieden.",
        "Es gibt nichts zu wiederholen.",
    ),
    "es": (
        "Dee queda eliminado.",
        "Deshecho: Dee eliminado.",
        "Rehecho: Dee eliminado.",
        "No hay nada que rehacer.",
    ),
}


@asynccontextmanager
async def at_the_table(
    folders: dict[str, Path], lang: str
) -> AsyncIterator[tuple[MindFlayerApp, Pilot[None], TrackedNarrator]]:
    """The real app at 80x24 in `lang` (its toasts kept), a new game of four on the table."""
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    record_toasts(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await seated(pilot, FOUR)
        yield app, pilot, narrator


@pytest.mark.usefixtures("pinned_clock")
@pytest.mark.parametrize("lang", sorted(SAID))
async def test_a_knock_out_its_undo_and_a_refusal_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    knocked, undone, redone, refused = SAID[lang]
    async with at_the_table(folders, lang) as (app, pilot, narrator):
        await knock_out(pilot, 3)
        await narration_over(pilot, narrator)
        for keys, said in ((("u",), undone), (("r",), redone), (("r",), refused)):
            await key(pilot, *keys)
            await until(pilot, lambda said=said: said in toasts(app), said)
        await until(pilot, lambda: strip_text(app).endswith(refused), "the refusal in the strip")
        assert toasts(app)[-4:] == [knocked, undone, redone, refused]
        screen = "\n".join(drawn_rows(app))
        assert refused in screen, "the refusal is drawn whole at 80x24"
        shown_words = "\n".join([*toasts(app)[-4:], strip_text(app)])
        for english in ENGLISH:
            assert english not in shown_words, (english, shown_words)


#: Per language: the knock-out's question, the voice muted and back, the app's keys.
APP_WORDS = {
    "fr": ("Qui est éliminé ?", "Voix coupée.", "Voix activée.", ("Couper la voix", "Aide")),
    "de": ("Wer scheidet aus?", "Stimme aus.", "Stimme an.", ("Hilfe",)),
    "es": ("¿Quién queda eliminado?", "Voz silenciada.", "Voz activada.", ("Ayuda",)),
}


@pytest.mark.parametrize("lang", sorted(APP_WORDS))
async def test_the_apps_question_its_notices_and_its_keys_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    question, muted, on, keys = APP_WORDS[lang]
    async with at_the_table(folders, lang) as (app, pilot, narrator):
        await narration_over(pilot, narrator)
        await key(pilot, "v")
        await until(pilot, lambda: muted in toasts(app), muted)
        await key(pilot, "v")
        await until(pilot, lambda: on in toasts(app), on)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        helps = [command.help for command in app.get_system_commands(app.screen)]
        for word in keys:
            assert word in titles, (word, titles)
        await key(pilot, "k")
        picker = await asked(pilot)
        title = str(picker.query_one("#pick-title", Static).render())
        assert title == question
        assert question in "\n".join(drawn_rows(app)), "the question is drawn whole at 80x24"
        english = ("Who is", "Voice muted", "Voice on", "Mute", "Help", "Silence the voice")
        shown_words = "\n".join([title, *toasts(app), *titles, *helps])
        for word in english:
            assert word not in shown_words, (word, shown_words)


#: Per language: the speech rate's rule and the lead-in's, as the Settings refuse them.
RULES = {
    "fr": (
        "Le débit de la voix doit être entre 80 et 450 mots par minute.",
        "Le silence avant doit être entre 0 et 2 secondes.",
    ),
    "de": (
        "Das Sprechtempo muss zwischen 80 und 450 Wörtern pro Minute liegen.",
        "Der Vorlauf muss zwischen 0 und 2 Sekunden liegen.",
    ),
    "es": (
        "La velocidad de la voz debe estar entre 80 y 450 palabras por minuto.",
        "El silencio previo debe estar entre 0 y 2 segundos.",
    ),
}


@pytest.mark.parametrize("lang", sorted(RULES))
async def test_the_settings_rules_refuse_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    async with at_the_table(folders, lang) as (_app, pilot, _narrator):
        for field, typed, said in zip(
            ("#settings-rate", "#settings-lead-in"), ("9999", "3"), RULES[lang], strict=True
        ):
            await key(pilot, "f2")
            screen = await shown(pilot, SettingsScreen)
            screen.query_one(field, Input).value = typed
            await settled(pilot)
            await key(pilot, "ctrl+s")
            error = str(screen.query_one("#settings-error", Static).render())
            assert error == said
            assert "must be" not in error and "between" not in error
            await key(pilot, "escape")
            await shown(pilot, TableScreen)
    assert not (folders["config"] / SETTINGS_FILE).read_text(encoding="utf-8").count("9999")
