"""Builds a script's clips and mixes before it is asked for, so its first play is a replay.

Why: the first reveal of a night started ~0.6 s after Enter (1.7 s under
load), because its lines were synthesized and its eyes-closed span mixed
when the reveal started; a replay, whose files were cached, started in
~0.09 s. The table knows well before Enter that a reveal (or the finale) is
coming, so the narrator prepares it then (`Narrator.prepare`), here, on a
thread of its own: the lines are synthesized, each span mixed and each
line's lead-in written, and the play that follows takes the finished
futures instead of asking the speaker again. A preparation is for one set
of voice settings (its key); a change of settings makes it stale, cancels
what is left of it and the narrator prepares again. Nothing here blocks the
caller: `submit` queues and returns.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from typing import Any

from moderator.narration.audio.lead_in import led_in
from moderator.narration.audio.span_mix import SpanClip
from moderator.narration.scripts.library import Action, Bed, Line
from moderator.narration.settings import VoiceSettings
from moderator.narration.span_player import Prepared

log = logging.getLogger(__name__)

#: Preparations kept (the reveal, the finale and a few replaced ones).
KEPT = 4
#: How often a wait looks at the cancel flag.
_POLL = 0.05
Mixes = dict[int, Future[SpanClip]]
#: Starts a script's synthesis and mixing (the director's own prefetch and premix).
Start = Callable[[list[Action], threading.Event], tuple[Prepared, Mixes]]


def preparation_key(actions: list[Action], settings: VoiceSettings) -> Hashable:
    """What a preparation's audio depends on: the actions and the settings that shape it."""
    return (
        tuple(actions),
        settings.enabled,
        settings.rate,
        settings.volume,
        settings.bed_level,
        settings.lead_in,
        settings.english_engine,
        settings.voice_engines,
    )


@dataclass
class Preparation:
    """One script's clips and mixes, being built or built."""

    key: Hashable
    clips: Prepared
    mixes: Mixes
    #: Set by a change of settings or `close`: stop waiting, write nothing more.
    cancelled: threading.Event = field(default_factory=threading.Event)


@dataclass
class _Request:
    actions: list[Action]
    done: Future[bool]


class Preparer:
    """One background thread that prepares scripts; the director takes what is ready."""

    def __init__(self, start: Start, settings: Callable[[], VoiceSettings], bound: float) -> None:
        """`start` begins a script's audio; `bound` limits the wait for one line."""
        self._start = start
        self._settings = settings
        self._bound = bound
        self._lock = threading.Lock()
        self._kept: OrderedDict[Hashable, Preparation] = OrderedDict()
        self._requests: queue.Queue[_Request | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, actions: list[Action]) -> Future[bool]:
        """Prepare `actions` in the background; the future says whether all of it is ready.

        False: cancelled, closed, or a part could not be made (the play then
        makes that part itself, as it always did).
        """
        done: Future[bool] = Future()
        with self._lock:
            if self._closed:
                done.set_result(False)
                return done
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="mindflayer-prepare", daemon=True
                )
                self._thread.start()
            self._requests.put(_Request(list(actions), done))
        return done

    def ready(self, actions: list[Action], settings: VoiceSettings) -> Preparation | None:
        """The preparation of `actions` for `settings` (finished or still under way), or None."""
        key = preparation_key(actions, settings)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def stale(self) -> None:
        """The settings changed: cancel and forget every preparation."""
        with self._lock:
            kept, self._kept = self._kept, OrderedDict()
        for preparation in kept.values():
            preparation.cancelled.set()

    def close(self, timeout: float = 2.0) -> None:
        """Cancel everything and end the thread (bounded)."""
        with self._lock:
            self._closed = True
            thread = self._thread
            self._requests.put(None)
        self.stale()
        if thread is not None:
            thread.join(timeout)

    def _loop(self) -> None:
        while True:
            request = self._requests.get()
            if request is None:
                return
            try:
                request.done.set_result(self._prepare(request.actions))
            except Exception:  # a bug here must never reach the table: the play makes it
                log.exception("preparing narration failed")
                request.done.set_result(False)

    def _prepare(self, actions: list[Action]) -> bool:
        settings = self._settings()
        key = preparation_key(actions, settings)
        with self._lock:
            if self._closed:
                return False
            preparation = self._kept.get(key)
        if preparation is None:
            cancelled = threading.Event()
            clips, mixes = self._start(actions, cancelled)
            preparation = Preparation(key, clips, mixes, cancelled)
            with self._lock:
                self._kept[key] = preparation
                while len(self._kept) > KEPT:
                    _, dropped = self._kept.popitem(last=False)
                    dropped.cancelled.set()
        complete = self._finish(actions, preparation, settings.lead_in)
        if not complete:  # a part failed (or went stale): the next play makes it afresh
            with self._lock:
                if self._kept.get(key) is preparation:
                    del self._kept[key]
        return complete

    def _finish(self, actions: list[Action], preparation: Preparation, lead_in: float) -> bool:
        """Wait for every part (bounded); level and lead in each line played alone."""
        in_span = _lines_in_spans(actions)
        cancelled = preparation.cancelled
        complete = True
        for index, (_, future) in preparation.clips.items():
            if not _settled(future, self._bound, cancelled) or future.exception() is not None:
                complete = False  # a fault, too slow or cancelled: the play tells it
                continue
            clip = future.result()
            if index not in in_span and clip.path is not None:
                try:
                    led_in(clip, lead_in)
                except (OSError, ValueError):
                    complete = False
        for mix in preparation.mixes.values():  # its clips' wait, then the mix
            if not _settled(mix, self._bound * 2, cancelled) or mix.exception() is not None:
                complete = False
        return complete and not cancelled.is_set()


def _settled(future: Future[Any], bound: float, cancelled: threading.Event) -> bool:
    """Wait for `future` up to `bound` seconds; False when it is not done or was cancelled."""
    deadline = time.monotonic() + bound
    while not future.done():
        remaining = deadline - time.monotonic()
        if cancelled.is_set() or remaining <= 0:
            return False
        wait_futures([future], timeout=min(_POLL, remaining))
    return not cancelled.is_set()


def _lines_in_spans(actions: list[Action]) -> set[int]:
    """Indexes of the lines played inside a mixed span (their lead-in is the span's)."""
    inside: set[int] = set()
    open_span = False
    for index, action in enumerate(actions):
        if isinstance(action, Bed):
            open_span = action.start
        elif isinstance(action, Line) and open_span:
            inside.add(index)
    return inside
