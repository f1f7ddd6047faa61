"""Where each phase's screen and each dialog is ("module:Class"), imported on first use.

A screen's module is imported the first time the table reaches its phase, not
with the app: the first frame needs only the start screen (docs/startup.md has
the measurement).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from moderator.table.phases import Phase

if TYPE_CHECKING:
    from moderator.tui.screens.phase_screen import PhaseScreen

#: The screen class of each phase.
PHASE_SCREENS: dict[Phase, str] = {
    Phase.START: "moderator.tui.screens.start:StartScreen",
    Phase.SETUP: "moderator.tui.screens.setup:SetupScreen",
    Phase.REVEAL: "moderator.tui.screens.reveal:RevealScreen",
    Phase.TABLE: "moderator.tui.screens.table:TableScreen",
    Phase.MEETING: "moderator.tui.screens.meeting:MeetingScreen",
    Phase.FINALE: "moderator.tui.screens.finale:FinaleScreen",
    Phase.RESULT: "moderator.tui.screens.result:ResultScreen",
    Phase.SERIES: "moderator.tui.screens.series:SeriesScreen",
}

#: The dialogs, loaded on first use for the same reason.
DIALOGS = {
    "help": "moderator.tui.dialogs.help:HelpScreen",
    "history": "moderator.tui.dialogs.history:HistoryScreen",
    "pick": "moderator.tui.dialogs.pick_player:PickPlayerScreen",
    "settings": "moderator.tui.dialogs.settings:SettingsScreen",
}


def load_class(where: str) -> type[Screen[Any]]:
    """The screen class at "module:Class" (its module imported now if not yet)."""
    module, _, name = where.partition(":")
    found = getattr(importlib.import_module(module), name)
    assert isinstance(found, type) and issubclass(found, Screen), where
    return found


def phase_screen_class(phase: Phase) -> type[PhaseScreen]:
    """The screen class of `phase`."""
    return cast("type[PhaseScreen]", load_class(PHASE_SCREENS[phase]))
