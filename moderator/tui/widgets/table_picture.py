"""The players drawn around the table, clockwise, as clickable tiles.

Seat 0 sits at the top left and the seating runs clockwise: along the top
from left to right, down the right side, back along the bottom from right to
left and up the left side. Everything a tile shows is derived from the
`GameState` (and the Meeting's passing chart) handed to `show`, never kept in
the tiles themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.events import Click, Resize
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from moderator.domain import GameState, Pass
from moderator.domain.rules import MAX_PLAYERS

#: Rows a tile's border takes.
_BORDER_ROWS = 2


def layout_counts(count: int) -> tuple[int, int, int, int]:
    """How many seats go on the top, right, bottom and left sides."""
    if count <= 2:
        return count, 0, 0, 0
    top = -(-(count - 2) // 2)
    bottom = (count - 2) // 2
    return top, 1, bottom, 1


def seat_boxes(
    count: int, width: int, height: int, tile_height: int
) -> list[tuple[int, int, int, int]]:
    """(x, y, width, height) of each seat, clockwise from the top left."""
    top, right, bottom, left = layout_counts(count)
    boxes: list[tuple[int, int, int, int]] = []
    row_tiles = max(top, bottom, 1)
    tile_width = max(6, min(28, width // row_tiles - 1))
    bottom_y = max(tile_height * 2, height - tile_height)
    middle_y = (bottom_y + tile_height) // 2 - tile_height // 2

    def row(n: int, y: int, reverse: bool) -> None:
        slot = width / max(n, 1)
        xs = [int(slot * i + (slot - tile_width) / 2) for i in range(n)]
        for x in reversed(xs) if reverse else xs:
            boxes.append((max(0, x), y, tile_width, tile_height))

    row(top, 0, reverse=False)
    for _ in range(right):
        boxes.append((max(0, width - tile_width), middle_y, tile_width, tile_height))
    row(bottom, bottom_y, reverse=True)
    for _ in range(left):
        boxes.append((0, middle_y, tile_width, tile_height))
    return boxes


def _short(name: str, width: int) -> str:
    """The name cut to `width` cells with an ellipsis (still literal text)."""
    if len(name) <= width:
        return name
    return name[: max(1, width - 1)] + "…"


def tile_text(state: GameState, seat: int, width: int, chart: dict[int, Pass] | None) -> Text:
    """What one seat's tile says, as literal Text (names are never markup).

    In a Meeting the tile shows where its two cards go: "L" to the left
    neighbour (the next participant clockwise), "R" to the right one.
    """
    name = state.players[seat]
    # In a Meeting the digit keys toggle who sits out: each tile shows its key.
    key = f"{(seat + 1) % 10} " if chart is not None and seat not in state.knocked_out else ""
    text = Text(key + _short(name, max(1, width - len(key))), style="bold", no_wrap=True)
    text.overflow = "ellipsis"
    meeting = state.meeting
    line = chart.get(seat) if chart is not None else None
    if seat in state.knocked_out:
        text.append("\n✗ KNOCKED OUT", style="bold")
    elif meeting is not None and seat in meeting.sitting_out:
        text.append("\nsits out")
    elif line is not None:
        label = max(1, width - 4)
        text.append("\nL ▸ ", style="bold")
        text.append(_short(state.players[line.left], label))
        text.append("\nR ▸ ", style="bold")
        text.append(_short(state.players[line.right], label))
    elif chart is not None:
        text.append("\nkeeps their cards")
    elif seat == state.current and not state.is_over:
        text.append("\n▶ YOUR TURN", style="bold")
    else:
        text.append("\nin play")
    return text


class SeatTile(Static):
    """One player's character tile; click it to pick that player."""

    def __init__(self, seat: int) -> None:
        super().__init__("", id=f"seat-{seat}", classes="seat", markup=False)
        self.seat = seat

    def on_click(self, event: Click) -> None:
        """Tell the picture's screen which seat was picked."""
        event.stop()
        self.post_message(TablePicture.SeatChosen(self.seat))


class TablePicture(Widget):
    """The table seen from above: one tile per seat, clockwise."""

    @dataclass
    class SeatChosen(Message):
        """The table clicked a player's tile."""

        seat: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._state: GameState | None = None
        self._chart: dict[int, Pass] | None = None

    def compose(self) -> ComposeResult:
        """The centre label and a tile for every seat a game can have (shown per game).

        The picture lives as long as its screen, across games of any size:
        tiles are shown and hidden, never mounted and removed, so a new roster
        cannot meet the tiles of the last one still being removed.
        """
        yield Static("", id="table-centre", markup=False)
        for seat in range(MAX_PLAYERS):
            tile = SeatTile(seat)
            tile.display = False
            yield tile

    def show(self, state: GameState, chart: tuple[Pass, ...] | None = None) -> None:
        """Draw `state` (and, during a Meeting, its passing chart)."""
        self._state = state
        self._chart = None if chart is None else {line.giver: line for line in chart}
        for tile in self.query(SeatTile).results(SeatTile):
            tile.display = tile.seat < state.count
        self._draw()

    def on_resize(self, event: Resize) -> None:
        """Tiles move with the picture's size."""
        self._draw()

    def _draw(self) -> None:
        state = self._state
        if state is None:
            return
        tiles = sorted(
            (tile for tile in self.query(SeatTile).results(SeatTile) if tile.seat < state.count),
            key=lambda tile: tile.seat,
        )
        lines = 3 if self._chart is not None else 2
        boxes = seat_boxes(state.count, self.size.width, self.size.height, lines + _BORDER_ROWS)
        meeting = state.meeting
        for tile, (x, y, w, h) in zip(tiles, boxes, strict=False):
            seat = tile.seat
            tile.styles.offset = (x, y)
            tile.styles.width = w
            tile.styles.height = h
            tile.update(tile_text(state, seat, max(1, w - 4), self._chart))
            tile.set_class(seat == state.current and not state.is_over, "-current")
            tile.set_class(seat in state.knocked_out, "-knocked-out")
            tile.set_class(meeting is not None and seat in meeting.sitting_out, "-sitting-out")
        centre = next(self.query("#table-centre").results(Static), None)
        if centre is None:  # a late redraw while the screen is being removed
            return
        centre.update(Text(self._centre_text(state), justify="center"))
        centre.styles.offset = (0, max(0, self.size.height // 2 - 1))

    def _centre_text(self, state: GameState) -> str:
        if state.meeting is not None:
            return "L: left · R: right"
        return "clockwise ↻"
