"""Phone remote bench: a press to the laptop's frame, and the laptop's keys under presses.

The app runs under Pilot, headless, a 4-player game on the table screen, the
remote open on 127.0.0.1 (board setting off, remote on). Phones are a child
process (its own event loop, as phones are other machines) speaking HTTP to
the remote as the page does: each follows the board's Server-Sent Events and
presses with the latest seq it received, the token in its header, the page's
origin.

1. Press to frame: one phone presses Next turn PRESSES times, one at a time
   (each after the last answer, 0.3 s apart: a phone may press 4 times a
   second). The app notes the wall clock of every frame it draws
   (`app._display`, as bench_tui's FrameClock) with the name the screen's big
   text shows; a press's time runs from the phone's
   `time.time()` just before its POST to the first frame that shows the next
   player. Target (issue 36): p95 <= 100 ms on loopback.
2. Key-to-screen under presses: rounds of KEYS "n" keys on the laptop (timed as
   bench_board and bench_tui part 2: `simulate_key` + `pause(0)`, the screen
   checked) alternate without phones and with 10 phones each pressing Next turn
   once a second (on the board they last read: many are refused as stale, which
   is work too), until the phones have pressed for `--seconds` in all. Target:
   p95 with phones within 1.2x of without. The process's CPU time per key is
   printed too: the phones are another process on the same cores, so on a busy
   machine the wall clock also counts them taking a core from the app.

Run: `.venv/bin/python bench/bench_remote.py [--seconds 30]` (or `make bench`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from measuring import percentile, time_next_turns

ROOT = Path(__file__).resolve().parent.parent
PRESSES = 60
PHONES = 10
KEYS = 200
SECONDS = 30.0

#: Phones pressing Next turn: `count` phones, one press each `every` seconds (0: one phone
#: pressing `presses` times, each after the last answer), then one JSON line.
PHONES_CHILD = r"""
import asyncio, json, sys, time, urllib.parse
import aiohttp

url, token, count, every, seconds, presses = sys.argv[1:7]
count, every, seconds, presses = int(count), float(every), float(seconds), int(presses)
parts = urllib.parse.urlsplit(url)
origin = f"{parts.scheme}://{parts.netloc}"
sent = []  # wall clock just before each POST (the timed phone)
statuses = {}

async def follow(session, seen):
    # As the page: the board's Server-Sent Events, the latest seq kept.
    async with session.get(url + "events") as stream:
        async for line in stream.content:
            if line.startswith(b"data: "):
                seen[0] = json.loads(line[6:])["seq"]
                seen[1].set()

async def press(session, phone, seq):
    headers = {"X-Remote-Token": token, "X-Remote-Phone": phone, "Origin": origin}
    at = time.time()
    body = {"action": "next_turn", "seq": seq}
    async with session.post(url + "press", json=body, headers=headers) as response:
        await response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
    return at

async def timed(session):
    seen = [None, asyncio.Event()]
    following = asyncio.create_task(follow(session, seen))
    for _ in range(presses):
        await seen[1].wait()
        seen[1].clear()
        await asyncio.sleep(0.3)  # within the 4 presses a second a phone is allowed
        sent.append(await press(session, "timed", seen[0]))
    following.cancel()

async def steady(session, phone):
    seen = [None, asyncio.Event()]
    following = asyncio.create_task(follow(session, seen))
    await seen[1].wait()
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        started = time.monotonic()
        try:
            await press(session, phone, seen[0])
        except (aiohttp.ClientError, ConnectionError):
            break  # the remote closed: this round is over
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))
    following.cancel()

async def main():
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        if every == 0:
            await timed(session)
        else:
            await asyncio.gather(*(steady(session, f"phone-{n}") for n in range(count)))
    print(json.dumps({"sent": sent, "statuses": statuses}))

asyncio.run(main())
"""


class Frames:
    """The wall clock of each frame the app draws, with the name its big text shows then."""

    def __init__(self, app: Any) -> None:
        from moderator.tui.widgets.bigtext import BigText

        self.drawn: list[tuple[float, str]] = []
        display = app._display  # private to Textual: a bench may look where a test must not

        def noted(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None:
                big = app.screen.query(BigText).filter("#table-current")
                self.drawn.append((time.time(), big.first().text if big else ""))

        app._display = noted

    def first_showing(self, name: str, after: float) -> float | None:
        """When the first frame after `after` showing `name` was drawn."""
        return next((at for at, shown in self.drawn if at >= after and shown == name), None)


async def phones(url: str, token: str, *args: str) -> dict[str, Any]:
    """Run the phones' child process to its end; its report."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PHONES_CHILD, url, token, *args, stdout=asyncio.subprocess.PIPE
    )
    output, _ = await child.communicate()
    report: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    return report


