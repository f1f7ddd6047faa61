"""Every key of the app, read from the bindings themselves (never typed twice).

The help screen and the keymap file both work from here: the help lists each
binding's keys, description and tooltip; the keymap file names bindings by
their `id`. A binding without an id (Textual's own, or the Meeting's seat
digits) cannot be remapped; the help lists it only if it has a description.

Screens are found by walking the `moderator.tui.screens` and
`moderator.tui.dialogs` packages, so a new screen module shows up in the help
without anyone editing this file. A module whose screen gets its keys from a
widget defined elsewhere names the classes in `KEY_OWNERS` (the picker dialog).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen

from moderator.i18n import N_, _

#: The packages whose modules hold one screen each (with its widgets).
SCREENS_PACKAGES = ("moderator.tui.screens", "moderator.tui.dialogs")

#: The game's phases in the order the table meets them; other screens follow by name.
FLOW = ("start", "setup", "reveal", "table", "meeting", "finale", "result", "series")
#: Every screen module's title (`title_of`), for the catalogs: shown through `_()`.
SCREEN_TITLES = (
    N_("Start"),
    N_("Setup"),
    N_("Reveal"),
    N_("Table"),
    N_("Meeting"),
    N_("Finale"),
    N_("Result"),
    N_("Series"),
    N_("Board"),
    N_("Help"),
    N_("History"),
    N_("How to play"),
    N_("Pick player"),
    N_("Settings"),
)
#: Textual's own binding descriptions the key bar shows (its palette key), for the catalogs.
TEXTUAL_WORDS = (N_("palette"),)
#: The two sections that are not a screen's (msgids).
ON_THIS_SCREEN = N_("On this screen")
EVERYWHERE = N_("Everywhere")


@dataclass(frozen=True)
class KeyRow:
    """One action and the keys that run it (description and tooltip in the screen's language)."""

    keys: tuple[str, ...]
    description: str
    tooltip: str
    binding_id: str | None


@dataclass(frozen=True)
class KeySection:
    """The keys of one screen (or of the whole app); `title` is a msgid (shown with `_()`)."""

    title: str
    rows: tuple[KeyRow, ...]


@dataclass(frozen=True)
class BindingOwner:
    """A screen module: its title, and the classes in it that declare bindings."""

    title: str
    classes: tuple[type[DOMNode], ...]

    @property
    def modal(self) -> bool:
        """Whether the app's own keys are cut off while this screen shows."""
        return any(issubclass(cls, ModalScreen) for cls in self.classes)

    def bindings(self) -> list[Binding]:
        """Every binding its classes declare, one per key, in declaration order."""
        return [binding for cls in self.classes for binding in declared_bindings(cls)]


def declared_bindings(owner: type[DOMNode] | Sequence[BindingType]) -> list[Binding]:
    """The bindings a class declares itself (not inherited), one `Binding` per key."""
    raw = owner.__dict__.get("BINDINGS", []) if isinstance(owner, type) else owner
    return list(Binding.make_bindings(raw))


def screen_modules() -> list[ModuleType]:
    """The screen modules, imported (each once), in the table's order."""
    found = []
    for package_name in SCREENS_PACKAGES:
        package = importlib.import_module(package_name)
        found += [(info.name, package_name) for info in pkgutil.iter_modules(package.__path__)]
    ordered = sorted(
        found, key=lambda item: (FLOW.index(item[0]) if item[0] in FLOW else len(FLOW), item[0])
    )
    return [importlib.import_module(f"{package}.{name}") for name, package in ordered]


def binding_owners() -> list[BindingOwner]:
    """Each screen module that declares bindings, titled after the module."""
    owners = []
    for module in screen_modules():
        # A screen whose keys a widget of its own declares (the picker dialog) names
        # its classes in KEY_OWNERS; the others are found in the module, in order.
        classes = getattr(module, "KEY_OWNERS", None) or tuple(
            cls
            for cls in vars(module).values()
            if isinstance(cls, type)
            and cls.__module__ == module.__name__
            and issubclass(cls, DOMNode)
            and declared_bindings(cls)
        )
        if classes:
            owners.append(BindingOwner(title_of(module.__name__), classes))
    return owners


def title_of(module_name: str) -> str:
    """A screen's title from its module: `pick_player` is "Pick player"."""
    return module_name.rpartition(".")[2].replace("_", " ").capitalize()


def known_binding_ids(app_class: type[App[Any]]) -> set[str]:
    """Every binding id the keymap file may name."""
    bindings = declared_bindings(app_class) + [
        binding for owner in binding_owners() for binding in owner.bindings()
    ]
    return {binding.id for binding in bindings if binding.id}


def rows_of(
    bindings: Iterable[Binding], keymap: Mapping[str, str], app: App[Any]
) -> tuple[KeyRow, ...]:
    """Group bindings into rows, one per action, with the keymap's keys where it names them.

    Bindings without a description are left out (Textual's hidden helpers);
    bindings without an id but with the same description share a row (the
    Meeting's seat digits, for instance).

    Args:
        bindings: one per key, as `Binding.make_bindings` gives them.
        keymap: binding id -> comma-separated keys (already checked).
        app: shows each key the way its Footer does.
    """
    grouped: dict[str, list[Binding]] = {}
    for binding in bindings:
        if binding.description:
            grouped.setdefault(binding.id or binding.description, []).append(binding)
    rows = []
    for members in grouped.values():
        first = members[0]
        if first.id and first.id in keymap:
            members = list(Binding.make_bindings([Binding(keymap[first.id], first.action)]))
        shown = tuple(dict.fromkeys(app.get_key_display(binding) for binding in members))
        # Descriptions and tooltips are msgids (`N_`): the help shows them translated.
        tooltip = _(first.tooltip) if first.tooltip else first.tooltip
        rows.append(KeyRow(shown, _(first.description), tooltip, first.id))
    return tuple(rows)


def current_section(screen: Screen[object]) -> KeySection:
    """The keys that work on `screen` right now (its focused widget's included).

    Every key the app's own classes declare is listed, with an id or not (the
    Meeting's seat digits, the result screen's Space): the help is read from
    the same bindings that handle the keys. Textual's own widget keys (an
    input's cursor keys) are left out, and so are the app's keys (they have
    their own section). Textual already applied the keymap to these.
    """
    app = screen.app
    ours = own_keys(screen)
    bindings = [
        active.binding
        for active in screen.active_bindings.values()
        if active.node is not app
        and active.enabled
        and (active.binding.id or (active.binding.key, active.binding.action) in ours)
    ]
    return KeySection(ON_THIS_SCREEN, rows_of(bindings, {}, app))


def own_keys(screen: Screen[object]) -> set[tuple[str, str]]:
    """(key, action) of every binding declared by the app's classes on `screen`'s path.

    The screen, its focused widget and that widget's ancestors, each class
    up its inheritance: only those of this package (`moderator.`) count.
    """
    nodes: list[DOMNode] = [screen]
    focused = screen.focused
    if focused is not None:
        nodes += [focused, *focused.ancestors]
    keys: set[tuple[str, str]] = set()
    for node in nodes:
        for cls in type(node).__mro__:
            if cls.__module__.startswith("moderator.") and issubclass(cls, DOMNode):
                keys.update((b.key, b.action) for b in declared_bindings(cls))
    return keys


def app_section(app: App[Any], keymap: Mapping[str, str]) -> KeySection:
    """The keys that work everywhere except in dialogs."""
    bindings = declared_bindings(type(app))
    if app.ENABLE_COMMAND_PALETTE:
        bindings.append(
            Binding(
                app.COMMAND_PALETTE_BINDING,
                "command_palette",
                N_("Commands"),
                key_display=app.COMMAND_PALETTE_DISPLAY,
                tooltip=N_("Every key of the screen, by name"),
            )
        )
    return KeySection(EVERYWHERE, rows_of(bindings, keymap, app))


def screen_sections(app: App[Any], keymap: Mapping[str, str]) -> list[KeySection]:
    """One section per screen module, in the table's order."""
    return [
        KeySection(owner.title, rows_of(owner.bindings(), keymap, app))
        for owner in binding_owners()
    ]


def keys_text(keys: Sequence[str]) -> str:
    """Keys as the help writes them: "n or space"; a run of digits as "1–9, 0"."""
    if len(keys) >= 3 and all(len(key) == 1 and key.isdigit() for key in keys):
        runs: list[list[str]] = []
        for key in keys:
            if runs and int(key) == int(runs[-1][-1]) + 1:
                runs[-1].append(key)
            else:
                runs.append([key])
        return ", ".join(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
    return _(" or ").join(keys)


def format_section(section: KeySection, width: int = 18) -> str:
    """A section as plain lines: keys, description, then the tooltip if it says more."""
    lines = []
    for row in section.rows:
        keys = keys_text(row.keys)
        text = row.description
        if row.tooltip and row.tooltip != row.description:
            text = _("{action}: {more}").format(action=text, more=row.tooltip)
        lines.append(f"{keys:<{width}} {text}")
    return "\n".join(lines)
