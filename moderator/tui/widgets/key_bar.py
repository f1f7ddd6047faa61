"""A one-line key bar, drawn from the screen's bindings: a light `Footer` for the start screen.

Textual's `Footer` is one widget per key (plus a container) and recomposes all
of them whenever the screen's bindings change; before the start screen's first
frame they change several times (the stack, then the focus), which measured
as the largest single cost of the first frame (docs/startup.md). This bar is a
single widget: on each bindings change it works out the line again and
repaints only if the line changed.

What it shows follows the same rules as the Footer, so it stays true to the
keys: only bindings with `show`, one entry per action (its shortest key, so
`?` rather than `f1` for the help), nothing for an action whose `check_action`
says False, dimmed when it says None; the table's keymap is already in the
screen's active bindings. The ids in `first` (the help) come first; the command
palette key sits on the right as in the Footer. Unlike the Footer it never cuts
a key in half at the right edge: a line too long for its width drops the
palette key, takes each screen's short words, gives up the screen's `extra`
keys, closes the gaps between keys, then leaves out whole keys, the least
important first (`keep`), so at 80 columns a game screen still shows Menu,
Mute and Settings, in German and French too. A click on a key presses it
(the palette's: see `on_click`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.screen import Screen
from textual.widget import Widget

from moderator.i18n import N_, NP_, _
from moderator.tui.widgets.tables_language import follow_the_language

#: The mute key's binding id: while the voice is muted its words say what it does then.
MUTE_ID = "mute"
UNMUTE = N_("Unmute")
#: Its shorter words, for a tight line.
UNMUTE_SHORT = NP_("footer", "Unmute")


class KeyItem(NamedTuple):
    """One action on the bar: the key to press for it and what it does.

    A NamedTuple, as the start screen's `Choice`: built at import for the first
    frame, where a frozen dataclass costs about 0.5 ms (docs/startup.md, item 5).
    """

    key: str
    display: str
    description: str
    enabled: bool
    #: The binding's id (None for a binding without one).
    binding_id: str | None = None


def _width(items: list[KeyItem], palette: KeyItem | None, gap: int = 1) -> int:
    """Columns the keys take as `render` draws them (" key description ", "▏key desc ").

    `gap` is the space after each description: 1, or 0 on a tight line (`fitted`).
    """
    width = sum(cell_len(item.display) + cell_len(item.description) + 2 + gap for item in items)
    if palette is not None:
        width += cell_len(palette.display) + cell_len(palette.description) + 3
    return width


class KeyBar(Widget, can_focus=False):
    """The screen's keys on one line (see the module's docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description", "key-bar--separator"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-bar--separator {
            color: $foreground 20%;
        }
    }
    """

    def __init__(
        self,
        first: tuple[str, ...] = ("help",),
        *,
        keep: tuple[str, ...] = (),
        short: Mapping[str, str] | None = None,
        extra: tuple[str, ...] = (),
        id: str | None = None,
    ) -> None:
        """A bar that never cuts a key in half: what does not fit is left out whole.

        Args:
            first: binding ids shown before the others (the help, by default).
            keep: binding ids by importance, most important first: when the line is
                too narrow the others go first (from the right), then these from
                the end of `keep`; the ids in `first` are always kept.
            short: shorter descriptions (binding id -> msgid: `N_`, or `NP_` with a
                context for an English word with two meanings) used when the full
                ones do not fit.
            extra: binding ids a tight line leaves out before it closes the gaps
                between keys (Undo on the table: Help lists it); the others are
                worth a line without gaps.
        """
        super().__init__(id=id)
        self._first = first
        self._keep = keep
        self._short = dict(short or {})
        self._extra = frozenset(extra)
        self._items: tuple[KeyItem, ...] = ()
        self._palette: KeyItem | None = None
        #: (start column, end column, item) of each key drawn, for clicks.
        self._spans: list[tuple[int, int, KeyItem]] = []

    @property
    def items(self) -> tuple[KeyItem, ...]:
        """The keys shown, in order (the palette key not included)."""
        return self._items

    def on_mount(self) -> None:
        """Follow the screen's bindings (focus changes, `refresh_bindings`, the keymap)."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)
        # The descriptions are read in the language of the moment: read again on a switch.
        follow_the_language(self, lambda: self._bindings_changed(self.screen))

    def on_unmount(self) -> None:
        """Stop following the screen's bindings."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        """Work the line out again; repaint only if it changed."""
        if not self.is_attached or screen is not self.screen:
            return
        items, palette = self._read(screen)
        if (items, palette) != (self._items, self._palette):
            self._items, self._palette = items, palette
            self.refresh()

    def _read(self, screen: Screen[object]) -> tuple[tuple[KeyItem, ...], KeyItem | None]:
        """The keys to show and the palette key, from the screen's active bindings."""
        app = self.app
        palette_key = app.COMMAND_PALETTE_BINDING
        by_action: dict[str, list[KeyItem]] = {}
        ids: dict[str, str | None] = {}
        palette: KeyItem | None = None
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if key == palette_key:
                if app.ENABLE_COMMAND_PALETTE:
                    palette = KeyItem(
                        key, app.get_key_display(binding), _(binding.description), active.enabled
                    )
                continue
            if not binding.show:
                continue
            description = binding.description
            if binding.id == MUTE_ID and getattr(app, "muted", False):
                description = UNMUTE  # muted: the key brings the voice back
            item = KeyItem(  # descriptions are msgids (`N_`), shown in the screen's language
                key,
                app.get_key_display(binding),
                _(description),
                active.enabled,
                binding.id,
            )
            by_action.setdefault(binding.action, []).append(item)
            ids.setdefault(binding.action, binding.id)
        # One entry per action: its shortest key (`?` before `f1`), the first if tied.
        chosen = {
            action: min(items, key=lambda item: len(item.display))
            for action, items in by_action.items()
        }
        rank = {binding_id: place for place, binding_id in enumerate(self._first)}
        order = sorted(chosen, key=lambda action: rank.get(ids[action] or "", len(rank)))
        return tuple(chosen[action] for action in order), palette

    def fitted(self, width: int) -> tuple[tuple[KeyItem, ...], KeyItem | None]:
        """The keys drawn at `width` columns, whole, and the palette key if it still fits."""
        items, palette, _gap = self._fit(width)
        return items, palette

    def _fit(self, width: int) -> tuple[tuple[KeyItem, ...], KeyItem | None, int]:
        """The keys drawn at `width`, the palette key if it fits, and the gap after each.

        In turn until the line fits: no palette key, the short descriptions
        (least important keys first), the `extra` keys left out, no space after
        each description if that keeps every other key (the key's own colours
        still part them; German and French need it to keep every key English
        keeps at 80 columns), else keys left out by importance (`keep`).
        """
        items = list(self._items)
        palette = self._palette
        rank = {binding_id: place for place, binding_id in enumerate(self._keep)}
        first = set(self._first)
        # Least important first: keys outside `keep` from the right, then `keep` from its end.
        order = sorted(
            (place for place, item in enumerate(items) if (item.binding_id or "") not in first),
            key=lambda place: (-rank.get(items[place].binding_id or "", len(rank)), -place),
        )
        if _width(items, palette) <= width:
            return tuple(items), palette, 1
        palette = None  # Ctrl+P is the least needed key (every key is in its list)
        for place in order:
            if _width(items, None) <= width:
                return tuple(items), None, 1
            items[place] = self._shortened(items[place])
        if _width(items, None) <= width:
            return tuple(items), None, 1
        kept = dict(enumerate(items))
        for place in (place for place in order if items[place].binding_id in self._extra):
            del kept[place]  # the keys a tight line gives up before its gaps
            if _width(list(kept.values()), None) <= width:
                return tuple(kept.values()), None, 1
        if _width(list(kept.values()), None, gap=0) <= width:
            return tuple(kept.values()), None, 0
        for place in (place for place in order if place in kept):
            if _width(list(kept.values()), None) <= width:
                break
            del kept[place]
        return tuple(kept.values()), None, 1

    def _shortened(self, item: KeyItem) -> KeyItem:
        words = self._short.get(item.binding_id or "")
        if words and item.binding_id == MUTE_ID and getattr(self.app, "muted", False):
            words = UNMUTE_SHORT
        return item._replace(description=_(words)) if words else item  # msgids too

    def render(self) -> RenderResult:
        """The keys from the left, the palette key on the right (as Textual's Footer)."""
        width = self.size.width
        items, palette, gap = self._fit(width)
        key_style = self.get_component_rich_style("key-bar--key")
        description_style = self.get_component_rich_style("key-bar--description")
        dim = Style(dim=True)
        right = Text()
        if palette is not None:
            right.append("▏", self.get_component_rich_style("key-bar--separator"))
            right.append(palette.display, key_style)
            right.append(f" {palette.description} ", description_style)
        left = Text()
        self._spans = []
        for item in items:
            start = left.cell_len
            extra = Style() if item.enabled else dim
            left.append(f" {item.display} ", key_style + extra)
            left.append(f"{item.description}{' ' * gap}", description_style + extra)
            self._spans.append((start, left.cell_len, item))
        room = max(0, width - right.cell_len)
        left.truncate(room, pad=True)
        return Text.assemble(left, right, no_wrap=True, end="")

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it (a dimmed key rings the bell).

        The palette's key is shown but not clicked here: a click that opens the
        palette lands its own release on the palette while it is still being
        built, which the fuzz found failing inside Textual; ctrl+p opens it.
        """
        for start, end, item in self._spans:
            if start <= event.x < end:
                if item.enabled:
                    self.app.simulate_key(item.key)
                else:
                    self.app.bell()
                return
