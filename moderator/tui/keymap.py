"""The table's own keys: `keymap.toml` in the config folder, by binding id.

    next-turn = "space"
    knock-out = "x,delete"

Each line names a binding by its id (the help screen and the README list them;
`next_turn` and `next-turn` are the same id) and gives its keys, comma-separated,
in Textual's names (`space`, `enter`, `ctrl+s`, `f5`, `question_mark` or `?`).
The app applies it at start with Textual's `App.set_keymap`.

A file that cannot be used in full (bad TOML, an unknown id, a key name Textual
does not know, two actions on one key of a screen) is not used at all: the app
starts with its default keys and says why in one sentence. The file is never
changed, so nothing the table typed is lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.binding import Binding
from textual.keys import Keys, format_key, key_to_character

from moderator.i18n import N_, _
from moderator.safe_input import FileProblem, parse_toml, read_toml

if TYPE_CHECKING:
    from moderator.tui.key_reference import BindingOwner

KEYMAP_FILE = "keymap.toml"

#: Modifiers Textual reads in a key name such as `ctrl+shift+up`.
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})

_NAMED_KEYS = frozenset(key.value for key in Keys)
#: How every sentence about a keymap file that was not used ends (a msgid).
DEFAULTS = N_("Using the default keys.")
#: Longest part of the table's own text quoted back in a sentence.
SHOWN_CHARS = 40


class KeymapError(ValueError):
    """The keymap file cannot be used; `str(error)` says why, for the table."""


def load_keymap(config_dir: Path, app_class: type[App[Any]]) -> tuple[dict[str, str], str | None]:
    """The table's keymap (binding id -> keys), or no keymap and a sentence saying why.

    A missing file is no keymap and no sentence. The file is read by
    `safe_input`, so whatever it holds (bad bytes, endless brackets, a FIFO) is
    a sentence naming the file and line, never an exception.
    """
    path = config_dir / KEYMAP_FILE
    try:
        data = read_toml(path)
        if data is None:
            return {}, None
        return check_keymap(data, app_class), None
    except FileProblem as problem:
        return {}, _("The keymap file {file} was not used: it {reason}. {defaults}").format(
            file=problem.where, reason=problem.reason_in(_), defaults=_(DEFAULTS)
        )
    except KeymapError as error:
        return {}, _("The keymap file {file} was not used: {reason} {defaults}").format(
            file=path, reason=error, defaults=_(DEFAULTS)
        )


def parse_keymap(text: str, app_class: type[App[Any]]) -> dict[str, str]:
    """Check a keymap file's text against the app's bindings.

    Raises:
        KeymapError: with a sentence naming the first problem found.
    """
    try:
        data = parse_toml(text, Path(KEYMAP_FILE))
    except FileProblem as problem:
        raise KeymapError(_("it {reason}.").format(reason=problem.reason_in(_))) from problem
    return check_keymap(data, app_class)


def check_keymap(data: Mapping[str, object], app_class: type[App[Any]]) -> dict[str, str]:
    """Check a parsed keymap file against the app's bindings.

    Raises:
        KeymapError: with a sentence naming the first problem found.
    """
    # Start-up (docs/startup.md): every screen's bindings are loaded only when the
    # table has a keymap file; at every other start they cost the first frame about
    # 4 ms (bench/bench_tui.py --startup-only).
    from moderator.tui.key_reference import binding_owners, declared_bindings

    owners = binding_owners()
    app_bindings = declared_bindings(app_class)
    ids = {b.id for b in app_bindings if b.id} | {
        b.id for owner in owners for b in owner.bindings() if b.id
    }
    by_spelling = {_spelling(binding_id): binding_id for binding_id in ids}
    keymap: dict[str, str] = {}
    for name, value in data.items():
        binding_id = by_spelling.get(_spelling(name))
        if binding_id is None:
            raise KeymapError(
                _("no key is called {name!r} (the help screen lists their ids).").format(name=name)
            )
        if not isinstance(value, str):
            shown = _shown(name)
            raise KeymapError(
                _('{name} must be keys in quotes, such as {name} = "space".').format(name=shown)
            )
        keymap[binding_id] = ",".join(_checked_keys(_shown(name), value))
    _check_clashes(keymap, owners, app_bindings)
    return keymap


def _spelling(binding_id: str) -> str:
    """An id as the table may type it: `next_turn` or `next-turn`, any case."""
    return binding_id.strip().lower().replace("_", "-")


def _checked_keys(name: str, value: str) -> list[str]:
    """The keys of one line in Textual's names, or KeymapError."""
    keys = [key.strip() for key in value.split(",")]
    if not all(keys):
        raise KeymapError(
            _('{name} has an empty key name in "{typed}".').format(name=name, typed=_shown(value))
        )
    normalized = [binding.key for binding in Binding.make_bindings([Binding(value, "x")])]
    for typed, key in zip(keys, normalized, strict=True):
        if not is_key_name(key):
            raise KeymapError(
                _('{name}: "{typed}" is not a key name (try "space", "f5", "ctrl+s").').format(
                    name=name, typed=_shown(typed)
                )
            )
    return normalized


def _shown(typed: str) -> str:
    """What the table typed, as quoted back in a sentence.

    Cut to `SHOWN_CHARS`, control characters spelled out (ESC as `\\x1b`): none
    reaches the terminal, and the table sees what is really in the file.
    """
    spelled = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in typed)
    return spelled if len(spelled) <= SHOWN_CHARS else spelled[: SHOWN_CHARS - 1] + "…"


def is_key_name(key: str) -> bool:
    """Whether Textual can ever deliver this key (`ctrl+s`, `space`, `a`, `question_mark`)."""
    *modifiers, base = key.split("+")
    if not base or any(modifier not in MODIFIERS for modifier in modifiers):
        return False
    if len(base) == 1:
        return base.isprintable()
    return base in _NAMED_KEYS or key_to_character(base) is not None or format_key(base) != base


def _check_clashes(
    keymap: Mapping[str, str], owners: Iterable[BindingOwner], app_bindings: list[Binding]
) -> None:
    """Two actions on one key of one screen: KeymapError naming both, if the keymap did it."""
    for owner in owners:
        scope = owner.bindings() + ([] if owner.modal else app_bindings)
        actions_on: dict[str, dict[str, Binding]] = {}
        for binding in scope:
            remapped = keymap.get(binding.id) if binding.id else None
            keys = remapped.split(",") if remapped else [binding.key]
            for key in keys:
                actions_on.setdefault(key, {})[binding.id or binding.action] = binding
        for key, actions in actions_on.items():
            if len(actions) > 1 and any(action in keymap for action in actions):
                first, second = list(actions)[:2]
                raise KeymapError(
                    _(
                        "{first} and {second} would share the key {key} on the {screen} screen."
                    ).format(first=first, second=second, key=key, screen=_(owner.title))
                )
