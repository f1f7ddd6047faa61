"""Setup: names clockwise, the first (youngest) player, and the checklist.

Every check is the domain's (`clean_name`, `clean_roster`, `clean_said_as`,
`setup_for`), and a refused name shows the domain's sentence next to the field;
what was typed and the roster stay as they were.

Each player may have a "say it as": the words the voice says for the name
(the screen keeps showing the name as written). It is typed in the second
field for the selected player (`s` on the roster), kept with the roster from
game to game, and saved with the game's start.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, OptionList, Static

from moderator.domain import IllegalAction, rules, setup_for
from moderator.domain.names import clean_name, clean_roster, clean_said_as
from moderator.i18n import N_, _
from moderator.i18n.refusals import refusal
from moderator.table.controller import TableController
from moderator.table.phases import Phase
from moderator.table.ports import ACTION_ERRORS
from moderator.table.snapshot import TableSnapshot
from moderator.tui.dialogs.how_to_play import HOW_TO_PLAY_KEY, open_how_to_play
from moderator.tui.messages import GoHome, ReadSetupAloud, StartGame
from moderator.tui.screens import drafted
from moderator.tui.screens.checklist_text import checklist
from moderator.tui.screens.phase_screen import HELP_KEY, PhaseScreen
from moderator.tui.screens.setup_keys import SETUP_FOOTER_KEEP, SETUP_FOOTER_SHORT
from moderator.tui.screens.setup_words import (
    BUTTONS,
    KEYED_BUTTONS,
    SAY_AS_KEY,
    button_label,
    fix_hint,
    name_hint,
    roster_line,
    say_as_hint,
    say_as_hint_for,
    say_as_title,
    seated_words,
)
from moderator.tui.widgets.game_header import GameHeader
from moderator.tui.widgets.name_input import FixingList, NameInput

#: Puts back the player just removed (the roster's Undo), and how the sentences show it.
PUT_BACK_KEY = "ctrl+z"
PUT_BACK_SHOWN = "^z"


class RosterList(FixingList):
    """The seating, clockwise; keys here edit the selected player (in order, see the base)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # First in the footer while the roster has focus (see `PhaseScreen.BINDINGS`).
        HELP_KEY,
        Binding("delete,backspace,minus", "screen.remove", N_("Remove"), id="remove"),
        # Not in the footer: the sentence a removal shows names it; Help lists it.
        Binding(PUT_BACK_KEY, "screen.put_back", N_("Put back"), id="put-back", show=False),
        Binding("shift+up,ctrl+up", "screen.move(-1)", N_("Move up"), id="move-up"),
        Binding("shift+down,ctrl+down", "screen.move(1)", N_("Move down"), id="move-down"),
        Binding("f", "screen.first", N_("First player"), id="first-player"),
        Binding("e", "screen.edit", N_("Fix name"), id="edit-name"),
        # Not in the footer (the title of the field under the roster names its key);
        # Help lists it.
        Binding(SAY_AS_KEY, "screen.say_as", N_("Say it as"), id="say-as", show=False),
    ]

    async def action_help(self) -> None:
        """Keys and the rulebook's reference panels (the app's help)."""
        await self.app.run_action("app.help")


