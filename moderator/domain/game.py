"""The public state of one game and the pure function that advances it.

`apply(state, event)` either returns a new state or raises `IllegalAction`
without touching the old one; `replay(events)` folds a whole log. Nothing here
knows who is Possessed until `ResultsDeclared`, when the table says it aloud.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from moderator.domain import rules
from moderator.domain.errors import IllegalAction, IllegalCount
from moderator.domain.events import (
    Event,
    GameStarted,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    ResultsDeclared,
    RevealFinished,
    SitOutToggled,
    TurnPassed,
)
from moderator.domain.names import clean_roster, clean_said_as
from moderator.domain.rules import Team


class GameOver(StrEnum):
    """Why the game ended (the rulebook's two ways)."""

    FEW_IN_PLAY = "few_in_play"
    THIRD_MEETING = "third_meeting"


@dataclass(frozen=True)
class Meeting:
    """A Meeting in progress."""

    #: 1, 2 or 3.
    number: int
    #: The seat whose turn it was when the Meeting card was drawn.
    drawn_by: int
    #: In-play seats that sit out by a card effect (knocked-out seats never take part).
    sitting_out: frozenset[int]


@dataclass(frozen=True)
class Result:
    """The public outcome once the teams are revealed."""

    possessed: frozenset[int]
    waffles: tuple[int, ...]
    winner: Team
    points: tuple[int, ...]


@dataclass(frozen=True)
class Pass:
    """One line of the Meeting passing chart: `giver` gives a card left and right."""

    giver: int
    left: int
    right: int


@dataclass(frozen=True)
class GameState:
    """Everything the table can see about one game."""

    players: tuple[str, ...]
    first_player: int
    #: Whose turn it is; always a seat in play unless the game is over.
    current: int
    #: 1 for the first player's first turn, +1 each time the turn passes.
    turn: int
    knocked_out: frozenset[int] = frozenset()
    meetings_resolved: int = 0
    meeting: Meeting | None = None
    over: GameOver | None = None
    result: Result | None = None
    #: The eyes-closed reveal is over (`RevealFinished`); see `reveal_pending`.
    revealed: bool = False
    #: How each name is said, by seat ("" as written); empty when the table typed none.
    said_as: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        """Number of players at the table."""
        return len(self.players)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still in play, clockwise from seat 0."""
        return tuple(s for s in range(self.count) if s not in self.knocked_out)

    @property
    def untouched(self) -> bool:
        """Nothing has happened since the players sat down (no turn, knock-out or Meeting)."""
        return (
            self.turn == 1
            and not self.knocked_out
            and self.meeting is None
            and self.meetings_resolved == 0
            and not self.is_over
        )

    @property
    def reveal_pending(self) -> bool:
        """The table still owes itself the eyes-closed reveal (6+ players, nothing done yet).

        A game's first action ends the time for a reveal too, so a log written
        before `RevealFinished` existed never asks for one once it has begun.
        """
        return rules.setup_for(self.count).reveal and not self.revealed and self.untouched

    @property
    def is_over(self) -> bool:
        """True once the game has ended (results may still be pending)."""
        return self.over is not None

    def next_in_play(self, seat: int) -> int:
        """The next seat clockwise after `seat` that is still in play."""
        for step in range(1, self.count + 1):
            candidate = (seat + step) % self.count
            if candidate not in self.knocked_out:
                return candidate
        raise IllegalAction("Nobody is left in play.")

    def participants(self) -> tuple[int, ...]:
        """Seats taking part in the current Meeting (none without a Meeting)."""
        if self.meeting is None:
            return ()
        return tuple(s for s in self.in_play if s not in self.meeting.sitting_out)


def new_game(
    players: Iterable[str], first_player: int = 0, said_as: Iterable[str] = ()
) -> GameState:
    """The state right after `GameStarted` (validates the roster)."""
    return apply(None, GameStarted(tuple(players), first_player, tuple(said_as)))


def passing_chart(state: GameState) -> tuple[Pass, ...]:
    """Who gives to whom in the current Meeting.

    Left is the next participant clockwise, right the previous one, skipping
    everyone who sits out. With two participants both cards go to the other;
    with one, nothing moves (empty chart).
    """
    seats = state.participants()
    if len(seats) < 2:
        return ()
    size = len(seats)
    return tuple(
        Pass(giver=seat, left=seats[(i + 1) % size], right=seats[(i - 1) % size])
        for i, seat in enumerate(seats)
    )


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild the state from a game's whole event log."""
    state: GameState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise IllegalAction("The game log is empty.")
    return state


def apply(state: GameState | None, event: Event) -> GameState:
    """Return the state after `event`, or raise `IllegalAction` (state untouched)."""
    if isinstance(event, GameStarted):
        return _start(state, event)
    if state is None:
        raise IllegalAction("No game has started yet.")
    if isinstance(event, ResultsDeclared):
        return _declare(state, event)
    if isinstance(event, PlayerKnockedOut):
        return _knock_out(state, event.player)
    if state.is_over:
        raise IllegalAction("The game is over: only the results can be entered now.")
    if isinstance(event, RevealFinished):
        return _finish_reveal(state)
    if isinstance(event, TurnPassed):
        return _pass_turn(state)
    if isinstance(event, MeetingStarted):
        return _start_meeting(state, event)
    if isinstance(event, SitOutToggled):
        return _toggle_sit_out(state, event.player)
    if isinstance(event, MeetingResolved):
        return _resolve_meeting(state)
    raise IllegalAction("Unknown action {event!r:.60}.", event=event)  # pragma: no cover


def _check_seat(state: GameState, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.count:
        raise IllegalAction("There is no player at seat {seat!r:.20}.", seat=seat)
    return seat


def _start(state: GameState | None, event: GameStarted) -> GameState:
    if state is not None:
        raise IllegalAction("This game has already started.")
    if not isinstance(event.players, tuple) or not all(isinstance(n, str) for n in event.players):
        raise IllegalAction("The players must be a list of names.")
    rules.check_player_count(len(event.players))
    names = clean_roster(event.players)
    if names != tuple(unicodedata.normalize("NFC", name) for name in event.players):
        raise IllegalAction("Names must be trimmed before the game starts.")
    # A log written before names were kept in NFC replays with its names as logged:
    # the store knows the players by those spellings.
    names = event.players
    first = event.first_player
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise IllegalAction("The first player must be one of the players.")
    said_as = _check_said_as(event.said_as, len(names))
    return GameState(players=names, first_player=first, current=first, turn=1, said_as=said_as)


def _check_said_as(said_as: object, count: int) -> tuple[str, ...]:
    """One cleaned "say it as" per seat, or none at all (a game started without any)."""
    if not isinstance(said_as, tuple) or not all(isinstance(s, str) for s in said_as):
        raise IllegalAction("How the names are said must be a list of words.")
    if not any(said_as):
        return ()
    if len(said_as) != count:
        raise IllegalAction("How the names are said must be given for every seat.")
    if any(clean_said_as(said) != said for said in said_as):
        raise IllegalAction("How the names are said must be trimmed before the game starts.")
    return said_as


def _finish_reveal(state: GameState) -> GameState:
    if not rules.setup_for(state.count).reveal:
        raise IllegalAction(
            "There is no eyes-closed reveal with {count} players.", count=state.count
        )
    if not state.reveal_pending:
        raise IllegalAction("The reveal is over: the turns have begun.")
    return replace(state, revealed=True)


def _pass_turn(state: GameState) -> GameState:
    if state.meeting is not None:
        raise IllegalAction("Finish the Meeting before passing the turn.")
    return replace(state, current=state.next_in_play(state.current), turn=state.turn + 1)


def _knock_out(state: GameState, player: int) -> GameState:
    """Flip a tile; at the end of a game, knock-outs that came with it still count.

    Several players can be knocked out at the same moment (by the cards of a
    Meeting, the last one included), and who is still in play decides the
    winner, so until the results are entered the table can record them all.
    """
    if state.result is not None:
        raise IllegalAction("The results are entered: undo them first to change the game.")
    seat = _check_seat(state, player)
    name = state.players[seat]
    if seat in state.knocked_out:
        raise IllegalAction("{name} is already knocked out.", name=name)
    knocked = state.knocked_out | {seat}
    if state.is_over:
        return replace(state, knocked_out=knocked)
    meeting = state.meeting
    if meeting is not None and seat in meeting.sitting_out:
        meeting = replace(meeting, sitting_out=meeting.sitting_out - {seat})
    after = replace(state, knocked_out=knocked, meeting=meeting)
    if rules.game_should_end(len(after.in_play), after.meetings_resolved):
        return replace(after, meeting=None, over=GameOver.FEW_IN_PLAY)
    if seat == state.current:
        # A knocked-out player cannot take turns: the turn moves on at once.
        after = replace(after, current=after.next_in_play(seat), turn=state.turn + 1)
    return after


def _start_meeting(state: GameState, event: MeetingStarted) -> GameState:
    if state.meeting is not None:
        raise IllegalAction("Meeting {number} is already under way.", number=state.meeting.number)
    if state.meetings_resolved >= rules.MEETINGS_PER_GAME:  # pragma: no cover - game over
        raise IllegalAction("There are only three Meetings in a game.")
    if not isinstance(event.sitting_out, tuple):
        raise IllegalAction("Sitting out must be a list of players.")
    sitting_out: set[int] = set()
    for raw in event.sitting_out:
        seat = _check_seat(state, raw)
        if seat in state.knocked_out:
            raise IllegalAction(
                "{name} is knocked out and already sits out every Meeting.",
                name=state.players[seat],
            )
        sitting_out.add(seat)
    meeting = Meeting(
        number=state.meetings_resolved + 1,
        drawn_by=state.current,
        sitting_out=frozenset(sitting_out),
    )
    return replace(state, meeting=meeting)


def _toggle_sit_out(state: GameState, player: int) -> GameState:
    if state.meeting is None:
        raise IllegalAction("Players can only sit out during a Meeting.")
    seat = _check_seat(state, player)
    if seat in state.knocked_out:
        raise IllegalAction(
            "{name} is knocked out and already sits out every Meeting.", name=state.players[seat]
        )
    out = state.meeting.sitting_out
    out = out - {seat} if seat in out else out | {seat}
    return replace(state, meeting=replace(state.meeting, sitting_out=out))


def _resolve_meeting(state: GameState) -> GameState:
    if state.meeting is None:
        raise IllegalAction("There is no Meeting to resolve.")
    resolved = state.meetings_resolved + 1
    after = replace(state, meeting=None, meetings_resolved=resolved)
    if rules.game_should_end(len(after.in_play), resolved):
        return replace(after, over=GameOver.THIRD_MEETING)
    if state.meeting.drawn_by == state.current:
        # "Finally, the player to your left takes their turn."
        return replace(after, current=after.next_in_play(state.current), turn=state.turn + 1)
    # The player who drew the card was knocked out meanwhile: the turn already moved.
    return after


def _declare(state: GameState, event: ResultsDeclared) -> GameState:
    if not state.is_over:
        raise IllegalAction("The results can only be entered once the game is over.")
    if state.result is not None:
        raise IllegalAction("The results of this game are already entered.")
    if not isinstance(event.possessed, tuple) or not isinstance(event.waffles, tuple):
        raise IllegalAction("The results must list players and Waffles.")
    possessed = frozenset(_check_seat(state, seat) for seat in event.possessed)
    if len(possessed) != len(event.possessed):
        raise IllegalAction("A player is named twice among the Possessed.")
    needed = rules.setup_for(state.count).mind_flayer
    if len(possessed) < needed:
        raise IllegalCount(
            "With {players} players at least {count} player was Possessed from the start: "
            "mark everyone who growled.",
            "With {players} players at least {count} players were Possessed from the start: "
            "mark everyone who growled.",
            needed,
            players=state.count,
        )
    if len(event.waffles) != state.count:
        raise IllegalAction("Enter a number of Waffle cards for every player.")
    for seat, count in enumerate(event.waffles):
        if not isinstance(count, int) or isinstance(count, bool):
            raise IllegalAction(
                "{name}'s Waffle cards must be a whole number.", name=state.players[seat]
            )
        if not 0 <= count <= rules.MAX_WAFFLES:
            raise IllegalAction(
                "{name} cannot hold {count} Waffle cards (the game has {most}).",
                name=state.players[seat],
                count=count,
                most=rules.MAX_WAFFLES,
            )
    if sum(event.waffles) > rules.MAX_WAFFLES:
        raise IllegalAction("The game has only {most} Waffle cards in all.", most=rules.MAX_WAFFLES)
    winner = rules.winning_team(possessed, state.in_play)
    result = Result(
        possessed=possessed,
        waffles=event.waffles,
        winner=winner,
        points=rules.points(state.count, possessed, event.waffles, winner),
    )
    return replace(state, result=result)
