"""The phone remote in real browsers: two headless Chromium phones act on the running app.

Each phone is its own Chromium (its own profile, so its own phone id), on the
remote's link shown by `p` on the table screen. They press the page's own
buttons; the app under Pilot is the laptop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from driving import FOUR, key, new_game, until
from no_message_left import settled, toasts
from textual.pilot import Pilot
from textual.widgets import Static

from moderator.board.presses import Press
from moderator.board.server import BoardServer
from moderator.cli import build_parser
from moderator.history_report.command import run_history
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.board import RemoteScreen
from moderator.tui.remote import phone_remote
from moderator.tui.screens.finale import FinaleScreen
from moderator.tui.screens.series import SeriesScreen
from moderator.tui.screens.table import TableScreen
from tests.board.chromium import Page, chromium_page
from tests.tui.app_driver import declare, knock_out, state_of, text_of

#: Resolves once the page has drawn board `seq` with its remote's buttons.
DRAWN = """new Promise(resolve => {{
  const ready = () => document.body.dataset.seq === "{seq}"
    && document.querySelector('#remote-buttons button[data-action="{action}"]');
  if (ready()) return resolve(true);
  new MutationObserver((_, observer) => {{
    if (ready()) {{ observer.disconnect(); resolve(true); }}
  }}).observe(document.body, {{subtree: true, childList: true, attributes: true}});
}})"""

#: Resolves once the page has drawn board `seq`.
SHOWN = """new Promise(resolve => {{
  const ready = () => document.body.dataset.seq === "{seq}";
  if (ready()) return resolve(true);
  new MutationObserver((_, observer) => {{
    if (ready()) {{ observer.disconnect(); resolve(true); }}
  }}).observe(document.body, {{attributes: true}});
}})"""

#: Clicks the button of `action` (and `seat`) and resolves with the answer shown:
#: [refused?, sentence] (the page writes the server's sentence as text).
PRESS = """new Promise(resolve => {{
  const answer = document.getElementById("remote-answer");
  answer.textContent = "";
  new MutationObserver((_, observer) => {{
    if (answer.textContent) {{
      observer.disconnect();
      resolve([answer.classList.contains("refused"), answer.textContent]);
    }}
  }}).observe(answer, {{childList: true, characterData: true, subtree: true}});
  document.querySelector('#remote-buttons button[data-action="{action}"]{seat}').click();
}})"""

#: A press sent by hand from the page (fetch), resolving with [status, sentence].
SEND = """fetch({path!r}, {{
  method: "POST",
  headers: {{"Content-Type": "application/json", "X-Remote-Token": {token!r}}},
  body: {body!r},
}}).then(async r => [r.status, (await r.json()).sentence])"""


def press_js(action: str, seat: int | None = None) -> str:
    where = f'[data-seat="{seat}"]' if seat is not None else ""
    return PRESS.format(action=action, seat=where)


async def open_remote(pilot: Pilot[None]) -> BoardServer:
    """A new game of four; `p` on the table screen until its code and link show; closed."""
    await new_game(pilot, FOUR)
    app = pilot.app
    assert isinstance(app, MindFlayerApp) and isinstance(app.screen, TableScreen)
    await key(pilot, "p")
    assert isinstance(app.screen, RemoteScreen)
    await until(pilot, lambda: app.board.server is not None)
    server = app.board.server
    assert server is not None
    url = app.screen.query_one("#board-url", Static)
    await until(pilot, lambda: server.remote_url is not None)
    await until(pilot, lambda: str(url.render()) == server.remote_url)
    await key(pilot, "escape")
    return server


async def drawn(page: Page, app: MindFlayerApp, action: str) -> None:
    """Wait until `page` shows the board the laptop published last, with `action`'s button."""
    last = app.board.last
    assert last is not None
    assert await page.evaluate(DRAWN.format(seq=last.seq, action=action))


@pytest.fixture
async def phones(tmp_path: Path) -> AsyncIterator[tuple[Page, Page]]:
    """Two phones: two Chromiums at a phone's size, each with its own profile."""
    async with (
        chromium_page(tmp_path / "phone-1", 390, 844) as one,
        chromium_page(tmp_path / "phone-2", 390, 844) as two,
    ):
        yield one, two


