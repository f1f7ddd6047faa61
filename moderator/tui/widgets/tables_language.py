"""The table's language, followed at once by every screen and widget that draws words.

Words reach the screen through `_()` when a widget is composed or a reactive is
set. A phase screen is composed once and kept all evening (a Textual mode), a
dialog can sit under the Settings, a picker is composed with its screen: each
keeps the words it drew until it is told. So the app holds the language as a
reactive (`MindFlayerApp.language`, set by `MindFlayerApp.use_language`), and
whatever draws words once calls `follow_the_language` as it is mounted: when
the table chooses another language, every one of them redraws its own words
at that moment, shown or not (the screen under the Settings, the screens of
the phases not shown, the dialogs, the pickers, the key bars). What is drawn
through `_()` at each render (the start screen's choices) only needs a repaint.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.dom import DOMNode

#: The app's reactive that holds the screen's language (a code: "en", "fr"...).
LANGUAGE = "language"


def follow_the_language(node: DOMNode, redraw: Callable[[], None]) -> None:
    """Call `redraw` each time the table switches language, until `node` is removed.

    Textual calls a watcher of another node's reactive for as long as the
    watching node is not closing, whichever screen it is on; in an app without
    the reactive (a widget's own test) nothing is ever called.
    """
    node.watch(node.app, LANGUAGE, redraw, init=False)
