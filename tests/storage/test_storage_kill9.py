"""kill -9 at random moments: no acknowledged action is ever lost.

A child process (`crash_child.py`) plays random games through the storage API
and prints each action right after its commit returns. The test kills it with
SIGKILL at random moments (some during start-up: opening, integrity check,
first migration), then checks, with the child dead:

- `PRAGMA integrity_check` is ok;
- every game's log on disk starts with exactly the acknowledged entries, and at
  most one entry in the whole database (the one in flight) is beyond them;
- the state a fresh `Store` rebuilds equals the state after the last
  acknowledged action (or after the in-flight one, if it landed).

Seeded for the choices. A kill lands after a seeded number of acknowledged
actions (plus a short random delay, so it also hits mid-commit), not after a
time: on a loaded machine the child gets less done per second, and a
time-based budget would then cover fewer kills or none mid-game.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from moderator.domain import Timeline
from moderator.domain.timeline import entry_from_json
from moderator.storage import DATABASE_NAME, Store

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 120
WAIT_S = 60.0  # only a bound for a child that hangs; never reached by a working one


class Child:
    """The child process and a thread that collects its complete output lines."""

    def __init__(self, data_dir: Path, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), str(data_dir), str(seed)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: list[bytes] = []
        self.ready = threading.Event()
        self._more = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if not raw.endswith(b"\n"):
                break  # cut by the kill: never acknowledged
            if raw == b"READY\n":
                self.ready.set()
            else:
                with self._more:
                    self.lines.append(raw)
                    self._more.notify_all()

    def wait_for_actions(self, count: int) -> bool:
        """Wait until the child has acknowledged `count` actions (False if it never does)."""
        with self._more:
            return self._more.wait_for(lambda: len(self.lines) >= count, WAIT_S)

    def kill(self) -> str:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self._reader.join()
        assert self.process.stderr is not None
        stderr = self.process.stderr.read().decode(errors="replace")
        self.process.stdout.close()  # type: ignore[union-attr]
        self.process.stderr.close()
        return stderr


def read_disk(path: Path) -> tuple[list[tuple[Any, ...]], dict[int, list[dict[str, Any]]]]:
    conn = sqlite3.connect(path)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchall()
        logs: dict[int, list[dict[str, Any]]] = {}
        for game_id, seq, text in conn.execute("SELECT game_id, seq, entry FROM log ORDER BY 1, 2"):
            log = logs.setdefault(game_id, [])
            assert seq == len(log) + 1
            log.append(json.loads(text))
    finally:
        conn.close()
    return check, logs


@pytest.mark.slow
def test_kill_minus_nine_loses_no_acknowledged_action(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    data_dir = tmp_path / "data"
    truth: dict[int, list[dict[str, Any]]] = {}  # per game: the entries known to be on disk
    kills = acked = landed_in_flight = lost = integrity_failures = during_start = 0
    started = time.monotonic()
    while kills < KILLS:
        child = Child(data_dir, rng.randrange(2**32))
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0.0, 0.06))  # somewhere in start-up (~40 ms to READY)
        else:
            assert child.ready.wait(WAIT_S), "the child never opened the store"
            assert child.wait_for_actions(rng.randrange(1, 30)), "the child stopped playing"
            time.sleep(rng.uniform(0.0, 0.004))  # inside or between commits
        during_start += not child.ready.is_set()
        stderr = child.kill()
        kills += 1
        assert child.process.returncode == -signal.SIGKILL, stderr

        acknowledged = {game_id: list(log) for game_id, log in truth.items()}
        for raw in child.lines:
            line = json.loads(raw)
            log = acknowledged.setdefault(line["game"], [])
            assert line["seq"] == len(log) + 1, "acknowledgements out of order"
            log.append(line["entry"])
            acked += 1

        check, disk = (
            read_disk(data_dir / DATABASE_NAME)
            if (data_dir / DATABASE_NAME).exists()
            else ([("ok",)], {})
        )
        integrity_failures += check != [("ok",)]
        extra = 0
        for game_id, log in acknowledged.items():
            on_disk = disk.get(game_id, [])
            lost += max(0, len(log) - len(on_disk))
            assert on_disk[: len(log)] == log[: len(on_disk)], f"game {game_id} diverged"
        for game_id, on_disk in disk.items():
            extra += len(on_disk) - len(acknowledged.get(game_id, []))
        assert extra <= 1, "more than the one in-flight action is on disk"
        landed_in_flight += extra

        changed = [g for g, log in disk.items() if truth.get(g) != log]
        with Store.open(data_dir) as store:
            for game_id in changed:
                expected = Timeline.from_log(entry_from_json(e) for e in disk[game_id])
                game = store.load_game(game_id)
                assert game.state == expected.state
                assert game.timeline.redo_stack == expected.redo_stack
        truth = disk

    elapsed = time.monotonic() - started
    print(
        f"\nkill -9: {kills} kills ({during_start} during start-up) in {elapsed:.1f} s, "
        f"{acked} acknowledged actions, {lost} lost, {landed_in_flight} in-flight actions "
        f"landed, {integrity_failures} integrity failures, "
        f"{sum(len(log) for log in truth.values())} entries in {len(truth)} games on disk"
    )
    assert integrity_failures == 0
    assert lost == 0
    assert during_start > 0, "no kill landed during start-up"
    assert acked > kills, "the child barely played: the kills did not hit mid-game"
