"""Keeps every test off the developer's real data, config and cache folders; marks app tests."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator import i18n
from moderator.narration.speech.voice_catalogue import BASE_URL_ENV
from tests.voice_repository import FRENCH, VoiceRepository, made_voice, serving


@pytest.fixture(autouse=True)
def _isolated_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    base: Path = tmp_path_factory.mktemp("mindflayer-home")
    for name, env in (
        ("data", "MINDFLAYER_DATA_DIR"),
        ("config", "MINDFLAYER_CONFIG_DIR"),
        ("cache", "MINDFLAYER_CACHE_DIR"),
    ):
        folder = base / name
        folder.mkdir()
        monkeypatch.setenv(env, str(folder))
    # English screens in every test, whatever the developer's locale (moderator.i18n.system).
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Every test starts with English screens, whatever the one before it chose.

    The screen's language is the process's (`moderator.i18n.use_language`), and the
    command line sets it (`--lang fr`): a test that ran `main([... "--lang", "fr"])`
    left French to whichever test its worker ran next (seen in a loaded run: a
    remedy sentence checked in English came out in French).
    """
    yield
    i18n.use_language(i18n.SOURCE_LANGUAGE)


#: Fixtures that start the real app, a terminal or a phone's session.
APP_FIXTURES = frozenset(
    {
        "app_factory",
        "board_app",
        "snap_compare",
        "shot_compare",
        "terminal",
        "tmux_binary",
        "mindflayer",
        "phone",
    }
)
#: Where an async test drives the app with Textual's Pilot.
PILOT_FOLDERS = ("tui", "board")


def starts_the_app(item: pytest.Item) -> bool:
    """Whether `item` runs the real app (Pilot, a snapshot, tmux, the board's server).

    Those take a second or more each; `make check` leaves them to `make test`.
    A test uses an app fixture, or is a coroutine in tests/tui or tests/board.
    """
    if APP_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    folder = Path(str(item.path)).parent.name
    function = getattr(item, "function", None)
    return folder in PILOT_FOLDERS and inspect.iscoroutinefunction(function)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test that starts the app `app`; then the slow tests first, the app's next.

    Longest first, in their collection order within each kind: with pytest-xdist,
    the workers start on the long ones and the many short ones fill in behind them,
    instead of one worker finishing a long fuzz seed while the others wait. The
    app's tests (a second or more each, a key burst much more) came last, as
    tests/tui sorts after the rest: the run ended on one worker still in them.
    """
    for item in items:
        if starts_the_app(item):
            item.add_marker(pytest.mark.app)
    items.sort(
        key=lambda item: (
            item.get_closest_marker("slow") is None,
            item.get_closest_marker("app") is None,
        )
    )


@pytest.fixture
def repository(monkeypatch: pytest.MonkeyPatch) -> Iterator[VoiceRepository]:
    """The voice repository on 127.0.0.1 with a French voice made from the English model,
    as the default URL (the download tests and the Settings dialog's install)."""
    store = VoiceRepository()
    store.add(made_voice(FRENCH))
    server = serving(store)
    running = next(server)
    monkeypatch.setenv(BASE_URL_ENV, running.url)
    yield running
    server.close()
