"""Phone board bench: the app's key-to-screen with 20 phones following it, against none.

The app runs as in bench_tui.py part 2 (Pilot, headless, a 4-player game on the
table screen, "next turn" saved to SQLite each key, `simulate_key` +
`pause(0)` timed). Without phones the board is off (no port open, as by
default); with phones the board runs on 127.0.0.1 and a child process (its
own event loop, as phones are other machines) keeps 20 Server-Sent Events
streams open; every key is pushed to all 20. Rounds of KEYS keys alternate
board off / board on with 20 phones connected (a new phones process each
round; it ends when the board closes, or after `--seconds` at the latest)
until the phones have followed for `--seconds` (default 60) in all, so both
sides share the machine's load.

Prints median and p95 of each side and the ratios with/without, the push
latency (from the snapshot's publish after the save to each phone's receipt,
wall clock, every phone: the issue asks for 500 ms), how many events the
phones received and how many reconnections they made.
Loopback only; bounded in time.

Run: `.venv/bin/python bench/bench_board.py [--seconds 60]` (or `make bench`).
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

from measuring import quantile, time_next_turns

ROOT = Path(__file__).resolve().parent.parent
PHONES = 20
KEYS = 200
SECONDS = 60.0

#: The phones: `PHONES` EventSource-like clients for a bounded time, then a JSON line.
PHONES_CHILD = r"""
import asyncio, json, sys, time
import aiohttp

url, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
ends = time.monotonic() + seconds
received = reconnects = 0
arrivals = []  # (seq, wall clock) of every event every phone received

async def phone(session):
    global received, reconnects
    while (left := ends - time.monotonic()) > 0:
        try:
            timeout = aiohttp.ClientTimeout(total=left)
            async with session.get(url + "events", timeout=timeout) as stream:
                if stream.status != 200:
                    raise aiohttp.ClientError(stream.status)
                async for line in stream.content:
                    if line.startswith(b"data: "):
                        received += 1
                        arrivals.append((int(line[13:].split(b",", 1)[0]), time.time()))
        except aiohttp.ClientConnectorError:
            return  # the board was closed: this round is over
        except (asyncio.TimeoutError, aiohttp.ClientError, ConnectionError):
            pass
        if ends - time.monotonic() > 0:
            reconnects += 1
            await asyncio.sleep(0.2)  # as EventSource's retry (shortened)

async def main():
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.gather(*(phone(session) for _ in range(count)))
    print(json.dumps({"received": received, "reconnects": reconnects, "arrivals": arrivals}))

asyncio.run(main())
"""


async def run(
    base: Path, seconds: float
) -> tuple[list[float], list[float], dict[str, int], list[float]]:
    from driving import FOUR, new_game

    from moderator.board.snapshot import BoardSnapshot
    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.run import make_app
    from moderator.tui.screens.table import TableScreen

    dirs = {name: base / name for name in ("data", "config", "cache")}
    for folder in dirs.values():
        folder.mkdir(parents=True, exist_ok=True)
    settings = {"board": True, "board_address": "127.0.0.1", "board_port": 0}
    (dirs["config"] / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    narrator = make_narrator(VoiceSettings(enabled=False), None, dirs["cache"], time_scale=0.01)
    app = make_app(dirs["data"], dirs["config"], dirs["cache"], None, narrator=narrator)
    without: list[float] = []
    with_phones: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await new_game(pilot, FOUR)
        assert isinstance(app.screen, TableScreen), app.screen

        async def keys(into: list[float]) -> None:
            await time_next_turns(app, pilot, KEYS, into)

        async def phones_in(count: int) -> None:
            server = app.board.server
            assert server is not None
            while server.clients < count:
                await pilot.pause(0.05)  # the phones (re)connect on their own

        counts = {"received": 0, "reconnects": 0}
        pushes: list[float] = []  # seconds from publish to a phone's receipt, every phone
        followed = 0.0
        while followed < seconds:
            await keys(without)  # the board off: no port open
            url = await app.board.start()
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                PHONES_CHILD,
                url,
                str(PHONES),
                str(seconds),  # the phones stop by themselves after this at the latest
                stdout=asyncio.subprocess.PIPE,
            )
            began = time.monotonic()
            server = app.board.server
            assert server is not None
            published: dict[int, float] = {}
            publish = server.publish

            def noting(
                snapshot: BoardSnapshot, publish: Any = publish, into: Any = published
            ) -> None:
                into[snapshot.seq] = time.time()
                publish(snapshot)

            server.publish = noting  # type: ignore[method-assign]
            await asyncio.wait_for(phones_in(PHONES), 30)
            await keys(with_phones)
            await app.board.stop()  # the phones find it closed and end
            output, _ = await asyncio.wait_for(child.communicate(), seconds + 30)
            followed += time.monotonic() - began
            report = json.loads(output.decode().strip().splitlines()[-1])
            pushes += [
                at - published[seq] for seq, at in report.pop("arrivals") if seq in published
            ]
            for name, value in report.items():
                counts[name] += value
    return without, with_phones, counts, pushes


def main() -> None:
    parser = argparse.ArgumentParser(description="Key-to-screen with 20 phones on the board.")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="how long the phones stay")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-board-") as tmp:
        without, with_phones, counts, pushes = asyncio.run(run(Path(tmp), options.seconds))
    w_med, w_p95 = statistics.median(without) * 1000, quantile(without, 0.95) * 1000
    p_med, p_p95 = statistics.median(with_phones) * 1000, quantile(with_phones, 0.95) * 1000
    print(f"phones on the board:                  {PHONES} for {options.seconds:.0f} s (loopback)")
    print(f"keys timed, without / with phones:    {len(without)} / {len(with_phones)}")
    print(f"key-to-screen, board off:             median {w_med:6.2f} ms  p95 {w_p95:6.2f} ms")
    print(
        f"key-to-screen, {PHONES} phones following:   median {p_med:6.2f} ms  p95 {p_p95:6.2f} ms"
    )
    print(
        f"key-to-screen ratio with/without:     median {p_med / w_med:6.2f}     "
        f"p95 {p_p95 / w_p95:6.2f}"
    )
    print(
        f"publish -> phone received (SSE):      median {statistics.median(pushes) * 1000:6.2f} ms  "
        f"p95 {quantile(pushes, 0.95) * 1000:6.2f} ms  (issue: within 500 ms)"
    )
    print(
        f"events the phones received:           {counts['received']} "
        f"({counts['reconnects']} reconnection attempts: one a phone when a round's board closes)"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
