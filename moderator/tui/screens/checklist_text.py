"""The setup checklist in the setup screen's words.

The lines come from `domain.setup_checklist`, the one value the setup voice
script speaks too (its placeholders), so the screen and the voice cannot state
different counts. Kept out of the screen module, which is about the roster.
"""

from __future__ import annotations

from moderator.domain import IllegalAction, rules
from moderator.domain.setup_checklist import Check, SetupChecklist, setup_checklist
from moderator.i18n import _, ngettext
from moderator.i18n.refusals import refusal

#: What starts each line but the first (a mark, no word: kept out of the msgids).
BULLET = "• "


def checklist(count: int) -> str:
    """The rules' setup checklist for `count` players, as lines to read at the table.

    Each line words one `Check` of `setup_checklist`, the value the setup voice
    script speaks too, so the screen and the voice state the same counts.
    """
    if count == 0:  # a greeting, not a refusal: nobody has been seated yet
        return _("Type each player's name, clockwise, and press Enter: {least} to {most}.").format(
            least=rules.MIN_PLAYERS, most=rules.MAX_PLAYERS
        )
    try:
        setup = setup_checklist(count)
    except IllegalAction as error:
        more = _("Add names until there are {least} to {most}.")
        return f"{refusal(error)}\n" + more.format(least=rules.MIN_PLAYERS, most=rules.MAX_PLAYERS)
    return "\n".join(_check_line(setup, check) for check in setup.checks)


def _check_line(setup: SetupChecklist, check: Check) -> str:
    """One line of the checklist in the screen's words (each count in its plural)."""
    if check is Check.PLAYERS:
        players = setup.players
        return ngettext("{count} player.", "{count} players.", players).format(count=players)
    if check is Check.CHARACTER_TILES:
        return BULLET + _("Each player takes a Character tile, In Play side up.")
    if check is Check.ADVENTURE_CARDS:
        return BULLET + _adventure_cards(setup.back_in_box)
    if check is Check.ROLE_CARDS:
        return BULLET + _role_cards(setup.mind_flayer, setup.waffle)
    if check is Check.REVEAL:
        if setup.reveal:
            return BULLET + _("Then the eyes-closed reveal: the Possessed find each other.")
        return BULLET + _("No eyes-closed reveal at this player count.")
    return BULLET + _("The youngest player goes first.")


def _adventure_cards(back_in_box: tuple[str, ...]) -> str:
    """Which Adventure cards go back in the box, by their player symbols ("6+", "9+")."""
    if not back_in_box:
        return _("Play with all the Adventure cards.")
    put_back = ngettext(
        "Put the Adventure cards with the {symbols} player symbol back in the box.",
        "Put the Adventure cards with the {symbols} player symbols back in the box.",
        len(back_in_box),
    )
    return put_back.format(symbols=_(" and ").join(back_in_box))


def _role_cards(mind_flayer: int, waffle: int) -> str:
    """The secret role cards to deal: each count with its card's name in its plural."""
    deal = _("Deal secret role cards: {mind_flayer} and {waffle}, one face down to each player.")
    return deal.format(
        mind_flayer=ngettext("{count} Mind Flayer", "{count} Mind Flayer", mind_flayer).format(
            count=mind_flayer
        ),
        waffle=ngettext("{count} Waffle", "{count} Waffle", waffle).format(count=waffle),
    )
