"""Narration cues are typed against the voice-script specs, and lists use the script's "and"."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

from controller_shortcuts import controller_of, declared, knocked_out, next_started, show, started
from driving import FOUR

from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.scripts.library import FROM_LINE
from moderator.narration.scripts.validation import SPECS
from moderator.table.cues import CUE_TYPES, ScriptName, SeriesWinnerCue, cue_context
from moderator.tui.screens.series import SeriesScreen
from tests.tui.app_driver import narration_over, tracked_app


def test_every_script_has_one_cue_and_every_cue_a_script() -> None:
    assert set(typing.get_args(ScriptName)) == set(SPECS)
    assert sorted(cue.script for cue in CUE_TYPES) == sorted(SPECS)


def test_a_cue_carries_only_placeholders_its_script_knows() -> None:
    for cue in CUE_TYPES:
        # `from_line` is where the run starts (the library's FROM_LINE), not a placeholder.
        fields = {field.name for field in dataclasses.fields(cue)} - {FROM_LINE}
        assert fields <= SPECS[cue.script].placeholders, (cue.__name__, fields)


def test_series_winners_are_joined_by_the_scripts_own_word_for_and(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts" / "en"
    scripts.mkdir(parents=True)
    (scripts / "series_winner.toml").write_text(
        'and = "und"\n[[step]]\nsay = "Congratulations to {players}!"\n', encoding="utf-8"
    )
    narrator = make_narrator(
        VoiceSettings(enabled=False), tmp_path / "scripts", tmp_path / "cache", time_scale=0.01
    )
    try:
        cue = SeriesWinnerCue(("Ann", "Bob", "Dee"))
        assert narrator.lines(cue.script, cue_context(cue)) == [
            "Congratulations to Ann, Bob und Dee!"
        ]
    finally:
        narrator.close()


async def test_a_tied_series_announces_both_winners_with_and(folders: dict[str, Path]) -> None:
    app, narrator = tracked_app(folders)
    async with app.run_test(size=(100, 30)) as pilot:
        controller = controller_of(pilot)
        started(controller, FOUR)
        # Cy and Dee knocked out end each game; who growled and the Waffles by seat.
        knocked_out(controller, 2, 3)
        declared(controller, [0])  # Bob, Cy, Dee +1
        for possessed, waffles in ((1, {}), (2, {0: 1})):
            next_started(controller)
            knocked_out(controller, 2, 3)
            outcome = declared(controller, [possessed], waffles)
        await show(pilot, outcome, SeriesScreen)
        await narration_over(pilot, narrator)
    assert narrator.played[-1] == "series_winner"
    winners = narrator.contexts[-1]
    assert winners == {"players": ("Ann", "Dee")}
    assert narrator.lines("series_winner", winners)[-1] == "Congratulations to Ann and Dee!"
