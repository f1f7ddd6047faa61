"""The controller has the reveal and the finale prepared before their keys (issue 17 item 6)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from moderator.domain import GameStarted, MeetingStarted, PlayerKnockedOut, replay
from moderator.narration import SilentSpeaker, VoiceSettings, make_narrator
from moderator.storage import Store
from moderator.table.config import TableSettings
from moderator.table.controller import TableController
from moderator.table.cues import FinaleCue, RevealCue
from moderator.table.voice_ahead import cues_ahead

SEVEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


class PreparingNarrator:
    """The real narrator (captions only), recording what it was asked to prepare."""

    def __init__(self, cache: Path) -> None:
        self.real = make_narrator(
            VoiceSettings(enabled=False), None, cache, SilentSpeaker(), time_scale=0.01
        )
        self.prepared: list[tuple[str, dict[str, object]]] = []

    def prepare(self, script: str, context: Mapping[str, object]) -> None:
        self.prepared.append((script, dict(context)))
        self.real.prepare(script, context)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def play(
        self, script: str, context: Mapping[str, object], on_event: Callable[[object], None]
    ) -> None:
        self.real.play(script, context, on_event)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableController, PreparingNarrator]]:
    narrator = PreparingNarrator(tmp_path / "cache")
    store = Store.open(tmp_path / "data")
    controller = TableController(store, narrator, TableSettings(), tmp_path / "config")
    yield controller, narrator
    controller.close()


def test_the_seating_made_final_prepares_the_reveal_once(
    table: tuple[TableController, PreparingNarrator],
) -> None:
    controller, narrator = table
    assert narrator.prepared == []
    controller.new_series()  # the seating is typed: the reveal's audio is built meanwhile
    assert narrator.prepared == [("reveal", {"seconds": 5.0})]
    controller.start_game(SEVEN, 0)
    assert narrator.prepared == [("reveal", {"seconds": 5.0})]
    controller.play_reveal()
    controller.stop_voice()
    assert narrator.prepared == [("reveal", {"seconds": 5.0})]  # asked once, not per action


def test_the_third_meeting_prepares_the_finale(
    table: tuple[TableController, PreparingNarrator],
) -> None:
    controller, narrator = table
    controller.new_series()
    controller.start_game(SEVEN, 0)
    controller.finish_reveal()
    for _ in range(2):
        controller.draw_meeting()
        controller.resolve_meeting()
    assert [script for script, _ in narrator.prepared] == ["reveal"]
    controller.draw_meeting()
    assert [script for script, _ in narrator.prepared] == ["reveal", "finale"]


def test_new_reveal_settings_prepare_the_new_reveal(
    table: tuple[TableController, PreparingNarrator],
) -> None:
    controller, narrator = table
    controller.new_series()
    controller.start_game(SEVEN, 0)
    controller.change_settings(replace(controller.settings, reveal_seconds=8.0))
    assert narrator.prepared[-1] == ("reveal", {"seconds": 8.0})


def test_cues_ahead_follow_the_state() -> None:
    state = replay([GameStarted(SEVEN, 0)])
    assert cues_ahead(state, 8.0) == (RevealCue(8.0),)
    assert cues_ahead(None, 5.0) == ()
    assert cues_ahead(None, 5.0, seating=True) == (RevealCue(5.0),)
    four = replay([GameStarted(SEVEN[:4], 0), PlayerKnockedOut(0)])
    assert cues_ahead(four, 5.0) == (FinaleCue(),)  # one more knock-out ends it
    assert cues_ahead(replay([GameStarted(SEVEN[:5], 0), MeetingStarted()]), 5.0) == ()
