"""The TUI's messages: narration facts, and the intents screens post to the app.

Narration. The narrator calls back from its own thread; the table controller
turns each callback into a fact message and posts it to the app
(`post_message` is thread-safe), so narration is handled on the UI thread like
any event. Each carries the id of its playback: the app passes on only the
latest playback's messages, to the screen of the phase that started it.

Intents. What a screen asks for (below); the app is the only receiver.

They are plain classes with an `__init__`, as Textual's own messages are, not
dataclasses: making a dataclass runs `exec` for each method it generates (0.2 to
0.5 ms a class), and the 28 dataclasses this module had cost the first frame
about 6 ms (docs/startup.md). A keyword pattern (`case StartGame(players=p)`)
matches them the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message

from moderator.domain import ResultsDeclared
from moderator.table.phases import Phase

if TYPE_CHECKING:
    from moderator.table.outcomes import Outcome


class NarrationLineStarted(Message):
    """A line of the script started playing: show it as the caption."""

    def __init__(self, playback: int, text: str) -> None:
        super().__init__()
        self.playback = playback
        self.text = text


class NarrationCountedDown(Message):
    """One second of a timed pause went by."""

    def __init__(self, playback: int, seconds_left: int) -> None:
        super().__init__()
        self.playback = playback
        self.seconds_left = seconds_left


class NarrationNoticed(Message):
    """The narrator has something to tell the table (e.g. a missing part)."""

    def __init__(self, playback: int, message: str) -> None:
        super().__init__()
        self.playback = playback
        self.message = message


class NarrationFinished(Message):
    """The script ended, or was cancelled (muted, Esc, or replaced)."""

    def __init__(self, playback: int, cancelled: bool) -> None:
        super().__init__()
        self.playback = playback
        self.cancelled = cancelled


class NarrationAmbience(Message):
    """An eyes-closed span with the ambience bed began or ended (audible: heard at all)."""

    def __init__(self, playback: int, started: bool, audible: bool) -> None:
        super().__init__()
        self.playback = playback
        self.started = started
        self.audible = audible


def translate(playback: int, event: object) -> Message | None:
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
# the app hands it to the table controller, then shows the phase the outcome
# names. Named as what the table wants done.


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
    #: whose press waits for it (`moderator.tui.remote`). Keys leave it None.
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


class Resume(Intent):
    """Continue the unfinished series where it was."""


class NewSeries(Intent):
    """Start a new series (an unfinished one is set aside)."""


class NextGame(Intent):
    """Same series, next game: seat the table again."""


class GoHome(Intent):
    """Back to the start screen (all is saved)."""


class Menu(Intent):
    """Esc on a game screen: silence the voice if speaking, else the start screen."""


class StartGame(Intent):
    """Save a new game with this roster, clockwise, and its first player."""

    def __init__(
        self, players: tuple[str, ...], first_player: int, said_as: tuple[str, ...] = ()
    ) -> None:
        super().__init__()
        self.players = players
        self.first_player = first_player
        #: How each name is said, by seat ("" as written).
        self.said_as = said_as


class ReadSetupAloud(Intent):
    """Speak the setup checklist for this many players."""

    def __init__(self, players: int) -> None:
        super().__init__()
        self.players = players


class HowToPlay(Intent):
    """Speak the rules in short from line `from_line` on (a skip asks for the next line)."""

    def __init__(self, from_line: int = 0) -> None:
        super().__init__()
        self.from_line = from_line


class PlayReveal(Intent):
    """Start (or replay) the eyes-closed reveal."""


class StopVoice(Intent):
    """Silence the voice at once; the screen stays."""


class FinishReveal(Intent):
    """The reveal is over or skipped: start the turns."""


class PassTurn(Intent):
    """The turn passes clockwise."""


class DrawMeeting(Intent):
    """The current player drew a Meeting card."""


class AskKnockOut(Intent):
    """Ask who was knocked out (`highlight`: the seat to offer first)."""

    def __init__(self, highlight: int | None = None) -> None:
        super().__init__()
        self.highlight = highlight


class KnockOut(Intent):
    """`seat` is knocked out (the phone remote names the seat; a key asks first)."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat


class AskSitOut(Intent):
    """Ask who sits out of the Meeting (or comes back)."""


class ToggleSitOut(Intent):
    """`seat` sits out of the Meeting, or comes back."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat


class ResolveMeeting(Intent):
    """Everyone received their two cards."""


class CountAgain(Intent):
    """Replay the finale's count to 3."""


class EnterResults(Intent):
    """The finale is done: enter who growled."""


class DeclareResults(Intent):
    """Save the results as ticked and typed (the domain judges them)."""

    def __init__(self, event: ResultsDeclared) -> None:
        super().__init__()
        self.event = event


class UndoLast(Intent):
    """Take back the last table action."""


class RedoLast(Intent):
    """Do again what was just undone."""


class OpenHistory(Intent):
    """Show past series and players' records."""


class ExportPlay(Intent):
    """Offer the game just played to BG Stats: its createPlay link and a play file."""
