"""No user-visible literal in `moderator/` bypasses gettext (issue 18, item 6).

An AST walk flags an English string (a literal with letters, or an f-string)
handed straight to what the table sees: `Static`, `Label`, `Button`, `notify`,
`print`, a widget's `update`, `add_columns`, a `Binding`'s description and
tooltip, a `Choice`'s label, a palette's `SystemCommand`, a screen's `say`.
Wrapped in `_()`, `ngettext()`, `pgettext()` or `N_()`, it is a call, not a
literal, and passes. In the modules whose functions return what a screen draws
(`RETURNS_SHOWN`: the setup checklist's lines), a returned literal is checked
too. The table controller's notices (`_outcome`, `_refused`,
`_moved`, `_act`), the phone board's `BoardError` and the voice's faults
(`SpeechFault`, shown as a toast and a marker) are checked the same way.
A refusal of the rules (`IllegalAction`, `IllegalCount`) is the other way
round: its template is the msgid (Babel extracts it by the class's name and
`moderator.i18n.refusals` translates it where shown), so it must be a plain
literal with `{fields}` (or a name for one marked `N_`), never an f-string or
a built string. The storage's errors and notices (`STORAGE_TEMPLATES`) are
the same, marked the other way: their template is `N_("...")` (Babel extracts
`N_`), so a bare literal, an f-string or a built string there fails; text made
at run time (`StorageError(str(error))`, a helper's `Notice`) passes, and so
does the literal plural pair of `Notice.counting` (extracted by its name). A
call of `N_` on anything but a literal fails everywhere: Babel cannot read it.
The modules not
converted yet are listed by name: the list may only shrink (a listed module
with nothing left to convert fails too).
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
    "BoardError": ((0, None),),
    "_outcome": ((0, "notice"),),
    "_refused": ((0, "sentence"),),
    "_moved": ((1, "notice"),),
    "_act": ((1, "done"),),
    # A voice script's problem at its line, and a bad placeholder's sentence.
    "Problem": ((2, "message"),),
    "TemplateError": ((0, None),),
    # The voice's faults (a toast, and the header's marker) and the narrator's notices.
    "SpeechFault": ((1, "message"),),
    "LineRefused": ((1, "message"),),
    "NothingToSay": ((1, "message"),),
    "Notice": ((0, "message"),),
}
#: Refusals whose leading arguments are English templates (extracted as msgids).
TEMPLATES = {"IllegalAction": 1, "IllegalCount": 2}
#: The storage's errors and notices: their first argument is an `N_("...")` template.
STORAGE_TEMPLATES = frozenset(
    {
        "StorageError",
        "NewerDatabaseError",
        "ForeignDatabaseError",
        "DatabaseInUseError",
        "StorageWriteError",
    }
)
#: A storage notice (`moderator.storage.errors.Notice`; the narration's `Notice` event is
#: another class, whose text is checked elsewhere): checked inside `moderator/storage/`.
STORAGE = "moderator/storage/"
#: Calls whose leading arguments are literals Babel extracts by the call's name.
LITERAL_PAIRS = {"counting": 2}

#: Modules whose functions return the text a screen draws: a returned literal
#: (alone, or joined with `+`, or either side of a conditional) is shown too.
RETURNS_SHOWN = frozenset(
    {"moderator/tui/screens/checklist_text.py", "moderator/tui/screens/setup_words.py"}
)

#: Modules with user-visible English not yet through gettext, each named: none is
#: left (the history command was the last); a module added here must be converted.
NOT_CONVERTED: frozenset[str] = frozenset()


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


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _built(node: ast.AST) -> bool:
    """English written in place: a literal with letters, an f-string, or text joined with `+`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _built(node.left) or _built(node.right) or _literal(node.left)
    return _is_english(node) or isinstance(node, ast.JoinedStr)


