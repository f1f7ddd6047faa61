"""The phone board's page in a real browser, for a phone's screen reader (issue 35).

Headless Chromium follows the running app. axe-core (pinned, from the npm
registry: `make axe`) checks the page as a table sees it at each stage
(the turns, a Meeting, a knock-out, the series board) in both colour schemes:
contrast, labels, roles, the document's language. The live region is read as
a screen reader would be told: every public change (whose turn, Meetings,
knock-outs, the result) is a sentence in it, in the table's language (the page's
words come from the laptop's catalogues, `moderator.board.words`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from driving import key, until

from moderator.tui.app import MindFlayerApp
from moderator.tui.screens.series import SeriesScreen
from tests.board.chromium import Page, chromium_page
from tests.board.test_board_app import start_board
from tests.tui.app_driver import declare, knock_out

#: Where `make axe` puts axe-core (MINDFLAYER_AXE names another axe.min.js).
AXE = Path(__file__).resolve().parents[2] / ".venv" / "axe" / "node_modules" / "axe-core"
#: The rules checked: WCAG 2.1 A and AA (contrast, names, roles, language) and best practice.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
#: Every sentence the live region is given, kept by the page (a screen reader hears each).
LISTEN = """(() => {
  window.heard = [];
  const live = document.getElementById("live");
  new MutationObserver(() => { if (live.textContent) window.heard.push(live.textContent); })
    .observe(live, {subtree: true, childList: true, characterData: true});
})()"""


def axe_source() -> str:
    """axe.min.js: skips where it is missing, fails where CI requires it."""
    path = Path(os.environ.get("MINDFLAYER_AXE") or AXE / "axe.min.js")
    if not path.is_file():
        if os.environ.get("MINDFLAYER_REQUIRE_AXE") == "1":
            pytest.fail(f"axe-core is required here: {path} is missing (make axe)")
        pytest.skip("axe-core is not installed (make axe)")
    return path.read_text(encoding="utf-8")


async def violations(page: Page) -> list[str]:
    """axe-core's violations on the page now, one line each (rule: elements)."""
    run = f"axe.run(document, {{runOnly: {{type: 'tag', values: {json.dumps(TAGS)}}}}})"
    found = await page.evaluate(
        f"{run}.then(r => r.violations.map(v => v.id + ': ' + "
        "v.nodes.map(n => n.target.join(' ')).join(', ')))"
    )
    assert isinstance(found, list)
    return [str(line) for line in found]


#: What the live region says over the game below, by the table's language.
HEARD = {
    "en": [
        "Turn 2: Bob",
        "Meeting 1 starts",
        "Turn 3: Cy",  # the Meeting resolved, the turn passed
        "Cy is knocked out. Turn 4: Dee",
        "Dee is knocked out. The game is over",
        "The sane win",  # the series board's own words (the laptop's catalogue)
    ],
    "fr": [
        "Tour 2 : Bob",
        "La Réunion 1 commence",
        "Tour 3 : Cy",
        "Cy est éliminé. Tour 4 : Dee",
        "Dee est éliminé. La partie est terminée",
        "Les sains gagnent",
    ],
}


async def checked(page: Page, stage: str) -> list[str]:
    """The violations at this stage, in the dark and in the light colour scheme."""
    found = []
    for scheme in ("dark", "light"):
        await page.send(
            "Emulation.setEmulatedMedia",
            features=[{"name": "prefers-color-scheme", "value": scheme}],
        )
        found += [f"{stage} ({scheme}) {line}" for line in await violations(page)]
    return found


async def shows(page: Page, expression: str) -> None:
    """Wait (bounded by the harness) until the page's `expression` is true."""
    await page.evaluate(
        f"""new Promise(resolve => {{
  const done = () => {expression};
  if (done()) return resolve(true);
  new MutationObserver((_, o) => {{ if (done()) {{ o.disconnect(); resolve(true); }} }})
    .observe(document.body, {{subtree: true, childList: true, characterData: true,
                              attributes: true}});
}})"""
    )


@pytest.mark.parametrize("lang", sorted(HEARD))
async def test_the_board_passes_axe_and_its_live_region_tells_each_public_change(
    board_app: Callable[..., MindFlayerApp], tmp_path: Path, lang: str
) -> None:
    source = axe_source()
    app = board_app(lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        server = await start_board(pilot)
        async with chromium_page(tmp_path / "profile", 390, 844) as page:
            await page.load(server.url)
            await shows(page, "document.getElementById('current').textContent === 'Ann'")
            await shows(page, f"document.documentElement.lang === '{lang}'")
            await page.evaluate(source + "\n;true")
            await page.evaluate(LISTEN)
            found = await checked(page, "turns")
            await key(pilot, "n")
            await shows(page, "window.heard.length >= 1")
            await key(pilot, "m")
            await shows(page, "!document.getElementById('meeting').hidden")
            found += await checked(page, "meeting")
            await key(pilot, "enter")
            await knock_out(pilot, 2)
            await shows(page, "window.heard.some(line => line.includes('Cy'))")
            found += await checked(page, "knock-out")
            await knock_out(pilot, 3)
            await key(pilot, "enter")
            await declare(pilot, [0])
            await until(pilot, lambda: isinstance(app.screen, SeriesScreen))
            await shows(page, "!document.getElementById('series').hidden")
            await shows(page, "window.heard.length >= 5")
            found += await checked(page, "series")
            heard = await page.evaluate("window.heard")
        await key(pilot)
    assert found == [], "\n".join(found)
    assert heard == HEARD[lang], heard
