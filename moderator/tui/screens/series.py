"""The series board: points per player and game, totals, the leader, the winner.

Totals, ranks and the winner(s) are the domain's (`standings`,
`series_winners`); the points come from the store's finished games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Button, DataTable, Static, TextArea

from moderator.domain import Team, rules
from moderator.i18n import N_, NP_, _, ngettext
from moderator.i18n.numbers import number as written
from moderator.i18n.refusals import refusal
from moderator.table.outcomes import PlayExport
from moderator.table.phases import Phase
from moderator.table.ports import ACTION_ERRORS
from moderator.table.snapshot import TableSnapshot
from moderator.tui.messages import ExportPlay, GoHome, NewSeries, NextGame
from moderator.tui.screens.phase_screen import PlayScreen
from moderator.tui.widgets.bigtext import BigText
from moderator.tui.widgets.game_header import GameHeader
from moderator.tui.widgets.leaderboard_chart import LeaderboardChart, SeriesBoardLeaderboard


def board_names(games: Sequence[Mapping[str, int]]) -> list[str]:
    """Every player who played a game of the series, in order of first appearance."""
    names: list[str] = []
    for game in games:
        for name in game:
            if name not in names:
                names.append(name)
    return names


#: The last game's winners, drawn big (msgids).
_TEAM_WINS = {Team.SANE: N_("The sane win"), Team.POSSESSED: N_("The possessed win")}


def series_title(played: int, last_winner: Team | None) -> str:
    """ "Series: 2 of 3 games played (game 2: the Sane won)", in the table's language."""
    # The same English for any count; a language may write one game in the singular.
    title = ngettext(
        "Series: {played} of {games} games played",
        "Series: {played} of {games} games played",
        played,
    ).format(played=played, games=rules.GAMES_PER_SERIES)
    if last_winner is None:
        return title
    won = (
        _("game {number}: the Sane won")
        if last_winner is Team.SANE
        else _("game {number}: the Possessed won")
    )
    return f"{title} ({won.format(number=played)})"