def _unmarked_templates(node: ast.Call, called: str | None, storage: bool) -> list[ast.AST]:
    """The storage's templates not written `N_("...")`, and `N_` of anything but a literal."""
    wrong: list[ast.AST] = []
    templates = STORAGE_TEMPLATES | {"Notice"} if storage else STORAGE_TEMPLATES
    if called in templates and node.args and _built(node.args[0]):
        wrong.append(node.args[0])
    if called == "N_" and node.args and not _literal(node.args[0]):
        wrong.append(node.args[0])
    wrong += [arg for arg in node.args[: LITERAL_PAIRS.get(called or "", 0)] if not _literal(arg)]
    return wrong


def _pieces(node: ast.AST) -> list[ast.AST]:
    """The parts of a returned value that end up in the text: `a + b`, `a if c else b`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_pieces(node.left), *_pieces(node.right)]
    if isinstance(node, ast.IfExp):
        return [*_pieces(node.body), *_pieces(node.orelse)]
    return [node]


def unwrapped(source: str, name: str = "<source>", *, returns: bool = False) -> list[str]:
    """Each user-visible literal of `source` that is not wrapped, as "file:line: text".

    `returns`: the module's returned strings are shown text too (`RETURNS_SHOWN`).
    """
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if returns and isinstance(node, ast.Return) and node.value is not None:
            for piece in _pieces(node.value):
                if _is_english(piece):
                    found.append(f"{name}:{piece.lineno}: {ast.unparse(piece)[:60]}")
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
        for template in _unmarked_templates(node, called, name.startswith(STORAGE)):
            found.append(f"{name}:{template.lineno}: {ast.unparse(template)[:60]}")
        for template in node.args[: TEMPLATES.get(called or "", 0)]:
            # A literal, or a name for one marked where it was declared (a rule's `N_`).
            literal = isinstance(template, ast.Constant) and isinstance(template.value, str)
            if not (literal or isinstance(template, ast.Name | ast.Attribute)):
                found.append(f"{name}:{template.lineno}: {ast.unparse(template)[:60]}")
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", modules(), ids=_relative)
def test_converted_modules_show_no_literal_english(path: Path) -> None:
    name = _relative(path)
    found = unwrapped(path.read_text(encoding="utf-8"), name, returns=name in RETURNS_SHOWN)
    if name in NOT_CONVERTED:
        assert found, f"{name} is converted: take it off NOT_CONVERTED"
    else:
        assert not found, "wrap these in _() (or N_() where made at import):\n" + "\n".join(found)


def test_every_unconverted_module_exists() -> None:
    names = {_relative(path) for path in modules()}
    assert names >= NOT_CONVERTED, sorted(NOT_CONVERTED - names)
    assert names >= RETURNS_SHOWN, sorted(RETURNS_SHOWN - names)


def test_a_returned_literal_is_caught_where_returns_are_shown() -> None:
    """The checklist's lines as they were written before (returned, never passed to a widget)."""
    source = (
        "def line(setup, check):\n"
        "    if check:\n"
        '        return f"{setup.players} players."\n'
        "    if setup.reveal:\n"
        '        return "• " + "No eyes-closed reveal at this player count."\n'
        '    return "• Play with all" if setup.all else "• " + _("Put some back.")\n'
        "def wordless(n):\n"
        '    return "• " + _("The youngest player goes first.") + f" {n}"\n'
    )
    assert not unwrapped(source), "a return is checked only in RETURNS_SHOWN"
    found = {line.partition(": ")[2] for line in unwrapped(source, returns=True)}
    assert found == {
        "f'{setup.players} players.'",
        "'No eyes-closed reveal at this player count.'",
        "'• Play with all'",
    }


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
        'raise IllegalAction(f"{name} is already knocked out.")',
        'raise IllegalAction("{name} is out. " + more, name=name)',
        'raise IllegalCount("one", f"{n} more", n)',
        'return self._refused("No game is open.")',
        'return self._act(entry, f"{name} is knocked out.")',
        'raise BoardError("The board is off.")',
        'raise StorageError("The score database is closed.")',
        'raise StorageError(f"There is no score database in {path.parent} yet.")',
        'raise StorageWriteError("The folder " + str(folder) + " is full.")',
        'raise NewerDatabaseError(N_(f"The score database {path} is newer."))',
        'notices.append(Notice(f"The score database was damaged ({problem})."))',
        'what = Notice.counting("its last action", f"its last {n} actions", n)',
    ],
)
def test_each_kind_of_shown_text_is_checked(line: str) -> None:
    assert unwrapped(line, f"{STORAGE}sample.py"), line


