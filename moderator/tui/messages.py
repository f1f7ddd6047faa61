"""The TUI's messages: narration facts, and the intents screens post to the app.

Narration. The narrator calls back from its own thread; the table controller
turns each callback into a fact message and posts it to the app
(`post_message` is thread-safe), so narration is handled on the UI thread like
any event. Each carries the id of its playback: the app passes on only the
latest playback's messages, to the screen of the phase that started it.

Intents. What a screen asks for (below); the app is the only receiver. Each
intent carries its call: `run` acts on the table controller and returns the
`Outcome` the app shows, so the app checks where an intent came from, runs it
and shows the outcome, and a new action is a new intent here, no edit of the app.

They are plain classes with an `__init__`, as Textual's own messages are, not
dataclasses: making a dataclass runs `exec` for each method it generates (0.2 to
0.5 ms a class), and the 28 dataclasses this module had cost the first frame
about 6 ms (docs/startup.md). A keyword pattern (`case StartGame(players=p)`)
matches them the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message

from moderator.domain import ResultsDeclared
from moderator.table.phases import Phase

if TYPE_CHECKING:
    from textual.screen import Screen

    from moderator.table.controller import TableController
    from moderator.table.outcomes import Outcome, RenameQuestions


class Narration(Message):
    """A fact of one playback's narration (`playback`: its id); the app routes it."""

    playback: int


class NarrationLineStarted(Narration):
    """A line of the script started playing: show it as the caption."""

    def __init__(self, playback: int, text: str) -> None:
        super().__init__()
        self.playback = playback
        self.text = text


class NarrationCountedDown(Narration):
    """One second of a timed pause went by."""

    def __init__(self, playback: int, seconds_left: int) -> None:
        super().__init__()
        self.playback = playback
        self.seconds_left = seconds_left


class NarrationNoticed(Narration):
    """The narrator has something to tell the table (e.g. a missing part)."""

    def __init__(self, playback: int, message: str) -> None:
        super().__init__()
        self.playback = playback
        self.message = message


class NarrationFinished(Narration):
    """The script ended, or was cancelled (muted, Esc, or replaced)."""

    def __init__(self, playback: int, cancelled: bool) -> None:
        super().__init__()
        self.playback = playback
        self.cancelled = cancelled


class NarrationAmbience(Narration):
    """An eyes-closed span with the ambience bed began or ended (audible: heard at all)."""

    def __init__(self, playback: int, started: bool, audible: bool) -> None:
        super().__init__()
        self.playback = playback
        self.started = started
        self.audible = audible


def translate(playback: int, event: object) -> Narration | None:
    """The message for one narration event (None for anything unknown)."""
    # Start-up (docs/startup.md): the narration's event types (six frozen dataclasses,
    # ~3 ms) load with the first narration event, not before the first frame.
    from moderator.narration.events import AmbienceSpan, Countdown, Finished, LineStarted, Notice

    if isinstance(event, LineStarted):
        return NarrationLineStarted(playback, event.text)
    if isinstance(event, Countdown):
        return NarrationCountedDown(playback, event.seconds_left)
    if isinstance(event, Notice):
        return NarrationNoticed(playback, event.message)
    if isinstance(event, Finished):
        return NarrationFinished(playback, event.cancelled)
    if isinstance(event, AmbienceSpan):
        return NarrationAmbience(playback, event.started, event.audible)
    return None


# --- intents: what a screen asks the app to do ----------------------------------------
#
# Screens never call each other nor show one another: they post one of these and
# the app runs it against the table controller, then shows the phase the outcome
# names. Named as what the table wants done.


class AsksBeforeAGame(Protocol):
    """The questions asked before a game starts (`moderator.tui.before_a_game`).

    Each asks, then posts its answer as an intent stamped with the phase it was
    asked in, so an answer that comes after the table moved on is dropped.
    """

    def set_aside(self, question: str, then: Intent) -> None:
        """Ask whether the started series is set aside; on yes, post `then`."""

    def renames(self, start: StartGame, questions: RenameQuestions) -> None:
        """Ask whether each new name is an earlier player; then post `start` with the answers."""


class Shell(Protocol):
    """What an intent may use of the app beside the table controller (kept narrow)."""

    @property
    def questions(self) -> AsksBeforeAGame:
        """The questions before a game."""

    def push_screen(self, screen: Screen[Any]) -> object:
        """Show a dialog over the current screen."""

    def copy_to_clipboard(self, text: str) -> None:
        """Put `text` on the terminal's clipboard, where the terminal allows it (OSC 52)."""

    def notify(self, message: str, *, markup: bool = True, timeout: float | None = None) -> None:
        """Show `message` as a notice (on a game screen, in its notice rows)."""


class Intent(Message):
    """Something the table asks for; `origin` is the phase whose screen asked.

    Keys pressed in a burst are all handled by the screen shown when they
    arrive, before the app acts on the first intent: the app drops an intent
    whose phase the table has already left, so a key meant for one screen never
    acts on the next.
    """

    #: The phase of the screen that asked (None: asked from anywhere).
    origin: Phase | None = None
    #: Told the outcome once the app has acted (None: dropped); set by the phone remote,
    #: whose press waits for it (`moderator.tui.remote`), and by the reveal's Start (its
    #: screen ignores an older playback's end until then). Other keys leave it None.
    reply: Callable[[Outcome | None], None] | None = None
    #: Whether the intent still means what it meant when asked, checked as the app takes
    #: it up (the phone remote: the board its press was made on is still the phones').
    meant: Callable[[], bool] | None = None

    def still_meant(self) -> bool:
        """Whether to act on it now (a key's intent always is, in its phase)."""
        return self.meant is None or self.meant()

    def answered(self, outcome: Outcome | None) -> None:
        """Tell whoever waits for it what came of it (None: dropped)."""
        if self.reply is not None:
            self.reply(outcome)

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        """Act on the table; the outcome to show (None: nothing to show yet, a question is open)."""
        raise NotImplementedError(f"{type(self).__name__} does not say what it does")


