"""No user-visible literal in `moderator/` bypasses gettext (issue 18, item 6).

An AST walk flags an English string (a literal with letters, or an f-string)
handed straight to what the table sees: `Static`, `Label`, `Button`, `notify`,
`print`, a widget's `update`, `add_columns`, a `Binding`'s description and
tooltip, a `Choice`'s label, a palette's `SystemCommand`, a screen's `say`.
Wrapped in `_()`, `ngettext()`, `pgettext()` or `N_()`, it is a call, not a
literal, and passes. The modules not converted yet are listed by name: the list
may only shrink (a listed module with nothing left to convert fails too).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "moderator"

#: Calls whose every argument reaches the screen or the terminal.
SHOWN_ARGUMENTS = frozenset(
    {"Static", "Label", "Button", "notify", "print", "update", "add_columns", "say"}
)
#: Keyword arguments that are shown (the others are ids, classes, severities...).
TEXT_KEYWORDS = frozenset({"title", "message", "label", "content", "renderable", "placeholder"})
#: Calls with one shown argument: (position, keyword).
SHOWN_AT = {
    "Binding": ((2, "description"), (None, "tooltip")),
    "Choice": ((1, "label"),),
    "SystemCommand": ((0, "title"), (1, "help")),
}

#: Modules with user-visible English not yet through gettext, each named (the next
#: sessions convert them). moderator/storage/ (the history command's output) stays
#: as it is this session: its output must stay byte-identical for its speed work.
NOT_CONVERTED = frozenset(
    {
        "moderator/narration/settings.py",
        "moderator/storage/history_cli.py",
        "moderator/tui/app.py",
        "moderator/tui/questions.py",
        "moderator/tui/screens/setup.py",
        "moderator/tui/widgets/choice.py",
    }
)


def _called(node: ast.Call) -> str | None:
    function = node.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def _is_english(node: ast.AST) -> bool:
    """A literal string with a letter in it, or an f-string (built English)."""
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(part, ast.Constant) and any(ch.isalpha() for ch in str(part.value))
            for part in node.values
        )
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(ch.isalpha() for ch in node.value)
    )


def unwrapped(source: str, name: str = "<source>") -> list[str]:
    """Each user-visible literal of `source` that is not wrapped, as "file:line: text"."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Call):
            continue
        called = _called(node)
        shown: list[ast.AST] = []
        if called in SHOWN_ARGUMENTS:
            shown = [*node.args, *(k.value for k in node.keywords if k.arg in TEXT_KEYWORDS)]
            if called == "update":  # `dict.update(...)`, `Static.update(text)`: text only
                shown = [arg for arg in node.args[:1]]
        elif called in SHOWN_AT:
            for position, keyword in SHOWN_AT[called]:
                if position is not None and position < len(node.args):
                    shown.append(node.args[position])
                shown += [k.value for k in node.keywords if k.arg == keyword]
        for argument in shown:
            if _is_english(argument):
                found.append(f"{name}:{argument.lineno}: {ast.unparse(argument)[:60]}")
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", modules(), ids=_relative)
def test_converted_modules_show_no_literal_english(path: Path) -> None:
    name = _relative(path)
    found = unwrapped(path.read_text(encoding="utf-8"), name)
    if name in NOT_CONVERTED:
        assert found, f"{name} is converted: take it off NOT_CONVERTED"
    else:
        assert not found, "wrap these in _() (or N_() where made at import):\n" + "\n".join(found)


def test_every_unconverted_module_exists() -> None:
    names = {_relative(path) for path in modules()}
    assert names >= NOT_CONVERTED, sorted(NOT_CONVERTED - names)


def test_the_check_catches_an_unwrapped_literal_in_a_converted_module() -> None:
    start = PACKAGE / "tui" / "screens" / "start.py"
    source = start.read_text(encoding="utf-8")
    assert not unwrapped(source)
    broken = source.replace('N_("Quit (q)")', '"Quit (q)"').replace('N_("Quit")', '"Quit"')
    broken += '\n\ndef _hint(screen: object) -> None:\n    screen.notify(f"Saved {screen}")\n'
    found = {line.partition(": ")[2] for line in unwrapped(broken)}
    assert found == {"'Quit'", "'Quit (q)'", "f'Saved {screen}'"}


@pytest.mark.parametrize(
    "line",
    [
        'Static("Hello")',
        'Label(f"{n} players")',
        'self.notify("Saved.", markup=False)',
        'print("Wrote it", file=sys.stderr)',
        'Binding("q", "quit", "Quit")',
        'Binding("q", "quit", N_("Quit"), tooltip="Leave")',
        'Choice("id", "Label")',
        'widget.update("Starting…")',
    ],
)
def test_each_kind_of_shown_text_is_checked(line: str) -> None:
    assert unwrapped(line), line


@pytest.mark.parametrize(
    "line",
    [
        'Static(_("Hello"))',
        'Static("", id="empty")',
        'Label("▶ ")',
        'print(ngettext("one", "many", n).format(n=n))',
        'Binding("q", "quit", N_("Quit"), tooltip=N_("Leave"), id="quit")',
        'settings.update({"lang": "fr"})',
    ],
)
def test_wrapped_or_wordless_text_passes(line: str) -> None:
    assert not unwrapped(line), line
