"""The players drawn around the table, clockwise, as clickable tiles.

Seat 0 sits at the top left and the seating runs clockwise: along the top
from left to right, down the right side, back along the bottom from right to
left and up the left side. Everything a tile shows is derived from the
picture's `view` (a `GameState` and the Meeting's passing chart), bound to its
screen's snapshot; each tile holds the `TileView` made for it and repaints
only when that changed (a next turn repaints two tiles, not all of them).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.css.styles import RulesMap
from textual.events import Click, Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from moderator import i18n
from moderator.domain import GameState, Pass
from moderator.domain.rules import MAX_PLAYERS
from moderator.i18n import N_, NP_
from moderator.tui.widgets.caption import Caption

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
    """(x, y, width, height) of each seat, clockwise from the top left, inside the picture.

    A picture too short for three rows of tiles (a Meeting's tiles are five rows
    high, and a long instruction above takes rows from the picture) seats the
    side players at the ends of the top and bottom rows, still clockwise: a tile
    below the picture's edge would be cut off, and with it a passing line. Shorter
    still, everyone sits in one row.
    """
    top, right, bottom, left = layout_counts(count)
    rows = min(3, height // max(1, tile_height))
    if rows < 3 and right + left:
        top, right, bottom, left = top + right, 0, bottom + left, 0
    if rows < 2:
        top, bottom = top + bottom, 0
    boxes: list[tuple[int, int, int, int]] = []
    row_tiles = max(top, bottom, 1)
    tile_width = max(6, min(28, width // row_tiles - 1))
    bottom_y = max(tile_height * (rows - 1), height - tile_height)
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


#: What a tile says under the name, and a shorter form of it for a narrow tile (msgids;
#: the short one told apart by its context, as the same English can be a long form too).
_STATUS_WORDS = {
    "knocked-out": (N_("KNOCKED OUT"), NP_("tile status, short", "OUT")),
    "sits-out": (N_("sits out"), NP_("tile status, short", "away")),
    "keeps": (N_("keeps their cards"), NP_("tile status, short", "keeps cards")),
    "turn": (N_("YOUR TURN"), NP_("tile status, short", "TURN")),
    "in-play": (N_("in play"), NP_("tile status, short", "in play")),
}


def status_words(status: str, width: int, rows: int, prefix: str = "") -> str:
    """A tile's status in `rows` lines of `width` cells, no word cut: whole, else shorter.

    The status in the table's language is wrapped by words; if a word is wider
    than the tile or it takes more rows than the tile has, its short form is
    used (wrapped the same way). A short form that still does not fit is cut
    with an ellipsis, the last resort for a tile narrower than any language's word.
    """
    full, short = _STATUS_WORDS[status]
    forms = (prefix + i18n._(full), prefix + i18n._(short))
    for form in forms:
        lines = textwrap.wrap(form, width, break_long_words=False, break_on_hyphens=False)
        if len(lines) <= rows and all(cell_len(line) <= width for line in lines):
            return "\n".join(lines)
    return _short(forms[-1], width)


def tile_text(state: GameState, seat: int, width: int, chart: dict[int, Pass] | None) -> Text:
    """What one seat's tile says, as literal Text (names are never markup).

    In a Meeting the tile shows where its two cards go: "L" to the left
    neighbour (the next participant clockwise), "R" to the right one. Its
    status ("sits out", "YOUR TURN"...) is drawn whole in the rows it has
    (`status_words`); only a name may end in "…".
    """
    name = state.players[seat]
    # In a Meeting the digit keys toggle who sits out: each tile shows its key. At the
    # table each tile shows its seat number, as the status line names it ("Seat 6: …").
    if chart is None:
        key = f"{seat + 1} "
    else:
        key = f"{(seat + 1) % 10} " if seat not in state.knocked_out else ""
    text = Text(key + _short(name, max(1, width - len(key))), style="bold", no_wrap=True)
    text.overflow = "ellipsis"
    meeting = state.meeting
    line = chart.get(seat) if chart is not None else None
    rows = 2 if chart is not None else 1  # the rows under the name
    if seat in state.knocked_out:
        text.append("\n" + status_words("knocked-out", width, rows, "✗ "), style="bold")
    elif meeting is not None and seat in meeting.sitting_out:
        text.append("\n" + status_words("sits-out", width, rows))
    elif line is not None:
        label = max(1, width - 4)
        text.append("\n" + i18n.pgettext("tile: to the left", "L") + " ▸ ", style="bold")
        text.append(_short(state.players[line.left], label))
        text.append("\n" + i18n.pgettext("tile: to the right", "R") + " ▸ ", style="bold")
        text.append(_short(state.players[line.right], label))
    elif chart is not None:
        text.append("\n" + status_words("keeps", width, rows))
    elif seat == state.current and not state.is_over:
        text.append("\n" + status_words("turn", width, rows, "▶ "), style="bold")
    else:
        text.append("\n" + status_words("in-play", width, rows))
    return text


@dataclass(frozen=True)
class PictureView:
    """What the picture shows: a game's state and, during a Meeting, its passing chart."""

    state: GameState
    chart: tuple[Pass, ...] | None = None


@dataclass(frozen=True)
class TileView:
    """What one tile shows and where: its text, its box, and its marks."""

    text: Text
    box: tuple[int, int, int, int]
    current: bool
    knocked_out: bool
    sitting_out: bool


#: The marks a tile can wear, in the order their looks stack (a later one wins a rule
#: both set, as the CSS rules did when they were classes): each is the component
#: style `seat--<mark>` in the screens' CSS.
MARKS = ("current", "sitting-out", "knocked-out")


