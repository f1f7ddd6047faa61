"""SVG snapshots of every screen in German and in French, at 80x24 and 120x40 (issue 18).

The scenarios are the English snapshots' own (tests/tui/test_snapshots.py and
test_snapshots_dialogs.py), run by the one snapshot helper on an app whose
settings.json says the table's language, as a table sets it. Regenerate after a
deliberate change with
`pytest tests/tui/test_snapshots_languages.py --snapshot-update` and look at the SVGs.

Each scenario runs once per language: its 80x24 and 120x40 tests share the app
run (`tests.tui.sized_shots`), which reaches the screen at 120x40 and shoots it
there and again after resizing to 80x24.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from driving import shown
from textual.pilot import Pilot

from moderator.tui.screens.start import StartScreen
from tests.tui import test_snapshots_dialogs as dialogs
from tests.tui.app_driver import Scenario, TrackedNarrator
from tests.tui.sized_shots import SizedShots, shots
from tests.tui.test_i18n_screens import speaking
from tests.tui.test_snapshots import SCENARIOS as GAME_SCENARIOS

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
LANGUAGES = ["de", "fr"]


async def start_screen(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """The first screen of a table with no game yet."""
    await shown(pilot, StartScreen)


#: Every screen a table looks at: the start, setup with its checklist, the reveal, the
#: table, a Meeting, the finale, the result, the series board, Help, Settings, History.
SCENARIOS: dict[str, Scenario] = {
    "start": start_screen,
    "setup": GAME_SCENARIOS["setup"],
    "reveal": dialogs.TestReveal.waiting,
    "table": GAME_SCENARIOS["table"],
    "meeting": GAME_SCENARIOS["meeting"],
    "finale": GAME_SCENARIOS["finale"],
    "result": GAME_SCENARIOS["result"],
    "series": GAME_SCENARIOS["series"],
    "help": dialogs.TestHelpDialog.on_the_table,
    "settings": dialogs.TestSettingsDialog.from_the_start,
    "history": dialogs.TestHistoryDialog.empty,
}


#: The shots of each (language, scenario), taken by the first of its tests on a worker:
#: at 120x40 first (a screen grown after it was drawn left its table's rows 80 wide).
SHOTS = SizedShots([(120, 40), (80, 24)])

#: Every (language, screen, size), named as before (`de-setup-80x24`); a scenario's
#: sizes in one `xdist_group`, so the worker that took its shots runs them all.
CASES = [
    pytest.param(
        lang,
        screen,
        size,
        id=f"{lang}-{screen}-{size_id}",
        marks=pytest.mark.xdist_group(f"languages-{lang}-{screen}"),
    )
    for lang in LANGUAGES
    for screen in SCENARIOS
    for size_id, size in SIZES.items()
]


@pytest.mark.parametrize(("lang", "screen", "size"), CASES)
def test_screen_snapshot_in_the_tables_language(
    shot_compare: Callable[[str], bool],
    folders: dict[str, Path],
    lang: str,
    screen: str,
    size: tuple[int, int],
) -> None:
    def take() -> dict[tuple[int, int], str]:
        speaking(folders, lang)
        return shots(folders, SCENARIOS[screen], SHOTS.sizes)

    assert shot_compare(SHOTS.of((lang, screen), take)[size])
