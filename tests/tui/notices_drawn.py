"""Where the notices are drawn and what they say: Textual's toasts and the game screens'
notice strip, read from what the screen draws (its compositor's visible widgets and its
rendered rows), not from the notices the app keeps."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from moderator.tui.app import MindFlayerApp
from moderator.tui.widgets.key_bar import KeyBar
from moderator.tui.widgets.notice_strip import NoticeStrip
from tests.tui.drawn import drawn_rows, visible_regions

#: The id of the game screens' notice strip.
NOTICES = "notices"


def notices_on_screen(app: MindFlayerApp) -> dict[Widget, Region]:
    """The notice widgets drawn on the current screen and where (toasts and the strip)."""
    toasts = set(app.screen.query("Toast"))  # Textual's toast widget, found by its type name
    return {
        widget: region
        for widget, region in visible_regions(app).items()
        if (widget in toasts or widget.id == NOTICES) and widget.visible
    }


def text_in(rows: list[str], region: Region) -> str:
    """The text drawn in `region`, its rows joined by spaces (wrapped words rejoined).

    The strip starts each row with a severity mark ("▌"): it is not the sentence's.
    """
    cut = (row[region.x : region.right] for row in rows[region.y : region.bottom])
    lines = (line.strip().removeprefix("▌").strip() for line in cut)
    return " ".join(line for line in lines if line)


def keep_clear(app: MindFlayerApp, sentence: str) -> None:
    """`sentence` is readable in full in a notice, and no notice covers a tile or the footer."""
    screen = app.screen
    tiles = [widget.region for widget in screen.query(".seat")]
    footer = screen.query_one(KeyBar).region
    assert tiles, "the screen shows the table's tiles"
    notices = notices_on_screen(app)
    for widget, region in notices.items():
        for tile in tiles:
            assert not region.overlaps(tile), (type(widget).__name__, region, tile)
        assert not region.overlaps(footer), (type(widget).__name__, region, footer)
    rows = drawn_rows(app)
    readable = [text_in(rows, region) for region in notices.values()]
    assert any(sentence in text for text in readable), (sentence, readable)


def strip_of(app: MindFlayerApp) -> NoticeStrip:
    return app.screen.query_one(NoticeStrip)


def strip_text(app: MindFlayerApp) -> str:
    """What the strip draws, its rows joined by spaces."""
    strip = strip_of(app)
    rows = (strip.render_line(y).text.strip() for y in range(strip.size.height))
    return " ".join(row.removeprefix("▌ ") for row in rows if row)
