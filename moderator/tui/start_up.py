"""What the start-up defers past the first frame: the database check, the voice, the collector.

Each of them, started on the first refresh, shared the cores with the start
screen settling and delayed it (docs/measurements.md), so they start
`DEFER_PAST_FIRST_FRAME` after the first frame, the slow ones off the UI thread. Any
earlier use (a key that speaks) builds the voice at once.

The database check. `PRAGMA integrity_check` reads the whole file, on every
start (it delayed the first frame when it ran in `Store.open`). The app opens
the store without it (`Store.open(check_integrity=False)`) and runs it here, on
a worker. It keeps what the check did at start-up: a damaged file is moved aside
untouched, a fresh database starts, and the table is told (a toast) and brought
back to the start screen (the `DatabaseReplaced` intent), which then offers
nothing to resume.

The garbage collector. The `mindflayer` command pauses Python's cyclic
collector while the app loads (`moderator.cli.pause_collector_for_start_up`);
here it runs one collection and freezes what is left: the ~75,000 objects
loaded at start-up are never scanned again. Each phase screen is composed the
first time the table reaches its phase and kept for the evening (its widgets,
styles and bindings: thousands of objects); those are frozen too,
`DEFER_PAST_FIRST_FRAME` after the screen is made. A full collection scanned them
otherwise, and one that fell on a key made that key's frame late: a knock-out
drawn 35 ms after its key instead of ~10. Freezing is cheap (the collector's
lists are moved, not walked). An app whose collector was running when it
started (tests, which start many apps in one process) freezes nothing:
freezing there would keep every earlier app's objects for the whole run.

A collaborator of the app (`MindFlayerApp.start_up`), handed Textual's `App`,
the table controller and how to tell a speech fault already toasted; it does
not know the app's class.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from typing import Any

from textual.app import App

from moderator.i18n import _
from moderator.i18n.refusals import refusal
from moderator.storage.errors import told
from moderator.table.controller import TableController
from moderator.table.ports import ACTION_ERRORS
from moderator.tui.messages import DatabaseReplaced

log = logging.getLogger(__name__)

#: Seconds between the first frame and what the start-up defers (see the module).
DEFER_PAST_FIRST_FRAME = 0.5


class StartUp:
    """Starts the deferred parts of the start-up once the first frame is drawn."""

    def __init__(
        self, app: App[Any], table: TableController, is_fault: Callable[[str], bool]
    ) -> None:
        """`is_fault(sentence)`: whether a speech fault was already toasted (`VoiceState`)."""
        self._app = app
        self._table = table
        self._is_fault = is_fault
        #: Whether the start-up froze its objects for the collector (the command paused it).
        self.froze = False

    def first_frame_drawn(self) -> None:
        """Start the deferred parts `DEFER_PAST_FIRST_FRAME` from now."""
        self._app.set_timer(DEFER_PAST_FIRST_FRAME, self._start_deferred)

    def screen_kept(self) -> None:
        """A phase screen was made, to be kept all evening: freeze it a moment later."""
        self._app.set_timer(DEFER_PAST_FIRST_FRAME, self._freeze_kept)

    def _start_deferred(self) -> None:
        """Resume the collector (if paused), start the database check, build the voice."""
        self.froze = _resume_collector()
        app = self._app
        app.run_worker(self._check, name="database-check", thread=True, exit_on_error=False)
        app.run_worker(self._start_voice, name="voice", thread=True, exit_on_error=False)

    def _freeze_kept(self) -> None:
        if self.froze:
            gc.freeze()

    # --- the voice (on a worker thread) -------------------------------------------------

    def _start_voice(self) -> None:
        """Build the narrator (loads the scripts, starts the speech engine) and report."""
        warnings = self._table.voice_warnings()
        self._app.call_from_thread(self._warn, warnings)

    def _warn(self, warnings: list[str]) -> None:
        """The voice's start-up warnings, but not a speech fault already toasted.

        A key that speaks before `DEFER_PAST_FIRST_FRAME` builds the voice at once; a
        fault of that first line is toasted by `VoiceState` and is also among
        the narrator's warnings by the time they are read here.
        """
        for warning in warnings:
            if not self._is_fault(warning):
                self._app.notify(warning, severity="warning", markup=False, timeout=10)

    # --- the database check (on a worker thread) ------------------------------------------

    def _check(self) -> None:
        app = self._app
        try:
            notices = self._table.check_database()
        except ACTION_ERRORS as error:
            app.call_from_thread(self._tell, [refusal(error)])
            return
        except Exception as error:  # a worker's error is kept by Textual in silence: say it
            log.exception("the score database's check failed")
            sentence = _("The score database could not be checked ({error}).").format(error=error)
            app.call_from_thread(self._tell, [sentence])
            return
        if notices:
            app.call_from_thread(self._replaced, notices)

    def _replaced(self, notices: list[str]) -> None:
        """A fresh database replaced a damaged one: say so, and show the start afresh."""
        self._tell(notices)
        self._app.post_message(DatabaseReplaced())

    def _tell(self, notices: list[str]) -> None:
        """Each notice as a toast, in the table's language (a store's notice is translated now)."""
        for notice in notices:
            self._app.notify(told(notice), severity="warning", markup=False, timeout=10)


def _resume_collector() -> bool:
    """If the command paused the collector: collect once, freeze, resume; True then."""
    if gc.isenabled():
        return False
    gc.collect()
    gc.freeze()
    gc.enable()
    return True
