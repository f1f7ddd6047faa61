"""The score database's integrity check, run once the start-up settled, off the UI thread.

`PRAGMA integrity_check` reads the whole file, on every start (it delayed the
first frame when it ran in `Store.open`; docs/measurements.md). The app opens
the store without it (`Store.open(check_integrity=False)`) and runs it here once
the start screen is drawn and settled (`moderator.tui.app.SETTLE_DELAY` after
the first frame: on the first refresh its CPU still delayed the start screen).
It keeps what the check did at start-up: a damaged file is moved aside
untouched, a fresh database starts, and the table is told (a toast) and brought
back to the start screen, which then offers nothing to resume.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from moderator.i18n import _
from moderator.i18n.refusals import refusal
from moderator.storage.errors import told
from moderator.table.ports import ACTION_ERRORS

if TYPE_CHECKING:
    from moderator.tui.app import MindFlayerApp

log = logging.getLogger(__name__)


def check_after_start_up(app: MindFlayerApp) -> None:
    """Start the check on a worker thread; its outcome comes back to the UI thread."""
    app.run_worker(lambda: _check(app), name="database-check", thread=True, exit_on_error=False)


def _check(app: MindFlayerApp) -> None:
    try:
        notices = app.controller.check_database()
    except ACTION_ERRORS as error:
        app.call_from_thread(_tell, app, [refusal(error)])
        return
    except Exception as error:  # a worker's error is kept by Textual in silence: say it
        log.exception("the score database's check failed")
        sentence = _("The score database could not be checked ({error}).").format(error=error)
        app.call_from_thread(_tell, app, [sentence])
        return
    if notices:
        app.call_from_thread(_replaced, app, notices)


def _replaced(app: MindFlayerApp, notices: list[str]) -> None:
    """A fresh database replaced a damaged one: say so, and show the start afresh."""
    _tell(app, notices)
    app.settle(app.controller.database_replaced())


def _tell(app: MindFlayerApp, notices: list[str]) -> None:
    """Each notice as a toast, in the table's language (a store's notice is translated now)."""
    for notice in notices:
        app.notify(told(notice), severity="warning", markup=False, timeout=10)
