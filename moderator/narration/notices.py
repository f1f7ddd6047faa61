"""Which speech parts are failing, told once each, and told again when they work again.

The table hears about a failed part once (a toast, a marker in the header), not
once per line; when the part works again (a clip played, a line synthesized
by a restarted engine) the watchers hear that too, so the marker goes and a
later failure of the same part is told afresh. Faults marked permanent (a
missing library) never recover.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

from moderator.narration.events import SpeechFaulted, SpeechRecovered, VoiceHealth, marker_for
from moderator.narration.speech.speaker import SpeechFault

log = logging.getLogger(__name__)

Watcher = Callable[[VoiceHealth], None]

#: The parts a clip that played proves working again.
PLAYER_PARTS = frozenset({"player", "player-hang", "device"})
#: The parts a freshly synthesized line proves working again.
ENGINE_PARTS = frozenset({"engine", "synthesis"})


class NoticeBoard:
    """Remembers which parts are failing, so each is told once until it recovers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Failing parts, and whether each failure is permanent.
        self._failing: dict[str, bool] = {}
        self._pending: list[SpeechFault] = []
        #: Every notice so far, for `Narrator.warnings`.
        self.messages: list[str] = []
        #: The faults still in force, in order, for watchers that arrive late.
        self.faults: list[SpeechFaulted] = []
        self._watchers: list[Watcher] = []

    def add(self, fault: SpeechFault) -> bool:
        """Record `fault`; True when its part was not failing already (then it is told)."""
        event = SpeechFaulted(fault.part, fault.message, marker_for(fault.part))
        with self._lock:
            if fault.part in self._failing:
                return False
            self._failing[fault.part] = fault.permanent
            self.messages.append(fault.message)
            self.faults.append(event)
            watchers = list(self._watchers)
        for watcher in watchers:
            _safe_call(watcher, event)
        return True

    def recovered(self, parts: Iterable[str]) -> None:
        """These parts work again: tell the watchers of each that was failing (not permanently)."""
        events: list[SpeechRecovered] = []
        with self._lock:
            for part in parts:
                if self._failing.get(part) is False:
                    del self._failing[part]
                    self.faults = [f for f in self.faults if f.part != part]
                    events.append(SpeechRecovered(part, marker_for(part)))
            watchers = list(self._watchers) if events else []
        for event in events:
            for watcher in watchers:
                _safe_call(watcher, event)

    def watch(self, watcher: Watcher) -> None:
        """Call `watcher` with every fault and recovery, faults in force first (any thread)."""
        with self._lock:
            self._watchers.append(watcher)
            earlier = list(self.faults)
        for event in earlier:
            _safe_call(watcher, event)

    def defer(self, fault: SpeechFault) -> None:
        """Record a fault found at start-up, to be told at the next play."""
        if self.add(fault):
            with self._lock:
                self._pending.append(fault)

    def take_pending(self) -> list[SpeechFault]:
        """Start-up faults not yet told to a listener."""
        with self._lock:
            pending, self._pending = self._pending, []
        return pending


def _safe_call(watcher: Watcher, event: VoiceHealth) -> None:
    try:
        watcher(event)
    except Exception:
        log.exception("speech fault watcher failed on %r", event)