class SeriesScreen(SeriesBoardLeaderboard, PlayScreen):
    """After each game: the board, then the next game or a new series.

    The series winners' cue is the controller's, spoken when the table arrives
    here after the third game.
    """

    PHASE = Phase.SERIES
    #: The footer's keys by importance, and their short words for a narrow line.
    FOOTER_KEEP = (
        "next-game",
        "series-new-series",
        "series-menu",
        "undo",
        "redo",
        "mute",
        "settings",
        "series-bgstats",
    )
    FOOTER_SHORT: ClassVar[dict[str, str]] = {
        "next-game": N_("Next"),
        "series-menu": N_("Start"),
        "series-new-series": NP_("footer", "New series"),
    }
    FOOTER_EXTRA = ("series-bgstats",)
    #: The series winners, drawn big (bound to `#series-winner`).
    winner_names: reactive[str] = reactive("")
    #: Which team won the last game, drawn big (bound to `#series-team`).
    team_line: reactive[str] = reactive("")
    #: Whether the board shows a complete series (then there is no next game to offer).
    _complete = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "n", "next_game", N_("Next game"), id="next-game", tooltip=N_("Same series, next game")
        ),
        Binding("s", "new_series", N_("New series"), id="series-new-series"),
        Binding("escape,b", "menu", N_("Start screen"), id="series-menu"),
        Binding(
            "e",
            "export_play",
            N_("BG Stats"),
            id="series-bgstats",
            tooltip=N_("The game just played for BG Stats: a link and a play file"),
        ),
        *PlayScreen.UNDO_BINDINGS,
    ]

    def compose(self) -> ComposeResult:
        """Title, board, winner, choices."""
        yield GameHeader()
        yield Static("", id="series-title", markup=False)
        yield BigText("", id="series-team").data_bind(text=SeriesScreen.team_line)
        yield DataTable(id="series-board", cursor_type="row", zebra_stripes=True)
        yield BigText("", id="series-winner").data_bind(text=SeriesScreen.winner_names)
        yield Static("", id="series-leader", markup=False)
        yield LeaderboardChart(id="series-leaderboard")
        # Selectable and copyable (read only): the link is long and meant for another app.
        yield TextArea("", id="series-bgstats", read_only=True, soft_wrap=True)
        with Horizontal(classes="button-row"):
            yield Button("", id="series-next", variant="success", compact=True)
            yield Button("", id="series-new", compact=True)
            yield Button("", id="series-start", compact=True)
        yield self.notice_strip()
        yield self.key_bar()

    def show(self, snapshot: TableSnapshot) -> None:
        """Redraw the board from the store (the snapshot says when: after each action)."""
        try:
            games = self.controller.series_games()
        except ACTION_ERRORS as error:
            self.say(refusal(error), severity="error")
            games = []
        points = [game.points for game in games]
        table = self.query_one("#series-board", DataTable)
        table.clear(columns=True)
        table.add_column(_("Player"), key="player")
        for game in range(1, rules.GAMES_PER_SERIES + 1):
            table.add_column(_("Game {number}").format(number=game), key=f"game-{game}")
        table.add_column(_("Total"), key="total")
        ranks = {s.name: s for s in rules.standings(points)}
        for name in board_names(points):
            row: list[Text] = [Text(name)]
            for index in range(rules.GAMES_PER_SERIES):
                score = points[index].get(name) if index < len(points) else None
                row.append(Text("" if score is None else written(score), justify="right"))
            standing = ranks.get(name)
            total = Text(written(standing.total if standing else 0), justify="right")
            if standing is not None and standing.rank == 1:
                total.append(" ★", style="bold")
            row.append(total)
            table.add_row(*row)
        played = len(points)
        complete = rules.series_complete(played)
        self.query_one("#series-title", Static).update(
            series_title(played, games[-1].winner if games else None)
        )
        winners = rules.series_winners(points)
        self.winner_names = " & ".join(winners)
        # Empty, the big text still takes its rows: 9 players at 80x24 would scroll.
        self.query_one("#series-winner", BigText).display = bool(winners)
        leaders = [s.name for s in rules.standings(points) if s.rank == 1]
        leader = Text()
        if winners:
            leader.append(_("Series won by: "), style="bold")
            leader.append(_(", ").join(winners))
        elif leaders:
            leader.append(_("Leading: "))
            leader.append(_(", ").join(leaders))
        self.query_one("#series-leader", Static).update(leader)
        self.read_leaderboard(frozenset(board_names(points)), played)
        self.query_one("#series-next", Button).display = not complete
        if complete != self._complete:
            self._complete = complete
            self.refresh_bindings()  # the footer offers Next game only while there is one
        self.query_one("#series-team", BigText).display = bool(games) and not complete
        self.team_line = _(_TEAM_WINS[games[-1].winner]) if games else ""
        self._label_buttons()
        self._show_export(snapshot.export)

    def _label_buttons(self) -> None:
        """The buttons' words in the table's language (their keys are no language's)."""
        self.query_one("#series-next", Button).label = _("Next game") + " (n)"
        self.query_one("#series-new", Button).label = _("New series") + " (s)"
        # The footer's key for it (b, its shortest), so the screen names one key once.
        self.query_one("#series-start", Button).label = _("Start screen") + " (b)"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Next game is a key only while the series has one left (as its button)."""
        if action == "next_game":
            return not self._complete
        return True

    def _show_export(self, export: PlayExport | None) -> None:
        """The BG Stats link of the last game, once asked for (hidden otherwise)."""
        area = self.query_one("#series-bgstats", TextArea)
        area.display = export is not None
        if export is not None and area.text != export.link:
            area.load_text(export.link)

    def action_export_play(self) -> None:
        """The game just played for BG Stats: its link here, copied, and a play file."""
        self.ask(ExportPlay())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        handlers = {
            "series-next": self.action_next_game,
            "series-new": self.action_new_series,
            "series-start": self.action_menu,
        }
        handler = handlers.get(event.button.id or "")
        if handler is not None:
            handler()

    def action_menu(self) -> None:
        """Esc: the start screen at once, as the footer and the button say.

        Not the game screens' silence-first Esc: here the winners' announcement
        may be speaking, and one press must do what "esc Start screen" promises
        (the voice stops on the way, the series stays saved).
        """
        self.ask(GoHome())

    def action_next_game(self) -> None:
        """Same series: seat the table again (same roster, changes allowed)."""
        self.ask(NextGame())

    def action_new_series(self) -> None:
        """A new series with the same roster to start from."""
        self.ask(NewSeries())
