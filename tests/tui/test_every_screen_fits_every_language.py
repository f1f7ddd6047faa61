"""Every game screen fits in every language at 80x24 and 120x40 (issue 34, item 4).

The real app in English, French, German and Spanish, ten players with the
longest names the setup accepts (24 characters, some of several words), each
game screen drawn at 120x40 and then at 80x24 (the terminal resized, as a table
does), and read as drawn:

- a caption over big text (whose turn, the Meetings done, the Meeting's number)
  takes one row: wrapped, its second line ran into the big letters;
- a tile's lines are drawn whole inside it and its status is one whole form of
  the table's words (only a name may end in "…");
- the series board's columns line up for every player, whoever missed a game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from controller_shortcuts import accepted, controller_of, show, started
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from moderator.domain import ResultsDeclared, rules
from moderator.domain.names import MAX_NAME_LENGTH
from moderator.i18n import _, pgettext
from moderator.table.controller import TableController
from moderator.table.outcomes import Outcome
from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.meeting import MeetingScreen
from moderator.tui.screens.result import ResultScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from moderator.tui.widgets.result_fields import GrowledBox
from moderator.tui.widgets.table_picture import SeatTile
from tests.tui.app_driver import TrackedNarrator, narration_over, text_of, tracked_app
from tests.tui.drawn import drawn_rows
from tests.tui.test_i18n_screens import speaking

#: Ten names as long as the setup takes them, most of several words.
TEN = [
    "Maximiliane Charlotte Wo",
    "Bartholomew Abernathy Jr",
    "Jonathan Byers-Wheelerxx",
    "Hildegardisvonbingenhaus",
    "Anne Marie de la Fontain",
    "Dustin Henderson Smithee",
    "Steve Harrington the 3rd",
    "Eleven Jane Hopper Ives.",
    "Robin Buckley Scoops Ahy",
    "Murray Bauman Sesser Jrr",
]
assert all(len(name) == MAX_NAME_LENGTH for name in TEN)
SIZES = ((120, 40), (80, 24))
#: The ids of the captions drawn over big text, by screen.
CAPTIONS = {
    TableScreen: ("table-turn-label", "table-current-label", "table-meetings-label"),
    MeetingScreen: ("meeting-number-label",),
}


def app_of(pilot: Pilot[None]) -> MindFlayerApp:
    app = pilot.app
    assert isinstance(app, MindFlayerApp)
    return app


#: What a tile says under a name (msgids), and the short forms a narrow tile may say.
STATUSES = ("KNOCKED OUT", "sits out", "keeps their cards", "YOUR TURN", "in play")
SHORT = ("OUT", "away", "keeps cards", "TURN", "in play")


def status_forms() -> set[str]:
    """Every status a tile may say, whole, in the screen's language now (long and short)."""
    forms = set()
    for full, short in zip(STATUSES, SHORT, strict=True):
        for words in (_(full), pgettext("tile status, short", short)):
            forms |= {words, f"✗ {words}", f"▶ {words}"}
    return forms


def check_captions(app: MindFlayerApp, where: str) -> None:
    """Each caption over big text is one row, its words whole on it."""
    for caption_id in CAPTIONS.get(type(app.screen), ()):
        caption = app.screen.query_one(f"#{caption_id}", Static)
        words = text_of(caption)
        assert "\n" not in words and caption.region.height == 1, (where, caption_id, words)
        row = drawn_rows(app)[caption.region.y]
        assert words.strip() in row, (where, caption_id, words, row)


def check_tiles(app: MindFlayerApp, where: str) -> None:
    """Each tile's lines drawn whole inside it; its status one whole form; names whole or …"""
    rows = drawn_rows(app)
    forms = status_forms()
    for tile in app.screen.query(SeatTile).results(SeatTile):
        if not tile.display:
            continue
        lines = text_of(tile).splitlines()
        box = tile.content_region
        assert len(lines) <= box.height, (where, tile.id, lines, box)
        for index, line in enumerate(lines):
            assert cell_len(line) <= box.width, (where, tile.id, line, box.width)
            assert line.rstrip() in rows[box.y + index], (where, tile.id, line)
        passing = [line for line in lines[1:] if " ▸ " in line]
        status = " ".join(line.strip() for line in lines[1:] if " ▸ " not in line)
        if passing:
            for line in passing:
                name = line.split(" ▸ ", 1)[1]
                assert any(
                    name == whole or (name.endswith("…") and whole.startswith(name[:-1]))
                    for whole in TEN
                ), (where, tile.id, line)
        else:
            assert status in forms, (where, tile.id, lines, "not one whole form")


def check_result_rows(app: MindFlayerApp, where: str) -> None:
    """Each row's name drawn whole or ending in "…", its "(knocked out)" mark whole."""
    rows = drawn_rows(app)
    state = app.controller.state
    for seat, name in enumerate(state.players):
        box = app.screen.query_one(f"#possessed-{seat}", GrowledBox)
        row = rows[box.region.y][box.region.x : box.region.right]
        if seat in state.knocked_out:
            assert _("(knocked out)") in row, (where, seat, row)
        shown = row[len("▐X▌ ") :].split("  ")[0].strip()
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1])), (
            where,
            seat,
            row,
        )


