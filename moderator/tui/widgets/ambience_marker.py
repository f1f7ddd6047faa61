"""A small marker that the ambience bed is playing, or would play without sound.

The narrator reports each eyes-closed span (`AmbienceSpan`); captions-only
tables (no sound device, muted, no speech engine) see that the ambience has no
sound, so they know the room is not masked and can hum along. Each says what
the ambience is for: the word alone read as stray text. The marker is empty
and takes no room outside a span.
"""

from __future__ import annotations

from textual.widgets import Static

from moderator.i18n import N_, _
from moderator.tui.widgets.tables_language import follow_the_language

#: Msgids, translated when a span begins (the table's language then).
#: Said in full: a lone "ambience" under the reveal's text read as stray text (issue 35).
PLAYING = N_("♪ ambience: a sound bed covers the table's noises")
UNHEARD = N_("♪ ambience without sound: the table's noises are not covered")


class AmbienceMarker(Static):
    """Shows PLAYING or UNHEARD during an eyes-closed span, nothing otherwise."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False, classes="ambience-marker")
        self.display = False
        #: The msgid shown now (drawn again in a new language).
        self._words = PLAYING

    def on_mount(self) -> None:
        """The marker's word follows the table's language."""
        follow_the_language(self, lambda: self.update(_(self._words)))

    def follow(self, started: bool, audible: bool) -> None:
        """A span began (shown) or ended (hidden)."""
        self._words = PLAYING if audible else UNHEARD
        self.update(_(self._words))
        self.display = started