async def run(base: Path, seconds: float) -> dict[str, Any]:
    from driving import FOUR, new_game

    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.remote import phone_remote
    from moderator.tui.run import make_app
    from moderator.tui.screens.table import TableScreen

    dirs = {name: base / name for name in ("data", "config", "cache")}
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    settings = {"board": False, "remote": True, "board_address": "127.0.0.1", "board_port": 0}
    (dirs["config"] / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    narrator = make_narrator(VoiceSettings(enabled=False), None, dirs["cache"], time_scale=0.01)
    app = make_app(dirs["data"], dirs["config"], dirs["cache"], None, narrator=narrator)
    figures: dict[str, Any] = {
        "without": [],
        "with": [],
        "cpu_without": [],
        "cpu_with": [],
        "statuses": {},
    }
    async with app.run_test(size=(100, 32)) as pilot:
        await new_game(pilot, FOUR)
        assert isinstance(app.screen, TableScreen), app.screen
        remote = phone_remote(app)
        url = await app.board.open_remote(remote.press)
        server = app.board.server
        assert server is not None and server.remote_token is not None
        token = server.remote_token

        # 1. A press to the laptop's frame.
        frames = Frames(app)
        turn = app.controller.state.turn
        report = await phones(url, token, "1", "0", "0", str(PRESSES))
        state = app.controller.state
        assert state.turn == turn + PRESSES, f"a timed press was refused: {report['statuses']}"
        players = state.players
        delays = []
        for index, sent in enumerate(report["sent"]):
            shown = frames.first_showing(players[(turn + index) % len(players)], sent)
            assert shown is not None, "a press never reached the screen"
            delays.append(shown - sent)
        figures["press"] = delays

        # 2. The laptop's keys, without and with 10 phones pressing once a second.
        pressed = 0.0
        while pressed < seconds:
            await time_next_turns(app, pilot, KEYS, figures["without"], figures["cpu_without"])
            round_seconds = min(10.0, seconds - pressed)
            began = time.monotonic()
            child = asyncio.create_task(
                phones(url, token, str(PHONES), "1", str(round_seconds), "0")
            )
            while not child.done():
                await time_next_turns(app, pilot, KEYS // 4, figures["with"], figures["cpu_with"])
            pressed += time.monotonic() - began
            for status, count in child.result()["statuses"].items():
                figures["statuses"][status] = figures["statuses"].get(status, 0) + count
    return figures


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description="The phone remote: press to frame, keys.")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="how long phones press")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        figures = asyncio.run(run(Path(tmp), options.seconds))
    press, without, with_phones = figures["press"], figures["without"], figures["with"]
    print(f"presses timed (one phone, loopback):  {len(press)}")
    print(
        f"press on a phone -> laptop's frame:   median {statistics.median(press) * 1000:6.2f} ms"
        f"  p95 {ms(press, 0.95):6.2f} ms  (target p95 <= 100 ms)"
    )
    print(f"keys timed, without / with phones:    {len(without)} / {len(with_phones)}")
    print(
        f"key-to-screen, no phones:             median {statistics.median(without) * 1000:6.2f}"
        f" ms  p95 {ms(without, 0.95):6.2f} ms"
    )
    print(
        f"key-to-screen, {PHONES} phones pressing 1/s: median "
        f"{statistics.median(with_phones) * 1000:6.2f} ms  p95 {ms(with_phones, 0.95):6.2f} ms"
    )
    print(
        f"key-to-screen p95 ratio with/without: {ms(with_phones, 0.95) / ms(without, 0.95):6.2f}"
        "  (target <= 1.20)"
    )
    cpu_without, cpu_with = figures["cpu_without"], figures["cpu_with"]
    print(
        f"CPU per key (this process), no phones / phones: p95 {ms(cpu_without, 0.95):6.2f} ms"
        f" / {ms(cpu_with, 0.95):6.2f} ms  ratio {ms(cpu_with, 0.95) / ms(cpu_without, 0.95):5.2f}"
    )
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(figures["statuses"].items()))
    print(f"the phones' answers by status:        {statuses}  (409: a stale press refused)")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
