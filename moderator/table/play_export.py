"""The BG Stats export of one game: its createPlay link, and a play file beside the data.

The file (`bgstats-game-<id>.json`, the `history --bgstats` format with this one
play) goes into the data folder through `safe_output`, so an odd file already
there is never replaced; if it cannot be written the link is still offered and
the notice says why.
"""

from __future__ import annotations

from pathlib import Path

from moderator.i18n import _
from moderator.i18n.refusals import refusal
from moderator.safe_output import OutputError, write_text
from moderator.storage import GameScore
from moderator.storage.bgstats import Plays, create_play_link
from moderator.storage.history_rows import game_of_score
from moderator.table.outcomes import PlayExport


def export_game(game: GameScore, data_dir: Path | None) -> tuple[PlayExport, str]:
    """The export of `game` and the notice for the table (`data_dir` None: the link only)."""
    plays = Plays()
    text = plays.text([game_of_score(game, kind=0)])  # the `history --bgstats` writer
    link = create_play_link(plays.last)
    name = f"bgstats-game-{game.game_id}.json"
    notice = _("Game {number} for BG Stats: the link is on the board.")
    written = ""
    if data_dir is not None:
        try:
            write_text(data_dir / name, text)
        except (OutputError, OSError) as error:
            notice = _(
                "Game {number} for BG Stats: the link is on the board; "
                "the play file was not written: {error}."
            )
            return PlayExport(game.game_id, link), notice.format(
                number=game.number, error=refusal(error)
            )
        written = name
        notice = _(
            "Game {number} for BG Stats: the link is on the board; "
            "the play is also in {file} in the data folder."
        )
    return PlayExport(game.game_id, link, written), notice.format(number=game.number, file=name)
