"""The first screen: resume, a new series, history, settings, quit.

It is the first frame of every start, so it is drawn once, in `compose`: the
unfinished series is read there (Resume is offered only when one exists, and
the focus starts on Resume or New series through `AUTO_FOCUS`, set once), and
the screen carries a one-line `TitleBar` and `KeyBar` instead of Textual's
`Header` and `Footer`, which cost most of the first frame (docs/startup.md).
Later visits redraw only what changed.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from moderator.i18n import N_
from moderator.i18n.refusals import refusal
from moderator.table.phases import Phase
from moderator.table.ports import ACTION_ERRORS
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import NewSeries, OpenHistory, Resume
from moderator.tui.screens.phase_screen import PhaseScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.choice import Choice, ChoiceList
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.title_bar import TitleBar

#: What the start screen offers: whether a series can be resumed, and a sentence about it.
Offer = tuple[bool, str]


class StartScreen(PhaseScreen):
    """Where the night starts and where "back to start" lands."""

    PHASE = Phase.START
    #: The first frame's CSS is the app's (app.tcss): screens.tcss is not read for it.
    CSS_PATH = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "c", "resume", N_("Resume"), id="resume", tooltip=N_("Continue the unfinished game")
        ),
        Binding(
            "n", "new_series", N_("New series"), id="new-series", tooltip=N_("Start a new series")
        ),
        Binding("h", "history", N_("History"), id="history", tooltip=N_("Past games and series")),
        Binding("q", "app.quit", N_("Quit"), id="quit", tooltip=N_("Close the app (all is saved)")),
    ]

    #: The first focus (Textual's auto-focus, once): the choices, on Resume if offered,
    #: else New series.
    AUTO_FOCUS = "#start-choices"

    #: The choices, top to bottom (Resume only while a series can be resumed); the
    #: labels are msgids, shown in the screen's language (`ChoiceList.render`).
    CHOICES = (
        Choice("start-resume", N_("Resume (c)"), "success"),
        Choice("start-new", N_("New series (n)"), "primary"),
        Choice("start-history", N_("History (h)")),
        Choice("start-settings", N_("Settings (F2)")),
        Choice("start-help", N_("Help (F1)")),
        Choice("start-quit", N_("Quit (q)"), "error"),
    )

    #: What the screen shows now (read in `compose`, then on each visit).
    _shown: Offer = (False, "")
    #: A sentence to say once mounted: reading the database failed while composing.
    _compose_error: str | None = None

    def compose(self) -> ComposeResult:
        """Title, what can be resumed, and the choices (focus on Resume, else New series)."""
        self._shown, self._compose_error = self._offer()
        found, summary = self._shown
        yield TitleBar()
        with Vertical(id="start-box"):
            yield BigText("MIND FLAYER", id="start-title")
            yield Static(summary, id="start-unfinished", markup=False)
            yield ChoiceList(
                self.CHOICES,
                hidden=() if found else ("start-resume",),
                highlighted="start-resume" if found else "start-new",
                id="start-choices",
            )
        yield KeyBar(first=("help",))

    def _offer(self) -> tuple[Offer, str | None]:
        """Whether a series can be resumed, from the store, and the error reading it, if any."""
        try:
            return self.controller.unfinished_summary(), None
        except ACTION_ERRORS as error:
            return (False, ""), refusal(error)

    def entered(self) -> None:
        """The table arrives here: redraw from the store, unless `compose` just did.

        This is the one redraw: a dialog closing over this screen (help,
        history, settings) changes nothing it shows. The first call is the
        screen's own mount (`PhaseScreen.on_mount`), right after `compose`:
        Textual counts a screen as mounted only once its mount handlers
        returned, and the app calls `entered` on a mounted screen only.
        """
        if self._compose_error is not None:
            self.say(self._compose_error, severity="error")
            self._compose_error = None
        if self.is_mounted:
            self.refresh_state(focus=True)

    def show(self, snapshot: TableSnapshot) -> None:
        """An action answered here (a refusal, a replaced database): the store may say more."""
        self.refresh_state()

    def refresh_state(self, focus: bool = False) -> None:
        """Offer the unfinished series, if any; redraw only what changed.

        The focus moves to Resume (else New series) when the offer changes, or
        with `focus` (the table arrived here).
        """
        (found, summary), error = self._offer()
        if error is not None:
            self.say(error, severity="error")
        changed = (found, summary) != self._shown
        choices = self.query_one("#start-choices", ChoiceList)
        if changed:
            self._shown = (found, summary)
            self.query_one("#start-unfinished", Static).update(summary)
            choices.offer("start-resume", found)
            self.refresh_bindings()  # Resume's key is offered only with its choice
        if changed or focus:
            choices.highlighted = "start-resume" if found else "start-new"
            if self.focused is not choices:
                choices.focus()

    def language_changed(self) -> None:
        """The sentence about the unfinished series in the new language; the choices and
        the key bar draw their words as they render (`ChoiceList`, `KeyBar`)."""
        (found, summary), _error = self._offer()
        self._shown = (found, summary)
        self.query_one("#start-unfinished", Static).update(summary)
        self.query_one("#start-choices", ChoiceList).refresh(layout=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Resume is a key only while there is something to resume (as its choice)."""
        if action == "resume":
            return self._shown[0]
        return True

    async def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        """Each choice runs the matching key's action."""
        actions = {
            "start-resume": "resume",
            "start-new": "new_series",
            "start-history": "history",
            "start-settings": "app.settings",
            "start-help": "app.help",
            "start-quit": "app.quit",
        }
        action = actions.get(event.choice_id)
        if action is not None:
            await self.run_action(action)

    def action_resume(self) -> None:
        """Bring the table back exactly where it was."""
        self.ask(Resume())

    def action_new_series(self) -> None:
        """A new series (an unfinished one is set aside), starting with setup."""
        self.ask(NewSeries())

    def action_history(self) -> None:
        """Past series and games."""
        self.ask(OpenHistory())
