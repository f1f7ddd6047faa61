"""The eyes-closed reveal (6-10 players): one key, then hands-free.

The person who pressed the key has their eyes closed too, so once started the
screen needs nobody: captions follow the voice, a big countdown shows the
eyes-open window, and the table screen follows by itself at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Digits, Static

from moderator.i18n import N_, NP_, _
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import FinishReveal, GoHome, PlayReveal, StopVoice, UndoLast
from moderator.tui.screens.phase_screen import PhaseScreen, progress_words
from moderator.tui.widgets.ambience_marker import AmbienceMarker
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.game_header import GameHeader

if TYPE_CHECKING:
    from moderator.table.outcomes import Outcome

#: The big words before the voice speaks, and the status lines (msgids: drawn through `_()`).
_TITLE = N_("EYES CLOSED REVEAL")
_READY = N_("Press Enter (or space) to start the reveal, then close your eyes.")
_RUNNING = N_("Reveal running. Esc stops it.")
_STOPPED = N_("Reveal stopped. Enter plays it again; t goes to the table.")


class RevealScreen(PhaseScreen):
    """Captions and a countdown in step with the reveal script."""

    PHASE = Phase.REVEAL
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP = ("reveal-play", "reveal-abort", "reveal-skip", "mute", "settings", "reveal-undo")
    FOOTER_SHORT: ClassVar[dict[str, str]] = {
        "reveal-play": NP_("reveal footer: start the reveal", "Start"),
        "reveal-skip": N_("To table"),
    }
    #: The line being said, drawn big (bound to `#reveal-caption`); set again, even to the
    #: same line (a replay), it is drawn again.
    caption: reactive[str] = reactive(_TITLE, always_update=True)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter,space",
            "play",
            N_("Start reveal"),
            id="reveal-play",
            tooltip=N_("Run the reveal"),
        ),
        Binding(
            "escape", "abort", N_("Abort"), id="reveal-abort", tooltip=N_("Stop the reveal at once")
        ),
        Binding(
            "t", "to_table", N_("To the table"), id="reveal-skip", tooltip=N_("Start the turns")
        ),
        Binding(
            "u",
            "undo",
            N_("Undo start"),
            id="reveal-undo",
            tooltip=N_("Take the start back: to setup"),
        ),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        self._reveal_running = False
        #: The status line's msgid now (drawn again in a new language).
        self._status = _READY
        #: Whether the big caption shows the title (no voice line yet).
        self._titled = True
        #: Whether a Start (or replay) is asked and the app has not started its playback yet.
        self._play_asked = False

    @property
    def running(self) -> bool:
        """Whether the reveal is running now (the footer follows it)."""
        return self._reveal_running

    @running.setter
    def running(self, value: bool) -> None:
        if value != self._reveal_running:
            self._reveal_running = value
            if self.is_mounted:
                self.refresh_bindings()

    def progress(self, snapshot: TableSnapshot) -> str | None:
        """The game's number, as on the other game screens."""
        return progress_words(snapshot.game_number, snapshot.state)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the reveal runs, Start reveal and Undo start would only be refused: hidden."""
        return not (action in ("play", "undo") and self.running)

    def compose(self) -> ComposeResult:
        """Caption, countdown, and a status line."""
        yield GameHeader()
        with Vertical(id="reveal-box"):
            yield BigText(_(_TITLE), id="reveal-caption").data_bind(text=RevealScreen.caption)
            yield Digits("", id="reveal-countdown")
            yield Static(_(self._status), id="reveal-status", markup=False)
            yield AmbienceMarker(id="reveal-ambience")
        yield self.notice_strip()
        yield self.key_bar()

    def entered(self) -> None:
        """A new game's reveal, ready to start (the header from the table's snapshot)."""
        self.running = False
        self._titled = True
        self.caption = _(_TITLE)
        self._stopped(_READY)
        super().entered()

    def language_changed(self) -> None:
        """The status line in the new language, and the title if no voice line shows.

        A voice line on screen stays as it was said (the next one follows the voice).
        """
        self._show_status(self._status)
        if self._titled:
            self.caption = _(_TITLE)

    def action_play(self) -> None:
        """Start (or replay) the reveal."""
        self.running = True
        self.query_one("#reveal-countdown", Digits).update("")
        self._show_status(_RUNNING)
        play = PlayReveal()
        play.reply = self._play_started
        self._play_asked = True
        self.ask(play)

    def _play_started(self, outcome: Outcome | None) -> None:
        """The app acted on the Start (None: it dropped it, nothing plays)."""
        self._play_asked = False
        if outcome is None and self.running:
            self.running = False
            self._stopped(_STOPPED)

    def action_abort(self) -> None:
        """Silence at once; the table can replay or go on."""
        if not self.running:
            self.ask(GoHome())
            return
        self.running = False
        self.ask(StopVoice())
        self._stopped(_STOPPED)

    def action_undo(self) -> None:
        """Started by accident: back to setup with the same roster (nothing counts)."""
        if self.running:
            return
        self.ask(UndoLast())

    def action_to_table(self) -> None:
        """Start the turns (the reveal is silenced if still running)."""
        self.running = False
        self.ask(FinishReveal())

    def _stopped(self, status: str) -> None:
        """Not running: no bed, no countdown, and the status line `status` (a msgid)."""
        self.query_one(AmbienceMarker).follow(started=False, audible=False)
        self.query_one("#reveal-countdown", Digits).update("")
        self._show_status(status)

    def _show_status(self, status: str) -> None:
        """The status line says `status` (a msgid) in the table's language."""
        self._status = status
        self.query_one("#reveal-status", Static).update(_(status))

    def show_line(self, text: str) -> None:
        """The caption follows the voice."""
        self._titled = False
        self.caption = text

    def show_countdown(self, seconds_left: int) -> None:
        """The eyes-open window, second by second; a pause's end (0) clears it.

        The narrator reports 0 at the end of every timed pause: drawn, it showed
        a stray "0" between the eyes-closing pause and the window's 5…1.
        """
        shown = str(seconds_left) if seconds_left > 0 else ""
        self.query_one("#reveal-countdown", Digits).update(shown)

    def show_ambience(self, started: bool, audible: bool) -> None:
        """The bed under the eyes-closed span: playing, or would play (captions only)."""
        self.query_one(AmbienceMarker).follow(started, audible)

    def narration_finished(self, cancelled: bool) -> None:
        """At the end the turns begin by themselves; a cancel leaves the choice.

        Until the app has started the playback a replay asked for, an end that
        arrives is an older playback's: a reveal stopped with Esc reports its end
        from the voice's thread, and a replay pressed before that report was taken
        up was marked stopped though the voice played it again (seen on a loaded
        machine). The app routes only the latest playback's end, and the replay's
        playback becomes the latest when the app acts on its Start.
        """
        if not self.running or self._play_asked:
            return
        self.running = False
        if cancelled:
            self._stopped(_STOPPED)
        else:
            self.action_to_table()
