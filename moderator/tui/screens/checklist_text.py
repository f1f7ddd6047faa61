"""The setup checklist in the setup screen's words.

The lines come from `domain.setup_checklist`, the one value the setup voice
script speaks too (its placeholders), so the screen and the voice cannot state
different counts. Kept out of the screen module, which is about the roster.
"""

from __future__ import annotations

from moderator.domain import IllegalAction, rules
from moderator.domain.setup_checklist import Check, SetupChecklist, setup_checklist


def checklist(count: int) -> str:
    """The rules' setup checklist for `count` players, as lines to read at the table.

    Each line words one `Check` of `setup_checklist`, the value the setup voice
    script speaks too, so the screen and the voice state the same counts.
    """
    try:
        setup = setup_checklist(count)
    except IllegalAction as error:
        return f"{error}\nAdd names until there are {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS}."
    return "\n".join(_check_line(setup, check) for check in setup.checks)


def _check_line(setup: SetupChecklist, check: Check) -> str:
    """One line of the checklist in the screen's words."""
    if check is Check.PLAYERS:
        return f"{setup.players} players."
    if check is Check.CHARACTER_TILES:
        return "• Each player takes a Character tile, In Play side up."
    if check is Check.ADVENTURE_CARDS:
        back = " and ".join(setup.back_in_box)
        if not back:
            return "• Play with all the Adventure cards."
        symbols = "symbols" if len(setup.back_in_box) > 1 else "symbol"
        return f"• Put the Adventure cards with the {back} player {symbols} back in the box."
    if check is Check.ROLE_CARDS:
        return (
            f"• Deal secret role cards: {setup.mind_flayer} Mind Flayer and "
            f"{setup.waffle} Waffle, one face down to each player."
        )
    if check is Check.REVEAL:
        if setup.reveal:
            return "• Then the eyes-closed reveal: the Possessed find each other."
        return "• No eyes-closed reveal at this player count."
    return "• The youngest player goes first."
