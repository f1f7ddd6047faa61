"""What a new series would set aside, in the words the table asks itself.

One key starts a new series, and the same letter means "next turn" or "next
game" on other screens; a series set aside is no longer offered to resume.
So when the unfinished series has started (a game played or under way) the
table is asked first, the series named by its players and its game: "Set
aside the series of Ana, Ben, Cy and Dee (game 2 of 3)?". A series where no
game has started yet loses nothing and is not asked about. Nothing here
imports Textual.
"""

from __future__ import annotations

from moderator.domain import rules
from moderator.i18n import N_, _
from moderator.table.ports import StoreLike

#: The dialog's answers (a choice index, as `PickPlayerScreen` returns it): keeping the
#: series comes first, so Enter right after the key, or Esc, keeps it.
KEEP, SET_ASIDE = 0, 1
#: Marked only: the dialog translates them where it draws them.
ANSWERS = (
    (KEEP, N_("No: keep it (Esc)")),
    (SET_ASIDE, N_("Yes: set it aside, start a new series")),
)


def joined(names: list[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def series_words(store: StoreLike) -> str | None:
    """The unfinished series as the table knows it ("the series of Ana and Ben (game 2
    of 3)"), or None when there is none or none of its games has started.

    The players are the open game's, clockwise, else the last finished game's.
    Raises the store's errors (the caller refuses the action with its sentence).
    """
    unfinished = store.unfinished()
    if unfinished is None:
        return None
    finished = store.series_games(unfinished.series_id)
    if unfinished.game is not None:
        players = list(unfinished.game.state.players)
        number = unfinished.game.number
    elif finished:
        players = list(finished[-1].players)
        number = len(finished) + 1
    else:
        return None
    return _("the series of {players} (game {number} of {games})").format(
        players=joined(players), number=number, games=rules.GAMES_PER_SERIES
    )


def set_aside_question(store: StoreLike) -> str | None:
    """The question to ask before a new series sets the unfinished one aside (None: ask none)."""
    words = series_words(store)
    if words is None:
        return None
    return _(
        "Set aside {words} and start a new series? A series set aside can no longer be resumed."
    ).format(words=words)