def gate_presses(app: MindFlayerApp, count: int) -> list[Press]:
    """Holds the first `count` presses until all have reached the laptop, then lets them on.

    So the two phones' presses are truly at once (both made on the same board and
    both waiting at the table), however the machine schedules the two browsers.
    """
    arrived: list[Press] = []
    together = asyncio.Event()
    remote = phone_remote(app)
    act: Callable[[Press], Awaitable[str]] = remote.press

    async def gated(press: Press) -> str:
        arrived.append(press)
        if len(arrived) >= count:
            together.set()
        await together.wait()
        return await act(press)

    remote.press = gated  # type: ignore[method-assign]
    return arrived


async def test_two_phones_press_next_turn_at_once_and_one_turn_passes(
    board_app: Callable[..., MindFlayerApp], phones: tuple[Page, Page]
) -> None:
    app = board_app(board=False, remote=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        arrived = gate_presses(app, 2)
        server = await open_remote(pilot)
        url = server.remote_url
        assert url is not None and server.token not in url
        one, two = phones
        for page in phones:
            await page.load(url)
            await drawn(page, app, "next_turn")
        seen = app.board.last
        assert seen is not None and state_of(app).turn == 1
        answers = await asyncio.gather(
            one.evaluate(press_js("next_turn")), two.evaluate(press_js("next_turn"))
        )
        assert [press.seq for press in arrived] == [seen.seq, seen.seq]  # the same board
        assert state_of(app).turn == 2  # exactly one turn passed
        assert sorted(answers) == [
            [False, "From a phone: next turn."],
            [True, "Ann already passed the turn."],
        ]
        await until(pilot, lambda: "From a phone: next turn." in toasts(app))
        assert isinstance(app.screen, TableScreen)
        # Undo from a phone takes it back, as u would on the laptop.
        await drawn(one, app, "undo")
        assert await one.evaluate(press_js("undo")) == [False, "From a phone: undo."]
        await until(pilot, lambda: state_of(app).turn == 1)
        await key(pilot)


async def test_a_knock_out_picked_on_a_phone_shows_on_the_laptop_and_in_history(
    board_app: Callable[..., MindFlayerApp],
    phones: tuple[Page, Page],
    folders: dict[str, Path],
    tmp_path: Path,
) -> None:
    """Cy and Dee knocked out from the phone: Ann and Bob, both Possessed, win game 1."""
    app = board_app(board=False, remote=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        server = await open_remote(pilot)
        url = server.remote_url
        assert url is not None
        phone = phones[0]
        await phone.load(url)
        await drawn(phone, app, "pick_knock_out")
        await phone.evaluate("document.querySelector('[data-action=pick_knock_out]').click()")
        seats = await phone.evaluate(
            "[...document.querySelectorAll('[data-action=knock_out]')].map(b => b.textContent)"
        )
        assert seats == list(FOUR)
        assert await phone.evaluate(press_js("knock_out", 2)) == [
            False,
            "From a phone: knock-out.",
        ]
        await until(pilot, lambda: text_of(app.screen.query_one("#seat-2", Static)) != "3 Cy")
        # The tile is numbered by seat, as every tile is.
        assert text_of(app.screen.query_one("#seat-2", Static)) == "3 Cy\n✗ KNOCKED OUT"
        assert "From a phone: knock-out." in toasts(app)
        await drawn(phone, app, "pick_knock_out")
        await phone.evaluate("document.querySelector('[data-action=pick_knock_out]').click()")
        assert (await phone.evaluate(press_js("knock_out", 3)))[0] is False
        await until(pilot, lambda: isinstance(app.screen, FinaleScreen))  # two left in play
        # The finale and the results stay on the laptop: the phone has no button for them.
        last = app.board.last
        assert last is not None and last.phase == "finale"
        assert await phone.evaluate(SHOWN.format(seq=last.seq))
        assert (
            await phone.evaluate("document.querySelectorAll('#remote-buttons button').length") == 0
        )
        await key(pilot, "enter")
        await declare(pilot, [0, 1])  # Ann and Bob growled: both in play, Possessed win
        assert isinstance(app.screen, SeriesScreen)
        for game in (1, 2):  # the rest of the series on the laptop's keys
            await key(pilot, "n")
            await settled(pilot)
            await key(pilot, "ctrl+s")
            await until(pilot, lambda number=game + 1: app.controller.game_number == number)
            await knock_out(pilot, 2)
            await knock_out(pilot, 3)
            await key(pilot, "enter")
            await declare(pilot, [0])
        await key(pilot)
    out = tmp_path / "history.json"
    parsed = build_parser().parse_args(
        ["--data-dir", str(folders["data"]), "history", "--json", str(out)]
    )
    assert run_history(parsed) == 0
    document: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    first = document["series"][0]["games"][0]
    assert first["winner"] == "possessed"  # Cy (Sane) knocked out from the phone
    teams = {player["name"]: player["team"] for player in first["players"]}
    assert teams == {"Ann": "possessed", "Bob": "possessed", "Cy": "sane", "Dee": "sane"}


async def test_the_read_only_token_a_wrong_one_another_site_and_a_replay_are_refused(
    board_app: Callable[..., MindFlayerApp], phones: tuple[Page, Page]
) -> None:
    app = board_app(board=True, remote=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        server = await open_remote(pilot)
        url = server.remote_url
        token = server.remote_token
        assert url is not None and token is not None
        phone, other = phones
        await phone.load(url)
        await drawn(phone, app, "next_turn")
        seen = app.board.last
        assert seen is not None
        body = json.dumps({"action": "next_turn", "seq": seen.seq})
        path = f"/r/{token}/press"
        assert (await phone.evaluate(SEND.format(path=path, token=token, body=body)))[0] == 200
        assert state_of(app).turn == 2
        # The same press again: made on a board the laptop has left.
        assert await phone.evaluate(SEND.format(path=path, token=token, body=body)) == [
            409,
            "Ann already passed the turn.",
        ]
        # The read-only board's token, in the path and the header; then a wrong token.
        board = server.token
        status, sentence = await phone.evaluate(
            SEND.format(path=f"/r/{board}/press", token=board, body=body)
        )
        assert status == 403 and "not open" in sentence
        status, _ = await phone.evaluate(SEND.format(path=path, token="x" * 22, body=body))
        assert status == 403
        # Another site (another origin on the same Wi-Fi) tries with and without the header.
        site = web.Application()

        async def other_page(_request: web.Request) -> web.Response:
            return web.Response(text="<p>Another site</p>", content_type="text/html")

        site.router.add_get("/", other_page)
        runner = web.AppRunner(site)
        await runner.setup()
        where = web.TCPSite(runner, "127.0.0.1", 0)
        await where.start()
        try:
            port = where._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            await other.load(f"http://127.0.0.1:{port}/")
            target = f"http://127.0.0.1:{server.port}{path}"
            with_header = (
                f"fetch({target!r}, {{method: 'POST', headers: {{'X-Remote-Token': {token!r},"
                f" 'Content-Type': 'application/json'}}, body: {body!r}}})"
                ".then(r => 'answered ' + r.status, e => 'blocked')"
            )
            assert await other.evaluate(with_header) == "blocked"  # its preflight is refused
            as_a_form = (
                f"fetch({target!r}, {{method: 'POST', mode: 'no-cors', body: {body!r}}})"
                ".then(r => r.type, e => 'blocked')"
            )
            # Sent as a form would be (no header): refused by the server for want of its
            # token, and its answer withheld from the other site (same-origin resources).
            assert await other.evaluate(as_a_form) in ("opaque", "blocked")
        finally:
            await runner.cleanup()
        await settled(pilot)
        assert state_of(app).turn == 2  # none of them acted
        # Turning the remote off closes it at once; the read-only board goes on.
        app.board.close_remote()
        status, _ = await phone.evaluate(SEND.format(path=path, token=token, body=body))
        assert status == 403
        assert server.running
        await key(pilot)
