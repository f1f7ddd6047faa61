"""The setup screen's footer: its keys by importance and their short words.

At 120 columns, with the roster focused, the footer holds every key with Start
game and Read aloud whole, How to play as "Rules" and Remove as "Del"; at 80
columns the least important keys (How to play among them: Help lists it) give
way first (`KeyBar.fitted`, tests/tui/test_footers.py).
"""

from __future__ import annotations

from moderator.i18n import N_, NP_

#: Binding ids, most important first: a narrow footer leaves out the last first.
SETUP_FOOTER_KEEP = (
    "start-game",
    "read-aloud",
    "back",
    "first-player",
    "edit-name",
    "remove",
    "move-up",
    "move-down",
    "how-to-play",
    "mute",
    "settings",
)
#: Msgids, translated where the footer draws them; "Start" is the game's start
#: here, not the start screen's name (a context tells the two apart).
SETUP_FOOTER_SHORT: dict[str, str] = {
    "start-game": NP_("start the game", "Start"),
    "read-aloud": N_("Read"),
    "how-to-play": N_("Rules"),
    "first-player": N_("First"),
    "edit-name": N_("Fix"),
    "remove": N_("Del"),
    "move-up": N_("Up"),
    "move-down": N_("Down"),
}
