"""One snapshot of the table's public state: what every phase screen draws from.

The app hands each answered action's snapshot to the screen of its phase
(`PhaseScreen.snapshot`, a Textual reactive); the screen turns it into the
values its widgets show (its own reactives, which the widgets are
`data_bind`-ed to), so no screen reaches into its widgets to redraw them, and
a widget repaints only when the value bound to it changed. The snapshot itself
knows nothing of Textual: the controller builds it (`TableController.snapshot`).
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.domain import GameState
from moderator.table.outcomes import PlayExport
from moderator.table.phases import Phase


@dataclass(frozen=True)
class TableSnapshot:
    """The table at one moment, as the public can see it.

    Attributes:
        phase: the phase the table is in.
        state: the open game's public state (None: no game open).
        game_number: the open game's number in its series (1..3), if one is open.
        export: on the series board, the BG Stats export of its last game, once asked for.
    """

    phase: Phase
    state: GameState | None = None
    game_number: int | None = None
    export: PlayExport | None = None
