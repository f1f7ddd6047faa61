"""SVG snapshots of the reveal and of the dialogs, one class per feature.

As tests/tui/test_snapshots.py: the real app on fresh temp folders, fixed names,
a muted narrator whose playbacks are waited for (`settle`), notifications
cleared, cursors still. The phone board's dialog is not here: its QR code and
address name the machine it runs on. Regenerate after a deliberate change with
`pytest tests/tui/test_snapshots_dialogs.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import FOUR, press, shown
from textual.pilot import Pilot

from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.dialogs.history import HistoryScreen
from moderator.tui.dialogs.pick_player import PickPlayerScreen
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.start import StartScreen
from tests.tui.app_driver import TrackedNarrator, asked, history_read, snapshot

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
SMALL = (80, 24)
SIZES = [pytest.param(SMALL, id="80x24"), pytest.param((120, 40), id="120x40")]


class TestReveal:
    """The reveal: six players or more start on it. Once it has played the table shows
    (test_snapshots.py), and while it plays its countdown moves: it waits for Enter."""

    @staticmethod
    async def waiting(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        screen = await seated(pilot, SIX)
        assert isinstance(screen, RevealScreen)
        assert not screen.running

    @pytest.mark.parametrize("size", SIZES)
    def test_before_it_plays(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path], size: tuple[int, int]
    ) -> None:
        assert snapshot(snap_compare, folders, self.waiting, size)


class TestHelpDialog:
    """? or F1: the keys and the rulebook's reference panels."""

    @staticmethod
    async def on_the_table(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        await seated(pilot, FOUR)
        await press(pilot, "question_mark")
        await shown(pilot, HelpScreen)

    def test_over_the_table(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path]
    ) -> None:
        assert snapshot(snap_compare, folders, self.on_the_table)


class TestSettingsDialog:
    """F2: voice, language, reveal time."""

    @staticmethod
    async def from_the_start(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        await shown(pilot, StartScreen)
        await press(pilot, "f2")
        await shown(pilot, SettingsScreen)

    def test_from_the_start_screen(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path]
    ) -> None:
        assert snapshot(snap_compare, folders, self.from_the_start)


class TestHistoryDialog:
    """h on the start screen: past games and series (none yet: dates would vary)."""

    @staticmethod
    async def empty(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        await shown(pilot, StartScreen)
        await press(pilot, "h")
        await shown(pilot, HistoryScreen)
        await history_read(pilot)

    def test_with_no_games_yet(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path]
    ) -> None:
        assert snapshot(snap_compare, folders, self.empty)


class TestPickDialog:
    """The one picker: who is knocked out, and whether to set a started series aside."""

    @staticmethod
    async def knock_out(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        await seated(pilot, FOUR)
        await press(pilot, "k")
        await asked(pilot)

    @staticmethod
    async def set_aside(pilot: Pilot[None], narrator: TrackedNarrator) -> None:
        await seated(pilot, FOUR)
        await press(pilot, "escape")
        await shown(pilot, StartScreen)
        await press(pilot, "n")
        await shown(pilot, PickPlayerScreen)

    def test_who_is_knocked_out(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path]
    ) -> None:
        assert snapshot(snap_compare, folders, self.knock_out)

    def test_set_the_started_series_aside(
        self, snap_compare: Callable[..., bool], folders: dict[str, Path]
    ) -> None:
        assert snapshot(snap_compare, folders, self.set_aside)
