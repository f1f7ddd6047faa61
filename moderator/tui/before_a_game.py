"""The questions asked before a game: set a series aside, a renamed player.

Each asks through the player picker in a dialog (`dialogs/pick_player.py`) and
answers by posting an intent stamped with the phase it was asked in: the app
runs it like any other, and drops it if the table has left that phase (a late
answer changes nothing). The seat questions asked during a game are the phase
screen's own (`PlayScreen.ask_seat`).

A collaborator of the app (`MindFlayerApp.questions`), handed Textual's `App`
and the table controller; it does not know the app's class.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from moderator.i18n import _
from moderator.table.controller import TableController
from moderator.table.outcomes import RenameQuestions
from moderator.table.set_aside import ANSWERS, KEEP, SET_ASIDE
from moderator.tui.messages import Intent, StartGame
from moderator.tui.screen_classes import DIALOGS, load_class


class QuestionsBeforeAGame:
    """Asks the table before a series or a game starts (`messages.AsksBeforeAGame`)."""

    def __init__(self, app: App[Any], table: TableController) -> None:
        self._app = app
        self._table = table

    def _answer(self, intent: Intent) -> None:
        """Post the table's answer, stamped with the phase the question was asked in."""
        intent.origin = self._table.phase
        self._app.post_message(intent)

    def asking(self) -> bool:
        """Whether a question is open: a question is asked once, however many keys ask it.

        Two people pressing at once (two `n` on the start screen) asked twice; one
        Esc left the second question, and the keys did nothing until a second Esc.
        """
        return isinstance(self._app.screen, _picker())

    def set_aside(self, question: str, then: Intent) -> None:
        """Set the started series aside only on the table's yes (Esc keeps it); then `then`."""
        if self.asking():
            return
        phase = self._table.phase

        def answered(answer: int | None) -> None:
            if answer == SET_ASIDE and self._table.phase is phase:
                self._answer(then)
            else:
                self._app.notify(_("Kept: the series goes on."), markup=False)

        answers = [(answer, _(label)) for answer, label in ANSWERS]  # marked N_ where made
        self._app.push_screen(_picker()(question, answers, KEEP), answered)

    def renames(self, start: StartGame, questions: RenameQuestions) -> None:
        """One question per new name (Esc: not now, nothing is saved); then `start` with them."""
        if self.asking():
            return
        phase = self._table.phase
        renames: dict[str, str] = {}
        new_names = list(questions.new)

        def ask() -> None:
            missing = [name for name in questions.missing if name not in renames]
            if not new_names or not missing:
                self._answer(StartGame(start.players, start.first_player, start.said_as, renames))
                return
            name = new_names.pop(0)
            choices = [*enumerate(missing), (len(missing), _("No: a new player"))]

            def answered(index: int | None) -> None:
                if index is None or self._table.phase is not phase:
                    self._app.notify(_("Not started: the roster is as it was."), markup=False)
                    return
                if index < len(missing):
                    renames[missing[index]] = name
                ask()

            # The name is the table's, filled in literally after the translation.
            question = _("Is {name} an earlier player (points carry over)?").format(name=name)
            self._app.push_screen(_picker()(question, choices, 0), answered)

        ask()


def _picker() -> Any:
    """The picker dialog's class, its module loaded on first use (as every dialog's)."""
    return load_class(DIALOGS["pick"])