def check_board(app: MindFlayerApp, where: str) -> None:
    """Every row's points end in the same column as its header's column (right-aligned)."""
    board = app.screen.query_one("#series-board", DataTable)
    region = board.region
    rows = [row[region.x : region.right] for row in drawn_rows(app)[region.y : region.bottom]]
    header, body = rows[0], [row for row in rows[1:] if row.strip()]
    labels = [str(column.label) for column in board.columns.values()]
    starts = [header.index(label) for label in labels]
    edges = [*starts[1:], len(header)]
    for column, (start, end) in enumerate(zip(starts, edges, strict=True)):
        if column == 0:
            continue
        ends = set()
        for row in body:
            cell = row[start:end]
            assert not row[start - 1 : start].strip(), (where, labels[column], row, "spilled")
            if cell.strip():
                ends.add(start + len(cell.rstrip()))
        assert len(ends) == 1, (where, labels[column], ends, body)


async def at_each_size(pilot: Pilot[None], narrator: TrackedNarrator, *checks: object) -> None:
    """Each check at 120x40, then with the terminal resized to 80x24."""
    app = app_of(pilot)
    for width, height in SIZES:
        await pilot.resize_terminal(width, height)
        await narration_over(pilot, narrator)
        where = f"{type(app.screen).__name__} at {width}x{height}"
        for check in checks:
            check(app, where)  # type: ignore[operator]


def game_over(controller: TableController) -> Outcome:
    """Knock players out, from the last seat, until the rules end the game; the last outcome."""
    seat = controller.state.count - 1
    outcome = None
    while not controller.state.is_over:
        if seat not in controller.state.knocked_out:
            outcome = accepted(controller.knock_out(seat))
        seat -= 1
    assert outcome is not None
    return outcome


def results(controller: TableController, possessed: tuple[int, ...]) -> ResultsDeclared:
    """`possessed` growled; the first three other seats hold four Waffles each (the 12
    the game has): two-digit totals over the series."""
    others = [seat for seat in range(controller.state.count) if seat not in possessed][:3]
    waffles = tuple(4 if seat in others else 0 for seat in range(controller.state.count))
    return ResultsDeclared(possessed, waffles)


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
async def test_every_game_screen_fits_at_both_sizes(folders: dict[str, Path], lang: str) -> None:
    """Ten longest names; the reveal, table, Meeting, finale, results and series board."""
    speaking(folders, lang)
    app, narrator = tracked_app(folders)
    async with app.run_test(size=SIZES[0]) as pilot:
        controller = controller_of(pilot)
        await show(pilot, started(controller, TEN), RevealScreen)
        await at_each_size(pilot, narrator)
        await show(pilot, accepted(controller.finish_reveal()), TableScreen)
        accepted(controller.knock_out(4))
        await show(pilot, accepted(controller.pass_turn()), TableScreen)
        await at_each_size(pilot, narrator, check_captions, check_tiles)
        await show(pilot, accepted(controller.draw_meeting()), MeetingScreen)
        for seat in (1, 2):  # three sit out; the knocked-out seat is out of the Meeting
            accepted(controller.toggle_sit_out(seat))
        await show(pilot, accepted(controller.toggle_sit_out(3)), MeetingScreen)
        await at_each_size(pilot, narrator, check_captions, check_tiles)
        for seat in range(5, 9):  # then everyone but the first: they keep their cards
            accepted(controller.toggle_sit_out(seat))
        await show(pilot, accepted(controller.toggle_sit_out(9)), MeetingScreen)
        await at_each_size(pilot, narrator, check_captions, check_tiles)
        await show(pilot, accepted(controller.toggle_sit_out(3)), MeetingScreen)  # two
        await at_each_size(pilot, narrator, check_captions, check_tiles)
        accepted(controller.resolve_meeting())
        await show(pilot, game_over(controller), FinaleScreen)
        await at_each_size(pilot, narrator)
        await show(pilot, accepted(controller.enter_results()), ResultScreen)
        await at_each_size(pilot, narrator, check_result_rows)
        declared = accepted(controller.declare(results(controller, (1, 2, 3))))
        await show(pilot, declared, SeriesScreen)
        # Two more games of six: seats come and go, so players miss a game or two.
        for roster in (TEN[:5] + TEN[6:7], TEN[1:5] + TEN[6:8]):
            accepted(controller.next_game())
            accepted(controller.start_game(roster, 0))
            accepted(controller.finish_reveal())
            game_over(controller)
            accepted(controller.enter_results())
            declared = accepted(controller.declare(results(controller, (0, 1))))
            await show(pilot, declared, SeriesScreen)
        assert rules.series_complete(len(controller.series_games()))
        await at_each_size(pilot, narrator, check_board)
