"""The setup screen's footer: its keys by importance and their short words.

At 120 columns, with the roster focused, the footer holds every key with Start
game and Read aloud whole, How to play as "Rules" and Remove as "Del"; at 80
columns the least important keys (How to play among them: Help lists it) give
way first (`KeyBar.fitted`, tests/tui/test_footers.py).
"""

from __future__ import annotations

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
SETUP_FOOTER_SHORT: dict[str, str] = {
    "start-game": "Start",
    "read-aloud": "Read",
    "how-to-play": "Rules",
    "first-player": "First",
    "edit-name": "Fix",
    "remove": "Del",
    "move-up": "Up",
    "move-down": "Down",
}
