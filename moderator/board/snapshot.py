"""The public snapshot the phone board shows: only what the laptop's screen shows.

The table controller builds one after each acknowledged action from values it
already shows (the game's public state, the phase, the series board); the board
server sends it, as JSON, to every phone. Nothing here imports Textual or the
TUI, so the snapshot can move to a Textual-free table layer as it is.

What it never holds: anything secret (nobody's team until the results are
saved, and then only the winning team, as the series board says), anything the
current phase's screen does not show (no game on the start or setup screen).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace

from moderator.domain import GameState, passing_chart, rules

#: Phases whose screens show the open game (the start and setup screens do not).
GAME_PHASES = frozenset({"reveal", "table", "meeting", "finale", "result", "series"})


@dataclass(frozen=True)
class SeatView:
    """One seat, clockwise from the first seat: its name and whether it is in play."""

    name: str
    in_play: bool
    #: Whose turn it is (never during a Meeting or once the game is over).
    current: bool = False
    #: Sits out the Meeting in progress by a card effect (the knocked-out are out of the game).
    sitting_out: bool = False


@dataclass(frozen=True)
class PassView:
    """One line of the Meeting's passing chart: `giver` gives left and right."""

    giver: str
    left: str
    right: str


@dataclass(frozen=True)
class MeetingView:
    """The Meeting in progress: its number, who sits out, who passes to whom."""

    number: int
    sitting_out: tuple[str, ...]
    chart: tuple[PassView, ...]


@dataclass(frozen=True)
class SeriesRow:
    """A row of the series board: points per game (None: not played) and total."""

    name: str
    points: tuple[int | None, ...]
    total: int
    leading: bool


@dataclass(frozen=True)
class SeriesView:
    """The series board as the laptop shows it: games with saved results only."""

    played: int = 0
    games: int = rules.GAMES_PER_SERIES
    rows: tuple[SeriesRow, ...] = ()
    #: "sane" / "possessed": who won the last game with saved results ("" before).
    last_winner: str = ""
    #: The series winners once the series is complete (co-winners on a tie).
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeaderboardView:
    """Tonight's table's leaderboard over its complete series, as the series board draws it.

    Lines of text in the table's language (`history_report.charts`), made by the app and
    shown as they are: the laptop's series board shows the same figures.
    """

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class BoardSnapshot:
    """Everything one phone shows; `seq` grows by one per change."""

    seq: int
    phase: str
    #: The UI language (the page picks its strings by it).
    lang: str = "en"
    game_number: int | None = None
    turn: int | None = None
    current: str | None = None
    meetings_done: int = 0
    meetings_total: int = rules.MEETINGS_PER_GAME
    seats: tuple[SeatView, ...] = ()
    meeting: MeetingView | None = None
    #: Why the game ended ("few_in_play" / "third_meeting"), once it has.
    over: str | None = None
    #: The eyes-closed reveal is being spoken (phones may vibrate as it starts and ends).
    eyes_closed: bool = False
    series: SeriesView = field(default_factory=SeriesView)
    #: The BG Stats link of the last game, once the table asked for it on the laptop.
    bgstats_link: str | None = None
    #: Tonight's table's leaderboard, between games (the series phase) only.
    leaderboard: LeaderboardView | None = None

    def to_json(self) -> str:
        """The snapshot as compact JSON (names as they are: the page shows them as text)."""
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    def same_view(self, other: BoardSnapshot | None) -> bool:
        """Whether `other` shows exactly the same board (its `seq` aside)."""
        return other is not None and replace(other, seq=self.seq) == self


def series_view(points: Sequence[Mapping[str, int]], last_winner: str = "") -> SeriesView:
    """The series board from each finished game's points (name -> points), in order."""
    names: list[str] = []
    for game in points:
        names.extend(name for name in game if name not in names)
    ranks = {s.name: s for s in rules.standings(points)}
    rows = []
    for name in names:
        standing = ranks.get(name)
        scores = tuple(
            points[index].get(name) if index < len(points) else None
            for index in range(rules.GAMES_PER_SERIES)
        )
        rows.append(
            SeriesRow(
                name,
                scores,
                standing.total if standing else 0,
                standing is not None and standing.rank == 1,
            )
        )
    return SeriesView(
        played=len(points),
        rows=tuple(rows),
        last_winner=last_winner if points else "",
        winners=tuple(rules.series_winners(points)),
    )


def build_snapshot(
    seq: int,
    phase: str,
    state: GameState | None,
    *,
    game_number: int | None = None,
    series: SeriesView | None = None,
    eyes_closed: bool = False,
    bgstats_link: str | None = None,
    lang: str = "en",
    leaderboard: LeaderboardView | None = None,
) -> BoardSnapshot:
    """The public board for `phase` and the open game's `state` (None: no game open).

    The game is left out where the laptop's screen does not show it (the start
    and setup screens); the series board appears only on the series phase,
    where the laptop shows it; the eyes-closed flag only during the reveal.
    """
    series = series if series is not None and phase == "series" else SeriesView()
    link = bgstats_link if phase == "series" else None
    board = leaderboard if phase == "series" else None
    if state is None or phase not in GAME_PHASES:
        return BoardSnapshot(seq, phase, lang, series=series, bgstats_link=link, leaderboard=board)
    meeting = state.meeting
    out = meeting.sitting_out - state.knocked_out if meeting is not None else frozenset()
    seats = tuple(
        SeatView(
            name,
            seat not in state.knocked_out,
            current=seat == state.current and meeting is None and not state.is_over,
            sitting_out=seat in out,
        )
        for seat, name in enumerate(state.players)
    )
    meeting_view = None
    if meeting is not None:
        chart = tuple(
            PassView(state.players[p.giver], state.players[p.left], state.players[p.right])
            for p in passing_chart(state)
        )
        meeting_view = MeetingView(
            meeting.number, tuple(state.players[s] for s in sorted(out)), chart
        )
    return BoardSnapshot(
        seq,
        phase,
        lang,
        game_number=game_number,
        turn=state.turn,
        current=None if state.is_over else state.players[state.current],
        meetings_done=state.meetings_resolved,
        seats=seats,
        meeting=meeting_view,
        over=state.over.value if state.over is not None else None,
        eyes_closed=eyes_closed and phase == "reveal",
        series=series,
        bgstats_link=link,
        leaderboard=board,
    )
