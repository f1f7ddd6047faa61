"""A game whose log cannot be rebuilt is set aside, so it never blocks the night.

A log row the app cannot read (hand-edited, written by a build with another
event, damaged on disk) used to make every question about its series fail:
no resume, no new series (starting one asks which series to set aside), and
the history stopped at it. Now such a game is:

- when it is the game in progress: set aside once, when the store opens, by
  marking it withdrawn (`games.withdrawn_at`, as for a game taken back at its
  start): its rows and log stay exactly as they are, it counts for nothing, and
  its series is offered again as waiting for that game;
- when it has results: left out of the history and exports (read only, nothing
  written), with a sentence.

Each time the table is told, in one sentence, which game it is and where it is
kept. Text from the log is quoted plainly (control characters replaced, cut short).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path

from moderator.domain.worded import N_
from moderator.storage.errors import Notice, StorageError
from moderator.storage.journal import Journal

#: Bound on the games set aside in one opening (each pass sets aside one).
MAX_SET_ASIDE = 10
#: The longest quoted reason (a log row can be long).
REASON_CHARS = 120


class UnreadableGameError(StorageError):
    """A game's log cannot be rebuilt; `str()` says which game and why."""

    def __init__(self, game_id: int, series_id: int, number: int, reason: str) -> None:
        self.game_id = game_id
        self.series_id = series_id
        self.number = number
        #: Already plain when it is a `Notice` (`unreadable_reason`): its words are translated.
        self.reason = reason if isinstance(reason, Notice) else plain(reason)
        super().__init__(
            N_(
                "Game {number} of series {series} (id {game}) cannot be rebuilt from "
                "its log ({reason})"
            ),
            number=number,
            series=series_id,
            game=game_id,
            reason=self.reason,
        )


def plain(text: str, limit: int = REASON_CHARS) -> str:
    """`text` on one line, without control characters, at most `limit` long."""
    cleaned = "".join("?" if unicodedata.category(char).startswith("C") else char for char in text)
    return cleaned if len(cleaned) <= limit else cleaned[: max(limit - 1, 0)] + "…"


def unreadable_reason(where: str, error: object) -> Notice:
    """Where in the log the replay stopped (our words, translated) and why (quoted plainly).

    The English is `plain(f"{where}: {error}")` exactly: the quoted part is cut
    so that the whole stays within `REASON_CHARS`.
    """
    return Notice(
        N_("{where}: {error}"),
        where=where,
        error=plain(str(error), REASON_CHARS - len(f"{where}: ")),
    )


def left_out_sentence(error: UnreadableGameError, path: Path) -> Notice:
    """Why a game with results is missing from the history (nothing was changed)."""
    return Notice(
        N_(
            "{error}, so it is left out of the history and exports; it is kept as it is "
            "in {path} (game id {game})."
        ),
        error=error,
        path=path,
        game=error.game_id,
    )


def set_aside_open_games(
    journal: Journal, unfinished: Callable[[], object], path: Path
) -> list[str]:
    """Set aside each unreadable game in progress that `unfinished()` trips on.

    Returns the sentences for the table. A failure to write is told, not raised:
    the app still starts (new series and history work; resume stays refused).
    """
    notices: list[str] = []
    for _ in range(MAX_SET_ASIDE):
        try:
            unfinished()
        except UnreadableGameError as error:
            try:
                with journal.write(N_("setting the unreadable game aside")) as conn:
                    conn.execute(
                        "UPDATE games SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL",
                        (journal.now_text(), error.game_id),
                    )
            except StorageError as failure:
                notices.append(
                    Notice(
                        N_("{error}, and it could not be set aside: {failure}"),
                        error=error,
                        failure=failure,
                    )
                )
                return notices
            notices.append(
                Notice(
                    N_(
                        "{error}, so it was set aside: it is kept exactly as it was in {path} "
                        "(game id {game}), it no longer counts, and its series can go on "
                        "with a new game {number}."
                    ),
                    error=error,
                    path=path,
                    game=error.game_id,
                    number=error.number,
                )
            )
        except StorageError:
            break  # not this kind of trouble: the start screen says it when it asks
        else:
            break
    return notices
