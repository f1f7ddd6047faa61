"""The end of a game: why it ended, the count to 3, growl and applause.

The table arrives here when the state says the game is over (the controller
speaks the "finale" script on arrival); the count follows
the "finale" script's captions and countdown, shown in big digits.
"""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import Static

from moderator.domain import GameOver, GameState
from moderator.i18n import N_, _, ngettext
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import CountAgain, EnterResults
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.caption import BoundDigits, Caption
from moderator.tui.widgets.game_header import GameHeader

#: Count words of the shipped voice-script languages (en, fr, de, es), and digits.
_COUNT_WORDS = {
    **{word: "1" for word in ("1", "one", "un", "une", "eins", "uno")},
    **{word: "2" for word in ("2", "two", "deux", "zwei", "dos")},
    **{word: "3" for word in ("3", "three", "trois", "drei", "tres")},
}

#: The screen's own words (msgids, drawn through `_()`).
_TITLE = N_("GAME OVER")
_CUE = N_("Possessed: growl! Sane players still in play: stand up and applaud!")
_NEXT = N_("Press Enter to enter who growled.")


def why_over(state: GameState) -> str:
    """The rulebook's reason the game ended, as a sentence."""
    if state.over is GameOver.FEW_IN_PLAY:
        left = len(state.in_play)
        return ngettext(
            "Only {count} player is still in play: the game ends.",
            "Only {count} players are still in play: the game ends.",
            left,
        ).format(count=left)
    return _("The third Meeting is resolved: the game ends.")


def count_in(caption: str) -> str | None:
    """The number a caption counts ("One…", "2!"), if it is a count."""
    words = re.findall(r"\w+", caption.casefold())
    if len(words) == 1 and words[0] in _COUNT_WORDS:
        return _COUNT_WORDS[words[0]]
    return None


class FinaleScreen(PlayScreen):
    """Everyone counts to 3; the Possessed growl, the Sane in play applaud."""

    PHASE = Phase.FINALE
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP = ("results", "count-again", "finale-menu", "mute", "settings", "undo", "redo")
    FOOTER_SHORT: ClassVar[dict[str, str]] = {"results": N_("Results")}
    FOOTER_EXTRA = ("undo", "redo")
    #: Why the game ended (bound to `#finale-reason`).
    reason: var[str] = var("")
    #: The count to 3 in big digits while the voice counts (bound to `#finale-count`).
    count: var[str] = var("")
    #: The voice's line, if one is shown (bound to `#finale-caption`).
    caption: var[str | Text] = var("")
    #: The written cue shows while no line of the voice does (`#finale-cue`).
    cue_shown: var[bool] = var(True, init=False)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "results", N_("Enter results"), id="results", tooltip=N_("Who growled?")),
        Binding(
            "c", "count", N_("Count again"), id="count-again", tooltip=N_("Replay the count to 3")
        ),
        *PlayScreen.UNDO_BINDINGS,
        Binding(
            "escape",
            "menu",
            N_("Menu"),
            id="finale-menu",
            tooltip=N_("Back to the start screen (saved)"),
        ),
    ]

    def compose(self) -> ComposeResult:
        """The reason, the count, the cue and, once, the next step."""
        yield GameHeader()
        with Vertical(id="finale-box"):
            yield BigText(_(_TITLE), id="finale-title")
            yield Caption(id="finale-reason").data_bind(text=FinaleScreen.reason)
            yield BoundDigits(id="finale-count").data_bind(text=FinaleScreen.count)
            yield Caption(id="finale-caption").data_bind(text=FinaleScreen.caption)
            yield Static(_(_CUE), id="finale-cue", markup=False)
            yield Static(_(_NEXT), id="finale-next", markup=False)
        yield self.notice_strip()
        yield self.key_bar()

    def entered(self) -> None:
        """A new count: clear the last one's digits and caption."""
        self.count = ""
        self._caption("")
        super().entered()

    def language_changed(self) -> None:
        """The title, the cue and the next step in the new language (the reason follows
        the snapshot; a voice line on screen stays as it was said)."""
        self.query_one("#finale-title", BigText).update(_(_TITLE))
        self.query_one("#finale-cue", Static).update(_(_CUE))
        self.query_one("#finale-next", Static).update(_(_NEXT))

    def show(self, snapshot: TableSnapshot) -> None:
        """Why the game ended (it changes only by undo/redo, which leave this phase)."""
        state = snapshot.state
        if state is not None and state.is_over:
            knocked = " ".join(self.controller.ending_lines()[:1])
            reason = why_over(state)
            self.reason = f"{knocked}\n{reason}" if knocked else reason

    def watch_cue_shown(self, shown: bool) -> None:
        """The cue's `display` is no reactive to bind: it follows here."""
        self.query_one("#finale-cue", Static).display = shown

    def action_count(self) -> None:
        """Speak the count to 3 and the cue again."""
        self.ask(CountAgain())

    def show_line(self, text: str) -> None:
        """Captions, and big digits while counting."""
        number = count_in(text)
        if number is not None:
            self.count = number
        self._caption(text)

    def _caption(self, text: str) -> None:
        """Show the voice's line, or none; the written cue only while no line is shown.

        The voice says the cue in its own words ("stand up and applaud"): with
        both on screen the table would read the applaud line twice.
        """
        self.caption = Text(text, style="bold")
        self.cue_shown = not text

    def narration_finished(self, cancelled: bool) -> None:
        """The count is over (or silenced): the caption gives way to the written cue.

        The cue and the next step stay on screen afterwards (the voice may be
        off); a caption left beside the cue would show the applaud line twice.
        """
        self._caption("")

    def action_results(self) -> None:
        """Go and enter who growled."""
        self.ask(EnterResults())
