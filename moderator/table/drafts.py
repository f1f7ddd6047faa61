"""What the table typed but has not saved yet, kept through a crash (issue 33 item 4).

Every action is saved as it is taken; what is typed before an action is not:
the roster being seated (names, order, first player, how each name is said)
and the result screen's ticks and Waffles. A crash lost them: Resume showed
"0 players seated", or the finale again with every box empty. Now each change
is kept in `drafts.json` beside the score database, written atomically
(`safe_output`: a temp file, fsync, rename) by a writer thread, so the screen
never waits for the disk. Resume offers them back: the setup screen of the same
series (and the same next game) starts from the roster draft, the result screen
of the same game from its ticks and Waffles.

A draft is data, read by `safe_input`: anything else in the file (a hand edit,
a FIFO in its place) is ignored, never an error. The table's words are typed by
the table, so they are checked again by the screens as when typed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moderator import safe_output
from moderator.safe_input import FileProblem, read_json

DRAFTS_FILE = "drafts.json"
#: Longer lists or texts than a table types are not a draft (a hand-edited file).
_MOST_ITEMS = 32
_MOST_CHARS = 200


@dataclass(frozen=True)
class RosterDraft:
    """The setup screen's roster as typed: `key` names the series and its next game."""

    key: str
    players: tuple[str, ...]
    first_player: int
    #: How a name is said, for the names the table gave words.
    said_as: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ResultsDraft:
    """The result screen's boxes as typed: `key` names the game."""

    key: str
    possessed: tuple[int, ...]
    #: Each seat's Waffle box as it shows (text: a refused keystroke is not in it).
    waffles: tuple[str, ...]


def roster_key(series_id: int, game_number: int) -> str:
    """What a roster draft is kept under: the series and the number of the game it seats."""
    return f"series {series_id} game {game_number}"


def results_key(game_id: int) -> str:
    """What a results draft is kept under: the game's id."""
    return f"game {game_id}"


class Drafts:
    """The drafts file of one data folder; `None` folder: nothing is kept (tests, no disk)."""

    def __init__(self, data_dir: Path | None) -> None:
        self.path = data_dir / DRAFTS_FILE if data_dir is not None else None
        self._lock = threading.Lock()
        self._pending: dict[str, Any] | None = None
        self._wrote = threading.Event()
        self._wrote.set()
        self._content: dict[str, Any] = self._read()

    # --- reading --------------------------------------------------------------------

    def roster(self, key: str) -> RosterDraft | None:
        """The roster draft for `key`, or None."""
        found = _roster(self._content.get("roster"))
        return found if found is not None and found.key == key else None

    def results(self, key: str) -> ResultsDraft | None:
        """The results draft for `key`, or None."""
        found = _results(self._content.get("results"))
        return found if found is not None and found.key == key else None

    # --- keeping --------------------------------------------------------------------

    def keep_roster(
        self, key: str, players: Sequence[str], first_player: int, said_as: Mapping[str, str]
    ) -> None:
        """Keep the roster as it is now (replacing the last one)."""
        self._keep(
            "roster",
            {
                "key": key,
                "players": list(players),
                "first_player": first_player,
                "said_as": [[name, words] for name, words in said_as.items() if name in players],
            },
        )

    def keep_results(self, key: str, possessed: Sequence[int], waffles: Sequence[str]) -> None:
        """Keep the result screen's boxes as they are now (replacing the last ones)."""
        self._keep("results", {"key": key, "possessed": list(possessed), "waffles": list(waffles)})

    def drop(self, kind: str) -> None:
        """Forget the `roster` or `results` draft (it was saved as an action)."""
        if kind in self._content:
            self._keep(kind, None)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until what was kept is on disk (tests, and the app's exit); True if it is."""
        return self._wrote.wait(timeout)

    def _keep(self, kind: str, value: dict[str, Any] | None) -> None:
        if self.path is None:
            return
        content = dict(self._content)
        if value is None:
            content.pop(kind, None)
        else:
            content[kind] = value
        if content == self._content:
            return
        self._content = content
        with self._lock:
            idle = self._pending is None
            self._pending = content
            self._wrote.clear()
        if idle:
            threading.Thread(target=self._write, name="drafts", daemon=True).start()

    def _write(self) -> None:
        """Write the newest content until none is pending (changes made meanwhile coalesce)."""
        assert self.path is not None
        while True:
            with self._lock:
                content = self._pending
                if content is None:
                    self._wrote.set()
                    return
            text = json.dumps(content, ensure_ascii=False, indent=1)
            try:
                # A FIFO or a device in its place is left alone (the stream would block).
                if safe_output.check_target(self.path).kind is safe_output.Kind.FILE:
                    safe_output.write_text(self.path, text)
            except (safe_output.OutputError, OSError):
                pass  # a draft is a help, never a fault: the actions are saved apart
            with self._lock:
                if self._pending is content:
                    self._pending = None

    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = read_json(self.path)
        except FileProblem:
            return {}
        return data if isinstance(data, dict) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and len(value) <= _MOST_CHARS else None


def _roster(data: object) -> RosterDraft | None:
    """A roster draft from the file's data, or None when it is not one."""
    if not isinstance(data, dict):
        return None
    key, players, first = data.get("key"), data.get("players"), data.get("first_player")
    said = data.get("said_as", [])
    if _text(key) is None or not isinstance(players, list) or not isinstance(said, list):
        return None
    names = [_text(name) for name in players[:_MOST_ITEMS]]
    if any(name is None for name in names) or len(players) > _MOST_ITEMS:
        return None
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < max(len(names), 1):
        return None
    pairs = tuple(
        (pair[0], pair[1])
        for pair in said[:_MOST_ITEMS]
        if isinstance(pair, list) and len(pair) == 2 and _text(pair[0]) and _text(pair[1])
    )
    return RosterDraft(str(key), tuple(str(name) for name in names), first, pairs)


def _results(data: object) -> ResultsDraft | None:
    """A results draft from the file's data, or None when it is not one."""
    if not isinstance(data, dict):
        return None
    key, possessed, waffles = data.get("key"), data.get("possessed"), data.get("waffles")
    if _text(key) is None or not isinstance(possessed, list) or not isinstance(waffles, list):
        return None
    if len(possessed) > _MOST_ITEMS or len(waffles) > _MOST_ITEMS:
        return None
    if not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < _MOST_ITEMS for s in possessed
    ):
        return None
    if not all(isinstance(w, str) and len(w) <= 8 for w in waffles):
        return None
    return ResultsDraft(str(key), tuple(possessed), tuple(waffles))
