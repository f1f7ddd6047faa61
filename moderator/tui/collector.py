"""Python's cyclic garbage collector at the table: what lives all evening is frozen.

The `mindflayer` command pauses the collector while the app loads
(`moderator.cli.pause_collector_for_start_up`); half a second after the first
frame `resume_after_start_up` runs one collection and freezes what is left: the
~75,000 objects loaded at start-up are never scanned again. Each phase screen
is composed the first time the table reaches its phase and kept for the
evening (its widgets, styles and bindings: thousands of objects); `freeze_kept`
freezes those too, half a second after the screen is made. A full collection
scanned them otherwise, and one that fell on a key made that key's frame late:
a knock-out drawn 35 ms after its key instead of ~10 (docs/measurements.md).
Freezing is cheap (the collector's lists are moved, not walked); the garbage
frozen with them is the little made in that half second.

An app whose collector was running when it started (tests, which start many
apps in one process) is left as it is: freezing there would keep every
earlier app's objects for the whole run.
"""

from __future__ import annotations

import gc


def resume_after_start_up() -> bool:
    """If the command paused the collector: collect once, freeze, resume; True then."""
    if gc.isenabled():
        return False
    gc.collect()
    gc.freeze()
    gc.enable()
    return True


def freeze_kept(froze_start_up: bool) -> None:
    """A screen made to be kept has settled: freeze what lives now, if the start-up froze."""
    if froze_start_up:
        gc.freeze()
