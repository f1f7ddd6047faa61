"""The series board offers the game just played to BG Stats.

The key shows the `createPlay` link on the board (read-only, selectable text),
copies it to the clipboard and writes the play file into the data folder; the
link and the file are read back and must describe the game that was saved.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

from driving import key
from no_message_left import toasts
from textual.widgets import TextArea

from moderator.storage.bgstats import CREATE_PLAY_URL
from moderator.tui.screens.series import SeriesScreen
from tests.tui.app_driver import ReachResults, declare


async def test_the_series_board_offers_the_game_just_played_to_bg_stats(
    at_results: ReachResults, folders: dict[str, Path]
) -> None:
    async with at_results(size=(100, 32), notifications=True) as (app, pilot, _):
        await declare(pilot, [2], {1: 2})  # Cy growled, Bob holds 2
        screen = app.screen
        assert isinstance(screen, SeriesScreen)
        area = screen.query_one("#series-bgstats", TextArea)
        assert not area.display  # nothing offered until asked
        bindings = {binding.binding.id: binding for binding in screen.active_bindings.values()}
        assert bindings["series-bgstats"].binding.show  # in the footer

        await key(pilot, "e")
        assert area.display and area.read_only
        link = area.text
        assert link.startswith(CREATE_PLAY_URL)
        assert app.clipboard == link
        play = json.loads(urllib.parse.unquote(link.removeprefix(CREATE_PLAY_URL)))
        scores = {player["name"]: player["score"] for player in play["players"]}
        assert scores == {"Ann": 1, "Bob": 3, "Cy": 0, "Dee": 1}
        roles = {player["name"]: player["role"] for player in play["players"]}
        assert roles["Cy"] == "Possessed" and roles["Bob"] == "Sane"

        (game,) = app.controller.series_games()
        written = folders["data"] / f"bgstats-game-{game.game_id}.json"
        assert json.loads(written.read_text(encoding="utf-8")) == [play]
        assert any(written.name in message for message in toasts(app))


async def test_a_play_file_that_cannot_be_written_still_offers_the_link(
    at_results: ReachResults, folders: dict[str, Path]
) -> None:
    async with at_results(size=(100, 32), notifications=True) as (app, pilot, _):
        await declare(pilot, [2])  # Cy growled
        (game,) = app.controller.series_games()
        # A folder where the file would go: safe_output refuses it, nothing is replaced.
        (folders["data"] / f"bgstats-game-{game.game_id}.json").mkdir()
        await key(pilot, "e")
        area = app.screen.query_one("#series-bgstats", TextArea)
        assert area.display and area.text.startswith(CREATE_PLAY_URL)
        assert any("not written" in message for message in toasts(app))
        assert (folders["data"] / f"bgstats-game-{game.game_id}.json").is_dir()
