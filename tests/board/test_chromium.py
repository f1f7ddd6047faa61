"""The board in a real browser: headless Chromium at a phone's size follows the running app."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from pathlib import Path

from driving import key, new_game, shown, until
from no_message_left import settled
from textual.widgets import Select

from moderator.board.snapshot import BoardSnapshot
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.settings import SettingsScreen
from moderator.tui.screens.reveal import RevealScreen
from moderator.tui.screens.table import TableScreen
from tests.board.chromium import chromium_page
from tests.board.test_board_app import start_board
from tests.tui.app_driver import state_of

#: Resolves with the page's clock (ms since the epoch) once it shows `name` as whose turn
#: it is (watches the page, no polling).
SHOWS = """new Promise(resolve => {{
  const shown = () => document.getElementById("current").textContent === {name!r};
  if (shown()) return resolve(Date.now());
  new MutationObserver((_, observer) => {{
    if (shown()) {{ observer.disconnect(); resolve(Date.now()); }}
  }}).observe(document.body, {{subtree: true, childList: true, characterData: true}});
}})"""

BACKGROUND = "getComputedStyle(document.body).backgroundColor"


async def test_chromium_at_390x844_sees_the_next_turn_as_it_is_saved(
    board_app: Callable[..., MindFlayerApp], tmp_path: Path
) -> None:
    app = board_app()
    async with app.run_test(size=(100, 30)) as pilot:
        server = await start_board(pilot)
        async with chromium_page(tmp_path / "profile", 390, 844) as page:
            await page.load(server.url)
            assert await page.evaluate(SHOWS.format(name="Ann"))
            assert await page.evaluate("document.getElementById('turn').textContent") == "1"
            # From the moment the action is acknowledged (saved, then published): the
            # wall clock is the one clock the page and the test share.
            published: list[float] = []
            publish = server.publish

            def noting(snapshot: BoardSnapshot) -> None:
                published.append(time.time())
                publish(snapshot)

            server.publish = noting  # type: ignore[method-assign]
            app.simulate_key("n")
            shown_at = await page.evaluate(SHOWS.format(name="Bob")) / 1000
            seen = shown_at - published[-1]
            print(f"board: the page showed the next turn {seen * 1000:.0f} ms after it was saved")
            assert await page.evaluate("document.getElementById('turn').textContent") == "2"
            assert await page.evaluate("document.getElementById('live').textContent") == (
                "Turn 2: Bob"
            )
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390  # nothing wider than the phone
            shot = await page.send("Page.captureScreenshot", format="png")
            (tmp_path / "board.png").write_bytes(base64.b64decode(shot["data"]))
            for scheme, background in (
                ("dark", "rgb(16, 16, 20)"),
                ("light", "rgb(250, 250, 250)"),
            ):
                await page.send(
                    "Emulation.setEmulatedMedia",
                    features=[{"name": "prefers-color-scheme", "value": scheme}],
                )
                assert await page.evaluate(BACKGROUND) == background, scheme
        await key(pilot)
    # How soon is printed, not asserted (a timed assert fails on a loaded machine): the
    # issue's 500 ms is measured here and in bench/bench_board.py (printed).
    assert (tmp_path / "board.png").stat().st_size > 1000


#: Stands in for the phone's vibration motor: records each pattern the page asks for.
MOTOR = "navigator.vibrate = (pattern) => { (window.buzzed ||= []).push(pattern); return true; };"
#: Resolves with the patterns once the page has asked for `count` of them.
BUZZED = """new Promise(resolve => {{
  const check = () => (window.buzzed || []).length >= {count}
    ? resolve(window.buzzed) : requestAnimationFrame(check);
  check();
}})"""


async def test_phones_that_asked_for_it_vibrate_as_the_reveal_starts_and_ends(
    board_app: Callable[..., MindFlayerApp], tmp_path: Path
) -> None:
    app = board_app(time_scale=0.2)  # the reveal lasts about a second
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game(pilot, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
        assert isinstance(app.screen, RevealScreen)
        url = await app.board.start()  # the key is on the table screen (tested there)
        async with chromium_page(tmp_path / "profile", 390, 844) as page:
            await page.load(url, before=MOTOR)
            await page.evaluate("document.getElementById('vibrate').click()")
            assert await page.evaluate(BUZZED.format(count=1)) == [[50]]  # the button's nudge
            await key(pilot, "enter")
            patterns = await page.evaluate(BUZZED.format(count=3))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await key(pilot)
    assert patterns == [[50], [300], [150, 100, 150]]


#: Resolves once the page's element `id` reads `value` (watches the page, no polling).
READS = """new Promise(resolve => {{
  const shown = () => document.getElementById({id!r}).textContent === {value!r};
  if (shown()) return resolve(true);
  new MutationObserver((_, observer) => {{
    if (shown()) {{ observer.disconnect(); resolve(true); }}
  }}).observe(document.body, {{subtree: true, childList: true, characterData: true}});
}})"""


async def test_the_page_speaks_the_tables_language_and_follows_a_switch_at_once(
    board_app: Callable[..., MindFlayerApp], tmp_path: Path
) -> None:
    """German chosen in Settings mid-game: the page turns German with no other action."""
    app = board_app()
    async with app.run_test(size=(100, 40)) as pilot:
        server = await start_board(pilot)
        async with chromium_page(tmp_path / "profile", 390, 844) as page:
            await page.load(server.url)
            assert await page.evaluate(READS.format(id="current-label", value="Whose turn"))
            assert await page.evaluate("document.documentElement.lang") == "en"
            turn = state_of(app).turn
            await key(pilot, "f2")
            dialog = await shown(pilot, SettingsScreen)
            dialog.query_one("#settings-lang", Select).value = "de"
            await settled(pilot)
            await key(pilot, "ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert await page.evaluate(READS.format(id="current-label", value="Wer ist dran"))
            assert await page.evaluate(READS.format(id="turn-label", value="Zug"))
            assert await page.evaluate("document.documentElement.lang") == "de"
            assert await page.evaluate("document.title") == "Mind-Flayer-Tafel"
            assert state_of(app).turn == turn  # no action was needed to follow
            assert server.snapshot.lang == "de"
        await key(pilot)
