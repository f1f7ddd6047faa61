"""The voice's state, visible on every screen: a toast once, then a marker in the header.

Muted too: the mute key's toast fades, so a "voice muted" marker stays in the
header for as long as the voice is muted (and the footer's key says Unmute).

Speech can fail anywhere: reading the setup aloud, a knock-out line, the
reveal. The narrator reports each failed part once to app-wide watchers
(`Narrator.watch_faults`, on whatever thread found it); this module turns
that into a `VoiceFaulted` message for the app, a toast with the full
sentence, and a short marker ("voice off: no sound device") appended to the
app's title, which every screen's Header shows, so a table that missed the
toast still sees why the app is silent. When the part works again (the
narrator's `SpeechRecovered`) its marker goes, and a new failure is toasted again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message

from moderator.i18n import N_, _

if TYPE_CHECKING:
    from moderator.narration.events import VoiceHealth


#: The header's marker while the mute key has silenced the voice (a msgid).
MUTED = N_("voice muted (v: unmute)")


class VoiceFaulted(Message):
    """A speech part failed, or works again (`recovered`); posted to the app from any thread."""

    def __init__(self, part: str, message: str, marker: str, recovered: bool = False) -> None:
        super().__init__()
        self.part = part
        self.message = message
        self.marker = marker
        self.recovered = recovered


class VoiceState:
    """The app's one place for speech faults: remembers them and shows them."""

    def __init__(self, app: App[None], already_told: list[str] | None = None) -> None:
        self._app = app
        #: Sentences the app already showed at start-up (not toasted twice).
        self._already_told = set(already_told or [])
        self.markers: list[str] = []
        #: Whether the mute key silenced the voice (marked in the header while it lasts).
        self.muted = False
        #: Every fault sentence reported so far (written on the narration thread).
        self._faults: set[str] = set()
        #: The sentences shown for each failing part (UI thread), forgotten on recovery.
        self._faults_of: dict[str, set[str]] = {}

    def on_fault(self, fault: VoiceHealth) -> None:
        """A narrator's fault watcher (see `Narrator.watch_faults`)."""
        if fault.recovered:
            self._app.post_message(VoiceFaulted(fault.part, "", fault.marker, recovered=True))
            return
        # Noted before the narrator emits the same sentence as a playback `Notice`
        # (it calls its watchers first, on this thread), so the app can skip that one.
        self._faults.add(fault.message)
        # Any thread: post_message is thread-safe; the app handles it on its loop.
        self._app.post_message(VoiceFaulted(fault.part, fault.message, fault.marker))

    def is_fault(self, message: str) -> bool:
        """Whether `message` is a speech fault this app-wide report already covers."""
        return message in self._faults

    def show(self, fault: VoiceFaulted) -> None:
        """On the UI thread: toast the sentence (once) and mark the header; or unmark it."""
        if fault.recovered:
            if fault.marker in self.markers:
                self.markers.remove(fault.marker)
                self.retitle()
            # A later failure of the part is news again.
            self._already_told -= self._faults_of.pop(fault.part, set())
            return
        self._faults_of.setdefault(fault.part, set()).add(fault.message)
        if fault.message not in self._already_told:
            self._already_told.add(fault.message)
            self._app.notify(fault.message, severity="warning", markup=False, timeout=10)
        if fault.marker not in self.markers:
            self.markers.append(fault.marker)
            self.retitle()

    def show_muted(self, muted: bool) -> None:
        """The mute key was pressed: every screen's header says so until it is pressed again."""
        if muted != self.muted:
            self.muted = muted
            self.retitle()

    def retitle(self) -> None:
        """The app's title in the screen's language now, with the markers after it."""
        base = _(self._app.TITLE or "")
        markers = "; ".join([*self.markers, *([_(MUTED)] if self.muted else [])])
        self._app.title = f"{base} · {markers}" if markers else base
