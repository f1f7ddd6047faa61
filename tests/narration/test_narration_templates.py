"""Placeholders are data: no attribute/index access, substituted text never re-read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.narration.scripts.templates import TemplateError, parse_template


def test_plain_placeholders_are_substituted() -> None:
    template = parse_template("{player} is knocked out.")
    assert template.names == {"player"}
    assert template.render({"player": "Max"}) == "Max is knocked out."


@pytest.mark.parametrize(
    "text",
    [
        "{player.__class__}",
        "{player[0]}",
        "{0}",
        "{}",
        "{player!r}",
        "{player:>30}",
        "{player",
        "player}",
    ],
)
def test_anything_but_plain_names_is_refused(text: str) -> None:
    with pytest.raises(TemplateError):
        parse_template(text)


def test_escaped_braces_stay_literal() -> None:
    assert parse_template("{{not a placeholder}}").render({}) == "{not a placeholder}"


def test_whole_seconds_are_spoken_without_decimals() -> None:
    template = parse_template("{seconds} seconds")
    assert template.render({"seconds": 5.0}) == "5 seconds"
    assert template.render({"seconds": 2.5}) == "2.5 seconds"


def test_a_missing_value_renders_as_nothing_rather_than_crashing() -> None:
    assert parse_template("Hi {player}!").render({}) == "Hi !"


@given(st.text(max_size=40))
def test_player_names_are_inserted_verbatim(name: str) -> None:
    """Names with braces, brackets, quotes or markup are data, never formatted again."""
    rendered = parse_template("<{player}>").render({"player": name})
    assert rendered == f"<{name}>"