@pytest.mark.parametrize(
    "line",
    [
        'Static(_("Hello"))',
        'Static("", id="empty")',
        'Label("▶ ")',
        'print(ngettext("one", "many", n).format(n=n))',
        'Binding("q", "quit", N_("Quit"), tooltip=N_("Leave"), id="quit")',
        'settings.update({"lang": "fr"})',
        'raise IllegalAction("{name} is already knocked out.", name=name)',
        'raise IllegalCount("{count} player", "{count} players", count, seats=seats)',
        "return self._refused(refusal(error))",
        'raise StorageError(N_("The score database {path} cannot be read."), path=path)',
        "raise StorageWriteError(str(error)) from error",
        "raise ForeignDatabaseError.saying(foreign_message(path))",
        'Notice(N_("it is not an SQLite database"))',
        'Notice.counting("{count} is left", "{count} are left", have)',
    ],
)
def test_wrapped_or_wordless_text_passes(line: str) -> None:
    assert not unwrapped(line, f"{STORAGE}sample.py"), line


# --- the file helpers' sentences (safe_output) -----------------------------------------

#: Errors of the file helpers and where their English template is (position): it must
#: be marked with `N_` where it is written (a call), or be a name declared with `N_`.
FILE_TEMPLATES = {"OutputError": 0, "FileProblem": 1}


def unmarked_file_templates(source: str, name: str = "<source>") -> list[str]:
    """Each `OutputError(...)`/`FileProblem(...)` of `source` whose template Babel would miss.

    Extraction finds `N_("...")` only: a bare literal, an f-string or a joined
    string stays English on a French screen, and a name must have been declared
    as `NAME = N_("...")` in the same module.
    """
    tree = ast.parse(source, name)
    marked = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _called(node.value) == "N_"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _called(node) in FILE_TEMPLATES):
            continue
        position = FILE_TEMPLATES[_called(node) or ""]
        template = node.args[position] if len(node.args) > position else None
        if isinstance(template, ast.Call) and _called(template) == "N_":
            continue
        if isinstance(template, ast.Name) and template.id in marked:
            continue
        shown = ast.unparse(template)[:60] if template is not None else "(no template)"
        found.append(f"{name}:{node.lineno}: {shown}")
    return found


def test_file_helper_errors_are_marked_templates() -> None:
    """Every `OutputError` and `FileProblem` the app raises has a template the catalogs hold."""
    found = [
        line
        for path in modules()
        for line in unmarked_file_templates(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert not found, "mark these templates with N_ (moderator.domain.worded):\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        # The sentences as safe_output and table/config.py raised them before.
        'raise OutputError("No output file was named.")',
        'raise OutputError(f"Could not write {text}: it is {what}. Nothing was written.")',
        '_LOOP = "Could not write {text}: loops."\nraise OutputError(_LOOP.format(text=text))',
        '_LOOP = "Could not write {path}: loops."\nraise OutputError(_LOOP, path=text)',
        'raise safe_output.OutputError("Could not write " + str(path))',
        # The reasons as safe_input gave them before.
        'raise FileProblem(path, f"is too large (over {MAX_BYTES:,} bytes)")',
        'raise FileProblem(path, "is not a file (a folder, a device or a pipe)")',
    ],
)
def test_the_file_template_check_catches_unmarked_sentences(line: str) -> None:
    assert unmarked_file_templates(line)


@pytest.mark.parametrize(
    "line",
    [
        'raise OutputError(N_("No output file was named."))',
        'raise OutputError(N_("Could not write {path}."), path=text)',
        '_LOOP = N_("Could not write {path}: loops.")\nraise OutputError(_LOOP, path=text)',
        'raise FileProblem(path, N_("is not valid JSON ({detail})"), line, detail=msg)',
    ],
)
def test_marked_file_templates_pass(line: str) -> None:
    assert not unmarked_file_templates(line)
