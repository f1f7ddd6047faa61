"""How to play: the rules in short, shown line by line while the voice says them.

Opened from the setup screen for a table with a first-timer. The lines are the
`how_to_play` voice script of the table's language (editable and validated like
the others), so what is shown is what is said. The voice is the table's
narrator: the dialog only asks the controller (intents) and follows the
narration messages the app hands it (`FollowsNarration`). A skip asks for the
script from the next line, which stops the line being said; Esc stops it all.
Muted, the narrator still paces the captions, so the lines show and step on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from moderator.i18n import N_, _
from moderator.table.controller import TableController
from moderator.table.cues import HowToPlayCue
from moderator.table.ports import ACTION_ERRORS
from moderator.tui import key_reference
from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.messages import HowToPlay, Intent, StopVoice
from moderator.tui.text_from_files import visible

#: Shown before the current line, and before the others (same width: nothing moves).
MARK, NO_MARK = "▶ ", "  "
#: The setup screen's key for this dialog (its `how_to_play` action calls `open_how_to_play`).
#: Named "Rules" everywhere (the footer, the help, the palette): one key, one name.
HOW_TO_PLAY_KEY = Binding(
    "ctrl+g",
    "how_to_play",
    # One name for the key wherever it is shown: the setup's footer at 120 columns has
    # room for "Rules" only, and "^g How to play" beside "^g Rules" named it twice.
    N_("Rules"),
    id="how-to-play",
    priority=True,
    tooltip=N_("The rules in short, shown and spoken line by line"),
)
#: msgids, shown translated.
DONE = N_("That is all. Esc: close.")
EMPTY = N_("The how-to-play script has no lines.")


def open_how_to_play(app: App[object], controller: TableController) -> None:
    """Show the dialog over the screen it was asked from (once: a second key does nothing)."""
    if not isinstance(app.screen, HowToPlayScreen):
        app.push_screen(HowToPlayScreen(controller))


class HowToPlayScreen(DialogScreen[None]):
    """The summary's lines, the one being said marked; keys skip a line or stop."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "space,n,right",
            "next_line",
            N_("Next line"),
            id="how-to-play-next",
            tooltip=N_("Stop this line and say the next one"),
        ),
        Binding("escape", "close", N_("Stop and close"), id="how-to-play-close"),
        # A dialog cuts the app's keys off: the app's Mute again (same id, so a keymap
        # moves both). Muted, the lines still show and step on.
        Binding(
            "v",
            "toggle_mute",
            N_("Mute"),
            id="mute",
            tooltip=N_("Silence the voice or bring it back"),
        ),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        self.controller = controller
        #: The script's lines, as shown (filled in once read off the UI thread).
        self.lines: list[str] = []
        #: The line being said (None: none yet, or the end was reached).
        self.current: int | None = None
        #: Whether the last line was said (or skipped): nothing is marked any more.
        self.finished = False
        #: The first line of the latest request: a caption is looked for from here.
        self._from = 0
        #: The phase the dialog was opened in (its intents are stamped with it).
        self._origin = controller.phase

    def compose(self) -> ComposeResult:
        """Title, the lines, the keys."""
        with Vertical(id="how-to-play-box"):
            yield Static(_("How to play: the rules in short"), classes="help-heading", markup=False)
            yield VerticalScroll(id="how-to-play-lines")
            yield Static(_("Reading the rules…"), id="how-to-play-hint", markup=False)

    def on_mount(self) -> None:
        """Read the lines off the UI thread (the narrator may still be starting)."""
        self._read_lines()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _read_lines(self) -> None:
        try:
            lines = self.controller.lines(HowToPlayCue())
        except ACTION_ERRORS:
            lines = []
        self.app.call_from_thread(self._show_lines, lines)

    async def _show_lines(self, lines: list[str]) -> Any:
        """Show every line, then start the voice at the first."""
        if not self.is_attached:
            return
        self.lines = [visible(line) for line in lines]
        box = self.query_one("#how-to-play-lines", VerticalScroll)
        await box.mount_all(
            Static(self._text(index), classes="how-to-play-line", markup=False)
            for index in range(len(self.lines))
        )
        if not self.lines:
            self._hint(_(EMPTY))
            return
        self._hint(self.keys_hint())
        self._say_from(0)

    def keys_hint(self) -> str:
        """This dialog's keys as the keymap has them ("space or n: Next line · ...")."""
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        rows = key_reference.rows_of(
            key_reference.declared_bindings(HowToPlayScreen), keymap, self.app
        )
        return " · ".join(
            _("{keys}: {action}").format(
                keys=key_reference.keys_text(row.keys), action=row.description
            )
            for row in rows
        )

    # --- what the voice does ------------------------------------------------------------

    def follow_line(self, text: str) -> None:
        """A line of the script started: mark it (looked for from the line asked for)."""
        try:
            index = self.lines.index(visible(text), self._from)
        except ValueError:
            return  # the tail of a line already skipped
        self._from = index
        self._mark(index)

    def follow_finished(self, cancelled: bool) -> None:
        """The script ran to its end: nothing is marked any more."""
        if not cancelled:
            self._finish()

    # --- keys ---------------------------------------------------------------------------

    def action_next_line(self) -> None:
        """Stop the line being said and say the next one (after the last: stop)."""
        if not self.lines or self.finished:
            return
        following = 0 if self.current is None else self.current + 1
        if following >= len(self.lines):
            self._ask(StopVoice())
            self._finish()
            return
        self._say_from(following)

    async def action_toggle_mute(self) -> None:
        """The app's Mute (its own key does not reach past a dialog)."""
        await self.app.run_action("app.toggle_mute")

    def action_close(self) -> None:
        """Stop the voice and go back to the setup."""
        self._ask(StopVoice())
        self.dismiss(None)

    # --- drawing ------------------------------------------------------------------------

    def _finish(self) -> None:
        self.finished = True
        self._mark(None)
        self._hint(_(DONE))

    def _say_from(self, index: int) -> None:
        self._from = index
        self._mark(index)
        self._ask(HowToPlay(index))

    def _ask(self, intent: Intent) -> None:
        intent.origin = self._origin
        self.post_message(intent)

    def _mark(self, index: int | None) -> None:
        self.current = index
        shown = list(self.query(".how-to-play-line").results(Static))
        for number, widget in enumerate(shown):
            widget.update(self._text(number))
        if index is not None and index < len(shown):
            shown[index].scroll_visible(animate=False)

    def _text(self, index: int) -> Text:
        line = self.lines[index]
        if index == self.current:
            return Text(MARK + line, style="bold")
        return Text(NO_MARK + line)

    def _hint(self, words: str) -> None:
        self.query_one("#how-to-play-hint", Static).update(words)
