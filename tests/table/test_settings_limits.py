"""One set of limits: what the settings accept is what the narrator clamps to.

`TableSettings` (what the Settings screen saves) and `VoiceSettings` (what the
narrator speaks with) once disagreed on the growling (1..30 s against 0.5..60 s):
a value the screen refuses must not be one the narrator would play, and the
other way round.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.narration.settings import VoiceSettings
from moderator.table.config import TableSettings, load_settings


@pytest.mark.parametrize("seconds", [0.5, 0.99, 30.5, 60.0])
def test_a_growl_the_settings_refuse_is_clamped_by_the_narrator(seconds: float) -> None:
    with pytest.raises(ValueError, match="growling"):
        TableSettings(growl_seconds=seconds).validated()
    clamped = VoiceSettings(growl_seconds=seconds).clamped().growl_seconds
    assert clamped != seconds
    assert TableSettings(growl_seconds=clamped).validated().growl_seconds == clamped


@pytest.mark.parametrize("seconds", [1.0, 2.0, 30.0])
def test_a_growl_the_settings_accept_is_spoken_as_is(seconds: float) -> None:
    assert TableSettings(growl_seconds=seconds).validated().growl_seconds == seconds
    assert VoiceSettings(growl_seconds=seconds).clamped().growl_seconds == seconds


def test_a_settings_file_at_the_edges_still_loads(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps({"growl_seconds": 30, "reveal_seconds": 60, "passing_seconds": 1}),
        encoding="utf-8",
    )
    settings, notice = load_settings(tmp_path)
    assert notice is None
    assert (settings.growl_seconds, settings.reveal_seconds, settings.passing_seconds) == (
        30.0,
        60.0,
        1.0,
    )


@pytest.mark.parametrize(
    "address", ["\x1b]0;pwned\x07", "192.168.1.20\x1b[2J", "my laptop", "999.1.1.1", "1.2.3"]
)
def test_a_board_address_that_is_not_an_address_is_refused(tmp_path: Path, address: str) -> None:
    """An escape sequence there changed the terminal's title when the link was shown."""
    (tmp_path / "settings.json").write_text(
        json.dumps({"board_address": address, "board_port": 9000}), encoding="utf-8"
    )
    settings, notice = load_settings(tmp_path)
    assert settings.board_address == "" and settings.board_port == 9000
    assert notice is not None and "board_address = " in notice and "\x1b" not in notice
    with pytest.raises(ValueError, match="address"):
        TableSettings(board_address=address).validated()


@pytest.mark.parametrize("address", ["", "192.168.1.20", "::1", "fe80::1"])
def test_a_board_address_that_is_an_address_is_kept(tmp_path: Path, address: str) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"board_address": address}), "utf-8")
    assert load_settings(tmp_path) == (TableSettings(board_address=address), None)


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("rate", 60),
        ("rate", 500),
        ("volume", 1.5),
        ("reveal_seconds", 0.5),
        ("reveal_seconds", 61.0),
        ("growl_seconds", 31.0),
        ("ambience_level", -0.1),
        ("passing_seconds", 0.5),
        ("lead_in", -1.0),
        ("lead_in", 2.5),
        ("english_engine", "festival"),
    ],
)
def test_what_the_settings_refuse_the_narrator_clamps_into_what_they_accept(
    name: str, refused: object
) -> None:
    with pytest.raises(ValueError):
        TableSettings(**{name: refused}).validated()
    clamped = getattr(VoiceSettings(**{name: refused}).clamped(), name)
    assert clamped != refused
    accepted = TableSettings(**{name: clamped}).validated()
    assert getattr(accepted, name) == clamped