class SetupScreen(PhaseScreen):
    """Seat the players and prepare the cards."""

    PHASE = Phase.SETUP
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP, FOOTER_SHORT = SETUP_FOOTER_KEEP, SETUP_FOOTER_SHORT
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start_game", N_("Start game"), id="start-game", priority=True),
        Binding("ctrl+r", "read_aloud", N_("Read aloud"), id="read-aloud", priority=True),
        HOW_TO_PLAY_KEY,
        Binding("escape", "leave", N_("Back"), id="back", tooltip=N_("Back to the start screen")),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__(controller)
        #: The roster being seated, clockwise.
        self.players: list[str] = []
        self.first_player = 0
        #: The seat whose name the input is fixing, if any.
        self.editing: int | None = None
        #: How a name is said (written name -> the words), for names the table gave one.
        self.said_as: dict[str, str] = {}
        #: The seat whose "say it as" the second field is changing, if any.
        self.saying: int | None = None
        #: What the roster's draft is kept under (`drafted`); None: not kept.
        self.draft_key: str | None = None
        #: The last removal, to put back: (seat, name, said as, first player before).
        self._removed: tuple[int, str, str | None, int] | None = None

    def compose(self) -> ComposeResult:
        """Name field, roster and checklist side by side."""
        yield GameHeader()
        with Horizontal(id="setup-columns"):
            with Vertical(id="setup-left"):
                yield Static("", id="setup-count", markup=False)
                yield NameInput(placeholder=name_hint(), id="setup-name")
                yield Static("", id="setup-error", markup=False)
                yield RosterList(id="setup-roster")
                # After the roster: Tab from the name field still reaches the roster first.
                saying = NameInput(placeholder=say_as_hint(), id="setup-say-as")
                saying.border_title = say_as_title()
                yield saying
                with Horizontal(classes="button-row"):
                    for button in BUTTONS:
                        yield Button(button_label(button), id=button, compact=True)
            with Vertical(id="setup-right"):
                yield Static("", id="setup-checklist", markup=False)
                yield Static("", id="setup-caption", markup=False)
                with Horizontal(classes="button-row"):
                    yield Button(button_label("setup-read"), id="setup-read", compact=True)
                    yield Button(
                        button_label("setup-start"),
                        id="setup-start",
                        compact=True,
                        variant="success",
                    )
        yield self.key_bar()

    def entered(self) -> None:
        """Start from the roster the controller offers (a next game starts from the last one)."""
        plan = self.controller.seating_plan()
        self.players = list(plan.players) if plan else []
        self.first_player = plan.first_player if plan else 0
        said = plan.said_as if plan else ()
        self.said_as = {
            name: words for name, words in zip(self.players, said, strict=False) if words
        }
        drafted.offer_roster(self)  # what was typed before a crash, if anything
        self.editing = None
        self.saying = None
        saying = self.query_one("#setup-say-as", Input)
        saying.value = ""
        saying.placeholder = say_as_hint()
        field = self.query_one("#setup-name", Input)
        field.value = ""
        field.placeholder = name_hint()
        self._error("")
        self.query_one("#setup-caption", Static).update("")
        self._redraw(highlight=0)
        self.sub_title = self.game_words()
        try:
            known = self.controller.known_players()
        except ACTION_ERRORS:
            known = []
        # Names seated before complete as they are typed (→ or End accepts).
        field.suggester = SuggestFromList(known, case_sensitive=False) if known else None
        field.focus()
        # Set quietly, all is drawn already (a language switch shows it again).
        self.set_reactive(PhaseScreen.snapshot, self.controller.snapshot())

    def language_changed(self) -> None:
        """The table chose another language: the hints, buttons and caption follow.

        The roster, the count and the checklist are drawn again by `show`. A hint
        of a field being used (fixing a name, "say it as") is put back as it was
        first set: the field is left as typed, only its words change.
        """
        for button_id in (*BUTTONS, *KEYED_BUTTONS):
            button = self.query_one(f"#{button_id}", Button)
            button.label = button_label(button_id)
            # Button's label is no layout reactive: its width follows only when told.
            button.refresh(layout=True)
        field = self.query_one("#setup-name", Input)
        field.placeholder = name_hint() if self.editing is None else fix_hint(self.editing)
        saying = self.query_one("#setup-say-as", Input)
        saying.border_title = say_as_title()
        if self.saying is None or not 0 <= self.saying < len(self.players):
            saying.placeholder = say_as_hint()
        else:
            saying.placeholder = say_as_hint_for(self.players[self.saying])
        # A voice line in the old language: gone (a new reading shows the new one).
        self.query_one("#setup-caption", Static).update("")

    def progress(self, snapshot: TableSnapshot) -> str | None:
        """The header's words: which game of the series this roster is seated for."""
        return self.game_words()

    def game_words(self) -> str:
        """ "Game 2 of 3": which game of the series this roster is seated for."""
        try:
            played = len(self.controller.series_games())
        except ACTION_ERRORS:
            played = 0
        games = rules.GAMES_PER_SERIES
        return _("Game {game} of {games}").format(game=min(played + 1, games), games=games)

    def show(self, snapshot: TableSnapshot) -> None:
        """The roster is this screen's own until the game starts: redraw it."""
        self._redraw()

    def refused(self, sentence: str) -> None:
        """Starting the game was refused: say why next to the field."""
        self._error(sentence)

    # --- drawing --------------------------------------------------------------------

    def _redraw(self, highlight: int | None = None) -> None:
        roster = self.query_one("#setup-roster", RosterList)
        keep = roster.highlighted if highlight is None else highlight
        roster.clear_options()
        for seat, name in enumerate(self.players):
            roster.add_option(
                roster_line(seat, name, self.said_as.get(name), first=seat == self.first_player)
            )
        if self.players:
            roster.highlighted = min(max(keep or 0, 0), len(self.players) - 1)
        drafted.keep_roster(self)  # every change of the roster ends here
        count = len(self.players)
        self.query_one("#setup-count", Static).update(seated_words(count))
        self.query_one("#setup-checklist", Static).update(checklist(count))

    def _error(self, message: str) -> None:
        self.query_one("#setup-error", Static).update(message)

    def _selected(self) -> int | None:
        index = self.query_one("#setup-roster", RosterList).highlighted
        if index is None or not 0 <= index < len(self.players):
            return None
        return index

    # --- editing --------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter adds the name (or fixes the one being edited), or sets how it is said."""
        event.stop()
        if event.input.id == "setup-say-as":
            self._set_said_as(event)
            return
        try:
            name = clean_name(event.value)
            others = [n for i, n in enumerate(self.players) if i != self.editing]
            if self.editing is None and len(others) >= rules.MAX_PLAYERS:
                raise IllegalAction(
                    "The game is for at most {most} players.", most=rules.MAX_PLAYERS
                )
            clean_roster([*others, name])
        except IllegalAction as error:
            self._error(refusal(error))
            if not event.input.value:
                # Give the refused name back to fix; nothing typed is lost.
                event.input.value = event.value
            return
        if self.editing is None:
            self.players.append(name)
            seat = len(self.players) - 1
        else:
            seat = self.editing
            said = self.said_as.pop(self.players[seat], None)
            self.players[seat] = name
            if said:
                self.said_as[name] = said
            self.editing = None
        self._error("")
        event.input.placeholder = name_hint()
        self._redraw(highlight=seat)

    def action_remove(self) -> None:
        """Remove the selected player."""
        seat = self._selected()
        if seat is None:
            return
        name = self.players[seat]
        self._removed = (seat, name, self.said_as.pop(name, None), self.first_player)
        del self.players[seat]
        star_moved = self.first_player == seat and bool(self.players)
        if self.first_player == seat or self.first_player >= len(self.players):
            self.first_player = 0
        elif self.first_player > seat:
            self.first_player -= 1
        self.editing = None
        self._redraw(highlight=seat)
        words = _("{name} removed ({key}: put back).").format(name=name, key=PUT_BACK_SHOWN)
        if star_moved:
            words += " " + _("★ {name} now plays first: press f on the youngest.").format(
                name=self.players[self.first_player]
            )
        self.notify(words, markup=False, timeout=8)  # long enough to read and act on

    def action_put_back(self) -> None:
        """Undo the last removal: the player back in their seat, the star as it was."""
        removed, self._removed = self._removed, None
        if removed is None:
            return
        seat, name, said, first = removed
        if name in self.players:
            return  # typed again meanwhile: nothing to put back
        seat = min(seat, len(self.players))
        self.players.insert(seat, name)
        if said:
            self.said_as[name] = said
        self.first_player = first if first < len(self.players) else 0
        self._redraw(highlight=seat)
        self.say(_("{name} is back in seat {seat}.").format(name=name, seat=seat + 1))

    def action_move(self, step: int) -> None:
        """Move the selected player one seat up or down the clockwise order."""
        seat = self._selected()
        if seat is None:
            return
        other = seat + step
        if not 0 <= other < len(self.players):
            return
        players = self.players
        players[seat], players[other] = players[other], players[seat]
        if self.first_player in (seat, other):
            self.first_player = other if self.first_player == seat else seat
        self._redraw(highlight=other)

    def action_first(self) -> None:
        """The selected player (the youngest) takes the first turn."""
        seat = self._selected()
        if seat is not None:
            self.first_player = seat
            self._redraw(highlight=seat)

    def action_edit(self) -> None:
        """Put the selected name in the field to fix a typo."""
        seat = self._selected()
        if seat is None:
            return
        self.editing = seat
        field = self.query_one("#setup-name", NameInput)
        field.edit(self.players[seat], fix_hint(seat))

    def action_say_as(self) -> None:
        """Put the selected player's "say it as" in its field, to type how the name is said."""
        seat = self._selected()
        if seat is None:
            self._error(_("Add a player first, then say how their name is said."))
            return
        self.saying = seat
        name = self.players[seat]
        field = self.query_one("#setup-say-as", NameInput)
        field.edit(self.said_as.get(name, ""), say_as_hint_for(name))

    def _set_said_as(self, event: Input.Submitted) -> None:
        """Keep the words for the seat being changed (else the selected one); empty clears."""
        seat = self.saying if self.saying is not None else self._selected()
        if seat is None or not 0 <= seat < len(self.players):
            select = _("Select a player in the list first ({key}: say it as).")
            self._error(select.format(key=SAY_AS_KEY))
            event.input.value = event.value
            return
        try:
            words = clean_said_as(event.value)
        except IllegalAction as error:
            self._error(refusal(error))
            event.input.value = event.value  # given back to fix: nothing typed is lost
            return
        name = self.players[seat]
        if words:
            self.said_as[name] = words
        else:
            self.said_as.pop(name, None)
        self.saying = None
        self._error("")
        event.input.placeholder = say_as_hint()
        self._redraw(highlight=seat)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a player fixes their name."""
        self.action_edit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        button = event.button.id or ""
        if button == "setup-up":
            self.action_move(-1)
        elif button == "setup-down":
            self.action_move(1)
        else:
            handlers = {
                "setup-remove": self.action_remove,
                "setup-first": self.action_first,
                "setup-edit": self.action_edit,
                "setup-read": self.action_read_aloud,
                "setup-start": self.action_start_game,
            }
            handler = handlers.get(button)
            if handler is not None:
                handler()

    # --- voice and start ----------------------------------------------------------------

    def action_read_aloud(self) -> None:
        """Speak the setup checklist."""
        try:
            setup_for(len(self.players))
        except IllegalAction as error:
            self._error(refusal(error))
            return
        self.ask(ReadSetupAloud(len(self.players)))

    def action_how_to_play(self) -> None:
        """The rules in short for a first-timer: a dialog that shows and speaks them."""
        open_how_to_play(self.app, self.controller)

    def show_line(self, text: str) -> None:
        """Show what is being said."""
        self.query_one("#setup-caption", Static).update(Text(text, style="italic"))

    def action_start_game(self) -> None:
        """Save the new game, then the reveal (6+ players) or the table."""
        try:
            setup_for(len(self.players))
            players = clean_roster(self.players)
        except IllegalAction as error:
            self._error(refusal(error))
            self.say(refusal(error), severity="error")
            return
        said = tuple(self.said_as.get(name, "") for name in players)
        self.ask(StartGame(players, self.first_player, said if any(said) else ()))

    def action_leave(self) -> None:
        """Back to the start screen; nothing is saved until the game starts."""
        if self.editing is not None:
            self.editing = None
            self.query_one("#setup-name", Input).value = ""
            return
        if self.saying is not None:
            self.saying = None
            field = self.query_one("#setup-say-as", Input)
            field.value = ""
            field.placeholder = say_as_hint()
            return
        self.ask(GoHome())
