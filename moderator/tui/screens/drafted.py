"""The setup and result screens' drafts: kept as they change, offered back on Resume.

The screens call two functions each (kept small there, other hands edit them):
`offer_roster`/`keep_roster` and `offer_results`/`keep_results`. The drafts
themselves (the file, the writer thread, what counts as a draft) are
`moderator.table.drafts`. A draft is keyed by what it belongs to: the roster by
the series and the number of its next game, the results by the game's id, so a
draft is never offered to another series or game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from moderator.domain import rules
from moderator.domain.errors import IllegalAction
from moderator.domain.names import clean_name, clean_said_as
from moderator.i18n import _
from moderator.table.drafts import results_key, roster_key
from moderator.table.ports import ACTION_ERRORS

if TYPE_CHECKING:
    from moderator.table.controller import TableController


class SaysToTheTable(Protocol):
    """What a drafted screen is to the drafts: its controller and its line for the table.

    Protocols, not the screens' classes: a screen module imports no other screen.
    """

    @property
    def controller(self) -> TableController: ...

    def say(self, message: str) -> None: ...


class SetupScreen(SaysToTheTable, Protocol):
    """The setup screen's roster, as the roster's draft reads and restores it."""

    draft_key: str | None
    players: list[str]
    first_player: int
    said_as: dict[str, str]


#: The result screen needs nothing more than its controller and its line.
ResultScreen = SaysToTheTable


def _roster_key(controller: TableController) -> str | None:
    """The series and the number of the game being seated; None before a series begins."""
    series = controller.series_id
    if series is None:
        return None
    try:
        played = len(controller.series_games())
    except ACTION_ERRORS:
        return None
    return roster_key(series, played + 1)


def offer_roster(screen: SetupScreen) -> None:
    """On entering setup: the roster typed before the app stopped, if there is one.

    Each name is checked again as when typed (a hand-edited file is data).
    """
    screen.draft_key = _roster_key(screen.controller)
    if screen.draft_key is None:
        return
    draft = screen.controller.drafts.roster(screen.draft_key)
    if draft is None or not draft.players or list(draft.players) == screen.players:
        return
    try:
        players = [clean_name(name) for name in draft.players[: rules.MAX_PLAYERS]]
        said = {name: clean_said_as(words) for name, words in draft.said_as if name in players}
    except IllegalAction:
        return
    screen.players = players
    screen.first_player = draft.first_player if draft.first_player < len(players) else 0
    screen.said_as = {name: words for name, words in said.items() if words}
    screen.say(_("The roster typed before the moderator stopped is back."))


def keep_roster(screen: SetupScreen) -> None:
    """After each change of the roster: keep it as the draft of this series' next game."""
    key = getattr(screen, "draft_key", None)
    if key is not None:
        screen.controller.drafts.keep_roster(
            key, screen.players, screen.first_player, screen.said_as
        )


def _results_key(controller: TableController) -> str | None:
    """The game whose results are being entered."""
    game = controller.game
    return None if game is None else results_key(game.game_id)


def offer_results(screen: ResultScreen, count: int) -> tuple[set[int], tuple[str, ...]] | None:
    """The ticks and Waffles typed before the app stopped for this game, if any."""
    key = _results_key(screen.controller)
    draft = None if key is None else screen.controller.drafts.results(key)
    if draft is None or len(draft.waffles) != count:
        return None
    screen.say(_("The ticks and Waffles typed before the moderator stopped are back."))
    return {seat for seat in draft.possessed if seat < count}, draft.waffles


def keep_results(
    screen: ResultScreen, possessed: tuple[int, ...], waffles: tuple[str, ...]
) -> None:
    """After each tick or Waffle: keep the boxes as the draft of this game's results."""
    key = _results_key(screen.controller)
    if key is not None:
        screen.controller.drafts.keep_results(key, possessed, waffles)