class Resume(Intent):
    """Continue the unfinished series where it was."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.resume()


class NewSeries(Intent):
    """Start a new series; a started one is set aside only on the table's yes (Esc keeps it)."""

    def __init__(self, set_aside_agreed: bool = False) -> None:
        super().__init__()
        #: The table already said yes to setting the started series aside.
        self.set_aside_agreed = set_aside_agreed

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        question = None if self.set_aside_agreed else table.set_aside_question()
        if question is None:
            return table.new_series()
        shell.questions.set_aside(question, NewSeries(set_aside_agreed=True))
        return None


class NextGame(Intent):
    """Same series, next game: seat the table again."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.next_game()


class GoHome(Intent):
    """Back to the start screen (all is saved)."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.go_home()


class Menu(Intent):
    """Esc on a game screen: silence the voice if speaking, else the start screen."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.menu()


class StartGame(Intent):
    """Save a new game with this roster, clockwise, and its first player.

    A name fixed between games ("Noah" -> "Noah B") would split the player's
    series total, so each new name is first asked about (`AsksBeforeAGame.renames`);
    the start carries the answers in `renames` (None: not asked yet).
    """

    def __init__(
        self,
        players: tuple[str, ...],
        first_player: int,
        said_as: tuple[str, ...] = (),
        renames: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.players = players
        self.first_player = first_player
        #: How each name is said, by seat ("" as written).
        self.said_as = said_as
        #: Earlier name -> the new name it is now, as the table answered.
        self.renames = renames

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        if self.renames is None:
            questions = table.rename_questions(self.players)
            if questions:
                shell.questions.renames(self, questions)
                return None
        return table.start_game(self.players, self.first_player, self.renames, self.said_as)


class ReadSetupAloud(Intent):
    """Speak the setup checklist for this many players."""

    def __init__(self, players: int) -> None:
        super().__init__()
        self.players = players

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.read_setup(self.players)


class HowToPlay(Intent):
    """Speak the rules in short from line `from_line` on (a skip asks for the next line)."""

    def __init__(self, from_line: int = 0) -> None:
        super().__init__()
        self.from_line = from_line

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.how_to_play(self.from_line)


class PlayReveal(Intent):
    """Start (or replay) the eyes-closed reveal."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.play_reveal()


class StopVoice(Intent):
    """Silence the voice at once; the screen stays."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.stop_voice()


class FinishReveal(Intent):
    """The reveal is over or skipped: start the turns."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.finish_reveal()


class PassTurn(Intent):
    """The turn passes clockwise."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.pass_turn()


class DrawMeeting(Intent):
    """The current player drew a Meeting card."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.draw_meeting()


class KnockOut(Intent):
    """`seat` was knocked out (the table's answer to the screen's seat question)."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.knock_out(self.seat)


class ToggleSitOut(Intent):
    """`seat` sits out of the Meeting, or comes back."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.toggle_sit_out(self.seat)


class ResolveMeeting(Intent):
    """Everyone received their two cards."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.resolve_meeting()


class CountAgain(Intent):
    """Replay the finale's count to 3."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.count_again()


class EnterResults(Intent):
    """The finale is done: enter who growled."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.enter_results()


class DeclareResults(Intent):
    """Save the results as ticked and typed (the domain judges them)."""

    def __init__(self, event: ResultsDeclared) -> None:
        super().__init__()
        self.event = event

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.declare(self.event)


class UndoLast(Intent):
    """Take back the last table action."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.undo()


class RedoLast(Intent):
    """Do again what was just undone."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.redo()


#: How long the table read aloud (F3) stays on screen: about the time it takes to say.
READ_TABLE_SECONDS = 15


class ReadTableAloud(Intent):
    """Speak and show where the game stands (public state only; never while eyes are closed)."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        outcome = table.read_table()
        if not outcome.notice:
            return outcome
        # A long sentence: shown at the table's pace, not a routine notice's 3 s.
        shell.notify(outcome.notice, markup=False, timeout=READ_TABLE_SECONDS)
        return replace(outcome, notice=None)


class OpenHistory(Intent):
    """Show past series and players' records."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        # The dialog's module loads on first use, as every dialog does (docs/startup.md).
        history = importlib.import_module("moderator.tui.dialogs.history").HistoryScreen
        shell.push_screen(history(table))
        return None


class ExportPlay(Intent):
    """Offer the game just played to BG Stats: its createPlay link and a play file."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        outcome = table.export_play()
        export = table.play_export()
        if export is not None and not outcome.refused:
            shell.copy_to_clipboard(export.link)
        return outcome


class DatabaseReplaced(Intent):
    """The start-up's check replaced a damaged database: nothing of the old one is open."""

    def run(self, table: TableController, shell: Shell) -> Outcome | None:
        return table.database_replaced()