class SeatTile(Static):
    """One player's character tile; click it to pick that player.

    Its marks (the current seat, sitting out, knocked out) are component styles
    (CSS, so they follow the theme) laid over the tile as inline rules, not
    classes: a class flip restyles the tile against the whole stylesheet, and
    a next turn flipped two, about a tenth of its time from key to screen.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"seat--{mark}" for mark in MARKS}
    #: What the tile shows; a tile repaints only when its own view changed.
    view: reactive[TileView | None] = reactive(None, repaint=False, init=False)

    def __init__(self, seat: int) -> None:
        super().__init__("", id=f"seat-{seat}", classes="seat", markup=False)
        self.seat = seat
        #: The marks worn now, and the rules they lay over the tile.
        self._marks: tuple[str, ...] = ()
        self._rules: RulesMap = {}

    @property
    def marks(self) -> frozenset[str]:
        """The marks the tile wears now (names from `MARKS`)."""
        return frozenset(self._marks)

    def _wear(self, marks: tuple[str, ...]) -> None:
        """Lay the marks' rules over the tile (lifting the last ones): a repaint, no restyle.

        Every mark's border is one cell, as the tile's own: nothing is laid out.
        """
        rules: RulesMap = {}
        for mark in marks:
            rules.update(self.get_component_styles(f"seat--{mark}").get_rules())
        if marks == self._marks and rules == self._rules:
            return
        inline = self.styles.inline
        for name in self._rules:
            inline.clear_rule(name)
        for name, value in rules.items():
            inline.set_rule(name, value)
        self._marks, self._rules = marks, rules
        Widget.notify_style_update(self)  # the cached text styles, as a restyle clears them
        self.refresh()

    def notify_style_update(self) -> None:
        """A restyle (a new theme, a screen shown again): the marks are read again after it.

        Textual computes the component styles after this call, so it waits a turn.
        """
        super().notify_style_update()
        if self._marks:
            self.call_next(self._wear_again)

    def _wear_again(self) -> None:
        marks, self._marks = self._marks, ()
        self._wear(marks)

    def watch_view(self, old: TileView | None, new: TileView | None) -> None:
        """Move, redraw and mark the tile, each only if it changed.

        Its size is its box's (set here), never its text's: no layout for a new text.
        """
        if new is None:
            return
        if old is None or old.box != new.box:
            x, y, width, height = new.box
            self.styles.offset = (x, y)
            self.styles.width = width
            self.styles.height = height
        if old is None or old.text != new.text:
            self.update(new.text, layout=False)
        worn = (new.current, new.sitting_out, new.knocked_out)
        self._wear(tuple(mark for mark, on in zip(MARKS, worn, strict=True) if on))

    def on_click(self, event: Click) -> None:
        """Tell the picture's screen which seat was picked."""
        event.stop()
        self.post_message(TablePicture.SeatChosen(self.seat))


def tile_views(view: PictureView, width: int, height: int) -> list[TileView]:
    """Every seat's tile, clockwise, for a picture of `width` x `height` cells."""
    state = view.state
    chart = None if view.chart is None else {line.giver: line for line in view.chart}
    lines = 3 if chart is not None else 2
    meeting = state.meeting
    return [
        TileView(
            tile_text(state, seat, max(1, w - 4), chart),
            (x, y, w, h),
            current=seat == state.current and not state.is_over,
            knocked_out=seat in state.knocked_out,
            sitting_out=meeting is not None and seat in meeting.sitting_out,
        )
        for seat, (x, y, w, h) in enumerate(
            seat_boxes(state.count, width, height, lines + _BORDER_ROWS)
        )
    ]


class TablePicture(Widget):
    """The table seen from above: one tile per seat, clockwise."""

    #: What the picture shows (data-bindable); None until a game is shown.
    view: reactive[PictureView | None] = reactive(None, repaint=False, init=False)

    @dataclass
    class SeatChosen(Message):
        """The table clicked a player's tile."""

        seat: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The tiles, seat by seat, and the centre line (kept once mounted).
        self._tiles: list[SeatTile] = []
        self._centre: Caption | None = None

    def compose(self) -> ComposeResult:
        """The centre label and a tile for every seat a game can have (shown per game).

        The picture lives as long as its screen, across games of any size:
        tiles are shown and hidden, never mounted and removed, so a new roster
        cannot meet the tiles of the last one still being removed.
        """
        yield Caption("", id="table-centre")
        for seat in range(MAX_PLAYERS):
            tile = SeatTile(seat)
            tile.display = False
            yield tile

    def on_mount(self) -> None:
        """The tiles and the centre, kept: a redraw queries nothing."""
        self._tiles = list(self.query(SeatTile).results(SeatTile))
        self._centre = self.query_one("#table-centre", Caption)
        self._draw()

    def watch_view(self) -> None:
        """A new state (or chart): each tile redraws only what changed for it."""
        self._draw()

    def on_resize(self, event: Resize) -> None:
        """Tiles move with the picture's size."""
        self._draw()

    def _draw(self) -> None:
        view, centre = self.view, self._centre
        if view is None or centre is None:
            return
        views = tile_views(view, self.size.width, self.size.height)
        for tile in self._tiles:
            tile.display = tile.seat < len(views)
            if tile.seat < len(views):
                tile.view = views[tile.seat]
        if view.state.meeting is not None:
            centre.text = Text(i18n._("L: left · R: right"), justify="center")
        else:
            centre.text = Text(i18n._("clockwise") + " ↻", justify="center")
        centre.styles.offset = (0, max(0, self.size.height // 2 - 1))
