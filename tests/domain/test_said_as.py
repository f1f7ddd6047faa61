"""How a name is said ("say it as", issue 17 item 4): kept in the game's `GameStarted`.

The field is optional in the log: a start without it is written exactly as
before (an older app reads it), and a log written before it existed loads.
"""

from __future__ import annotations

import pytest

from moderator.domain import GameStarted, IllegalAction, new_game
from moderator.domain.events import event_from_json
from moderator.domain.names import MAX_SAID_AS_LENGTH, clean_said_as
from moderator.domain.timeline import Timeline, entry_from_json, entry_to_json

FOUR = ("Ann", "Bảo", "Cy", "Dee")


def test_the_start_keeps_how_each_name_is_said() -> None:
    timeline = Timeline.start(FOUR, 0, ("", "Bow", "", ""))
    assert timeline.state.said_as == ("", "Bow", "", "")
    data = entry_to_json(timeline.log[0])
    assert data["said_as"] == ["", "Bow", "", ""]
    assert entry_from_json(data) == timeline.log[0]


def test_a_start_without_any_is_written_as_before_and_an_old_log_loads() -> None:
    before = {"type": "GameStarted", "players": list(FOUR), "first_player": 2}
    timeline = Timeline.start(FOUR, 2, ("", "", "", ""))
    assert entry_to_json(timeline.log[0]) == before
    event = event_from_json(before)
    assert event == GameStarted(FOUR, 2)
    assert new_game(FOUR, 2).said_as == ()


def test_a_required_field_missing_is_still_refused() -> None:
    with pytest.raises(IllegalAction, match="lacks “first_player”"):
        event_from_json({"type": "GameStarted", "players": list(FOUR)})


def test_the_start_refuses_said_as_that_does_not_fit_the_roster() -> None:
    with pytest.raises(IllegalAction, match="every seat"):
        new_game(FOUR, 0, ("Bow",))
    with pytest.raises(IllegalAction, match="trimmed"):
        new_game(FOUR, 0, ("", " Bow", "", ""))
    with pytest.raises(IllegalAction, match="control characters"):
        new_game(FOUR, 0, ("", "\x1b[31mBow", "", ""))


def test_markup_is_words_like_any_other() -> None:
    assert clean_said_as("[b]Bow[/b] [@click=app.quit]") == "[b]Bow[/b] [@click=app.quit]"


def test_spaces_are_tidied_and_nothing_means_none() -> None:
    assert clean_said_as("  Ngo   Bow\u00a0Chow ") == "Ngo Bow Chow"
    assert clean_said_as("   ") == ""


@pytest.mark.parametrize(
    ("raw", "sentence"),
    [
        ("\x1b[31mred", "control characters"),
        ("^[[31mred", "control characters"),
        ("a\tb", "control characters"),
        ("Bo\u202eb", "control characters"),
        ("zero\u200bwidth", "control characters"),
        ("\u3164\u3164", "letters or digits"),
        ("?!", "letters or digits"),
        ("x" * (MAX_SAID_AS_LENGTH + 1), f"at most {MAX_SAID_AS_LENGTH} characters"),
    ],
)
def test_hostile_said_as_is_refused_with_a_sentence(raw: str, sentence: str) -> None:
    with pytest.raises(IllegalAction, match=sentence):
        clean_said_as(raw)
