"""Help: the keys, and the rulebook's reference panels quoted word for word."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from moderator.tui.screens.dialog import DialogScreen

KEYS = """\
Everywhere  F1 or ? help · F2 settings · v mute · Ctrl+P commands
Setup       Enter adds a name · Ctrl+S start · Ctrl+R read aloud
  the list  Del remove · Shift+↑/↓ move · f first · e fix a name
Reveal      Enter starts, then hands-free · Esc stops · t table
Table       n or Space next turn · m Meeting card · k knock out
            u undo · r redo · Esc silence, again: start screen (saved)
Meeting     1-9, 0 or a click: sits out/back · o pick · k knock out
            Enter Meeting resolved · u undo · r redo
Finale      c count again · Enter results
Result      tick who growled, type Waffles · Ctrl+S save
Series      n next game · s new series · Esc start screen"""

#: Quoted from the rulebook's reference panels (page 8).
DURING_A_MEETING = (
    "• Sane players can never give away a Mind Flayer card from their hand.\n"
    "• Knocked out players don't participate in Meetings. "
    "Skip over them and give your card to the next player.\n"
    "• Shuffle the cards you receive before looking at them."
)

EFFECTS_OF_ADVENTURE_CARDS = """\
• 3 uncanceled Mind Flayer cards and you become Possessed.
• 3 uncanceled Hard Hit cards and you become knocked out.
• Cancel 1 Mind Flayer card.
• Cancel 1 Hard Hit card."""


class HelpScreen(DialogScreen[None]):
    """Keys and reference panels; any of Esc, F1, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", "Close", id="help-close"),
    ]

    def compose(self) -> ComposeResult:
        """Keys first, then the two panels."""
        with Vertical(id="help-box"), VerticalScroll(id="help-scroll"):
            yield Static("Keys", classes="help-heading", markup=False)
            yield Static(KEYS, id="help-keys", markup=False)
            yield Static("During a Meeting (rulebook)", classes="help-heading", markup=False)
            yield Static(DURING_A_MEETING, id="help-meeting", markup=False)
            yield Static(
                "Effects of Adventure Cards (rulebook)", classes="help-heading", markup=False
            )
            yield Static(EFFECTS_OF_ADVENTURE_CARDS, id="help-effects", markup=False)
            yield Static("Esc closes this help.", markup=False)

    def action_close(self) -> None:
        """Back to where the table was."""
        self.dismiss(None)
