"""`make check` leaves out the tests that start the app: the `app` marker is set right."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import starts_the_app

HERE = Path(__file__).resolve().parent


async def _pilot_test() -> None:
    """An async test, as a Pilot test is."""


def _plain_test() -> None:
    """A test that calls the code directly."""


@pytest.mark.parametrize(
    ("folder", "fixtures", "function", "app"),
    [
        ("tui", (), _pilot_test, True),
        ("board", (), _pilot_test, True),
        ("tui", (), _plain_test, False),
        ("tui", ("app_factory",), _plain_test, True),
        ("storage", ("snap_compare",), _plain_test, True),
        ("tui", ("shot_compare",), _plain_test, True),
        ("storage", ("tmp_path",), _plain_test, False),
        ("storage", (), _pilot_test, False),
    ],
)
def test_a_test_starts_the_app_by_its_fixtures_or_as_a_coroutine_of_the_tui(
    folder: str, fixtures: tuple[str, ...], function: object, app: bool
) -> None:
    item = SimpleNamespace(
        path=HERE / folder / "test_x.py", fixturenames=list(fixtures), function=function
    )
    assert starts_the_app(item) is app


def test_this_very_test_is_left_to_make_check(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("app") is None
