"""The History dialog's pictures: the leaderboard and the trends, sorted, per group.

Snapshots at 80x24 and 120x40 in English, French, German and Spanish, on the
hand-counted history (`tests.storage.hand_history`); the local time zone is
pinned to UTC so the listed dates do not depend on the machine. Regenerate after
a deliberate change with `pytest tests/tui/test_history_pictures.py --snapshot-update`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from driving import key, press, shown
from textual.pilot import Pilot

from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.history import HistoryScreen
from moderator.tui.screens.start import StartScreen
from moderator.tui.widgets.leaderboard_chart import LeaderboardChart
from tests.storage.hand_history import build
from tests.tui.app_driver import TrackedNarrator, history_read
from tests.tui.sized_shots import SizedShots, shots
from tests.tui.test_i18n_screens import speaking

LANGUAGES = ["en", "fr", "de", "es"]
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
SHOTS = SizedShots([(120, 40), (80, 24)])


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC for these tests (the dialog lists local times)."""
    monkeypatch.setenv("TZ", "UTC")
    if hasattr(time, "tzset"):
        time.tzset()
    yield
    monkeypatch.undo()
    if hasattr(time, "tzset"):
        time.tzset()


async def opened(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
    """h on the start screen, the history read."""
    await shown(pilot, StartScreen)
    await press(pilot, "h")
    await shown(pilot, HistoryScreen)
    await history_read(pilot)


@pytest.mark.parametrize(
    ("lang", "size"),
    [
        pytest.param(
            lang,
            size,
            id=f"{lang}-{size_id}",
            marks=pytest.mark.xdist_group(f"history-pictures-{lang}"),
        )
        for lang in LANGUAGES
        for size_id, size in SIZES.items()
    ],
)
def test_the_history_in_pictures(
    shot_compare: Callable[[str], bool],
    folders: dict[str, Path],
    lang: str,
    size: tuple[int, int],
) -> None:
    def take() -> dict[tuple[int, int], str]:
        build(folders["data"])
        speaking(folders, lang)
        return shots(folders, opened, SHOTS.sizes)

    assert shot_compare(SHOTS.of(lang, take)[size])


def chart_lines(app: MindFlayerApp) -> list[str]:
    chart = app.screen.query_one("#history-leaderboard", LeaderboardChart)
    return str(chart.render()).splitlines()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_o_sorts_the_leaderboard_and_g_switches_the_group(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], size: tuple[int, int]
) -> None:
    build(folders["data"])
    app = app_factory()
    async with app.run_test(size=size) as pilot:
        await key(pilot, "h")
        await history_read(pilot)
        await key(pilot, "g")  # everyone (the table that played last is the default)
        lines = chart_lines(app)
        assert lines[0] == "Everyone: 5 series, 15 games"
        assert [line.split()[0] for line in lines[2:]] == [
            *("Ann", "Bob", "Cyd", "Dee", "Fay", "Eve", "Gus", "Hal", "Ivy")
        ]
        assert all(len(line) <= app.screen.query_one(LeaderboardChart).size.width for line in lines)
        await key(pilot, "o")  # series won
        await key(pilot, "o")  # win rate as Sane: Bob won 9 of 9, Ann 7 of 7
        lines = chart_lines(app)
        assert "▼Sane" in lines[1]
        assert [line.split()[0] for line in lines[2:5]] == ["Bob", "Ann", "Fay"]
        await key(pilot, "o", "o")  # back to points
        assert "▼Points" in chart_lines(app)[1]


@pytest.mark.parametrize("last", ["table", "others"])
async def test_the_table_that_played_last_is_the_default_group(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], last: str
) -> None:
    build(folders["data"], others_last=last == "others")
    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        await key(pilot, "h")
        await history_read(pilot)
        lines = chart_lines(app)
        if last == "others":
            assert lines[0] == "This table (Eve, Fay, Gus, Hal, Ivy): 2 series, 6 games"
            assert "Ann" not in "\n".join(lines)
            return
        assert lines[0] == "This table (Ann, Bob, Cyd, Dee): 4 series, 12 games"
        assert "Fay" not in "\n".join(lines)
        await key(pilot, "g")
        assert chart_lines(app)[0] == "Everyone: 5 series, 15 games"
        await key(pilot, "g")
        assert chart_lines(app)[0].startswith("This table")
