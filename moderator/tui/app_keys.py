"""The app's own keys, and every key of a screen as a command of the palette.

Apart from `moderator.tui.app` (wiring only) so that module stays small. The
descriptions and tooltips are msgids (`N_`): the key bar, the help and the
palette translate them where they draw them, in the language of that moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from moderator.i18n import N_, _

#: Mute, help, settings and the table read aloud: on every screen.
APP_BINDINGS = (
    Binding(
        "v", "toggle_mute", N_("Mute"), id="mute", tooltip=N_("Silence the voice or bring it back")
    ),
    Binding(
        "f1,question_mark", "help", N_("Help"), id="help", tooltip=N_("Keys and rulebook panels")
    ),
    Binding(
        "f2", "settings", N_("Settings"), id="settings", tooltip=N_("Voice and reveal settings")
    ),
    # A function key, so it works on the screens with a name or number field too.
    Binding(
        "f3",
        "read_table",
        N_("Where are we?"),
        id="read-table",
        tooltip=N_(
            "Say and show where the game stands: whose turn, Meetings, knock-outs, the score"
        ),
        show=False,  # the footers at 80 columns are full: the help lists it
    ),
)


def key_commands(app: App[Any], screen: Screen[object]) -> Iterator[SystemCommand]:
    """Each key of `screen` (one per action) as a palette command, in the screen's language."""
    seen: set[str] = set()
    for _key, binding in screen.active_bindings.items():
        bound = binding.binding
        if not bound.description or bound.action in seen:
            continue
        seen.add(bound.action)
        node = binding.node

        async def run(action: str = bound.action, target: object = node) -> None:
            await app.run_action(action, target)  # type: ignore[arg-type]

        shown = _(bound.description)
        yield SystemCommand(shown, _(bound.tooltip) if bound.tooltip else shown, run)
