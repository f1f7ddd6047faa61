"""Help generated from the bindings, and the table's keymap file (keymap.toml)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from controller_shortcuts import seated
from driving import key
from no_message_left import toasts
from textual.widgets import Static

from moderator.tui import key_reference
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.keymap import KEYMAP_FILE, KeymapError, is_key_name, parse_keymap
from moderator.tui.screens.table import TableScreen
from tests.tui.app_driver import state_of

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def text_of(app: MindFlayerApp, selector: str = ".help-keys, .help-heading") -> str:
    """Everything the help shows under `selector`, as plain text."""
    return "\n".join(str(widget.render()) for widget in app.screen.query(selector).results(Static))


def all_bindings() -> list[tuple[str, key_reference.Binding]]:
    """(screen title, binding) for the app and every screen module."""
    found = [("Everywhere", b) for b in key_reference.declared_bindings(MindFlayerApp)]
    for owner in key_reference.binding_owners():
        found += [(owner.title, b) for b in owner.bindings()]
    return found


# --- the help is the bindings ------------------------------------------------------------


async def test_help_lists_every_described_key_of_every_screen(
    app_factory: Callable[[], MindFlayerApp],
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        await seated(pilot, FOUR)
        assert isinstance(app.screen, TableScreen)
        await key(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        shown = text_of(app)
        for title, binding in all_bindings():
            if binding.description:
                assert binding.description in shown, (title, binding)
            if binding.tooltip:
                assert binding.tooltip in shown, (title, binding)
        current = text_of(app, "#help-current")
        assert "Next turn: The turn passes clockwise" in current
        assert "n or space" in current
        assert "Undo" in current
        assert "Resume" not in current, "only the keys of the screen under the help"
        assert "Mute" in text_of(app, "#help-everywhere")
        await key(pilot, "escape")
        assert isinstance(app.screen, TableScreen)


def test_a_new_binding_reaches_the_help_without_editing_it() -> None:
    """The help reads the classes' BINDINGS: a binding added to a screen is listed."""
    from textual.binding import Binding

    from moderator.tui.screens.table import TableScreen as Table

    extra = Binding("z", "noop", "Shuffle the deck", id="shuffle", tooltip="A test binding")
    original = Table.__dict__["BINDINGS"]
    Table.BINDINGS = [*original, extra]
    try:
        table = next(o for o in key_reference.binding_owners() if o.title == "Table")
        descriptions = [b.description for b in table.bindings()]
        assert "Shuffle the deck" in descriptions
        assert "shuffle" in key_reference.known_binding_ids(MindFlayerApp)
    finally:
        Table.BINDINGS = original


def test_each_binding_id_names_one_action() -> None:
    """A keymap line changes one action: an id shared by screens means the same thing."""
    meaning: dict[str, tuple[str, str]] = {}
    for title, binding in all_bindings():
        if binding.id is None:
            continue
        seen = meaning.setdefault(binding.id, (binding.action, binding.description))
        assert seen == (binding.action, binding.description), (title, binding.id)


# --- the keymap file ---------------------------------------------------------------------


async def test_a_keymap_file_changes_the_keys_and_the_help(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    (folders["config"] / KEYMAP_FILE).write_text(
        '# the table likes x\nnext_turn = "x"\nmute = "ctrl+t"\n', encoding="utf-8"
    )
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        assert not [message for message in toasts(app) if "keymap" in message]
        await seated(pilot, FOUR)
        before = state_of(app).current
        await key(pilot, "n")
        assert state_of(app).current == before, "n no longer passes the turn"
        await key(pilot, "x")
        assert state_of(app).current != before, "x passes the turn"
        await key(pilot, "ctrl+t")
        assert app.controller.muted
        await key(pilot, "f1")
        assert "x                  Next turn" in text_of(app, "#help-current")
        assert "^t                 Mute" in text_of(app, "#help-everywhere")


@pytest.mark.parametrize(
    ("text", "because"),
    [
        ("next_turn = space\n", "it is not valid TOML"),
        ('shuffle = "s"\n', "no key is called 'shuffle'"),
        ("next_turn = 5\n", 'next_turn must be keys in quotes, such as next_turn = "space".'),
        ('next_turn = "spacebar"\n', '"spacebar" is not a key name'),
        ('next_turn = "n,,m"\n', "has an empty key name"),
        ('next_turn = "k"\n', "would share the key k on the Table screen"),
        ('mute = "q"\n', "would share the key q on the Start screen"),
    ],
)
async def test_a_broken_keymap_gives_a_sentence_and_the_default_keys(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path], text: str, because: str
) -> None:
    keymap = folders["config"] / KEYMAP_FILE
    keymap.write_text(text, encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(100, 40)) as pilot:
        notices = [message for message in toasts(app) if KEYMAP_FILE in message]
        assert len(notices) == 1, notices
        assert because in notices[0]
        assert notices[0].endswith("Using the default keys.")
        assert app.keymap == {}
        await seated(pilot, FOUR)
        before = state_of(app).current
        await key(pilot, "n")
        assert state_of(app).current != before, "the default key still works"
    assert keymap.read_text(encoding="utf-8") == text, "the table's file is left as it was"


async def test_an_unreadable_keymap_gives_a_sentence(
    app_factory: Callable[[], MindFlayerApp], folders: dict[str, Path]
) -> None:
    keymap = folders["config"] / KEYMAP_FILE
    keymap.mkdir()
    app = app_factory()
    async with app.run_test(size=(100, 40)):
        notices = [message for message in toasts(app) if KEYMAP_FILE in message]
        assert notices == [
            f"The keymap file {keymap} was not used: it could not be read (Is a directory). "
            "Using the default keys."
        ]


def test_keymap_ids_may_be_written_with_underscores_and_keys_as_characters() -> None:
    keymap = parse_keymap('Next_Turn = "!, space"\nknock-out = "ctrl+shift+k"\n', MindFlayerApp)
    assert keymap == {"next-turn": "exclamation_mark,space", "knock-out": "ctrl+shift+k"}


def test_hostile_text_in_a_keymap_is_refused_with_a_sentence() -> None:
    with pytest.raises(KeymapError, match="is not a key name"):
        parse_keymap('next_turn = "[@click=app.quit]"\n', MindFlayerApp)
    with pytest.raises(KeymapError, match="is not a key name"):
        parse_keymap('next_turn = "\\u001b[2J"\n', MindFlayerApp)


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("space", True),
        ("ctrl+s", True),
        ("f5", True),
        ("question_mark", True),
        ("minus", True),
        ("a", True),
        ("shift+up", True),
        ("spacebar", False),
        ("hyperdrive+s", False),
        ("", False),
        ("\x1b", False),
    ],
)
def test_key_names(name: str, known: bool) -> None:
    assert is_key_name(name) is known


def test_the_readme_lists_every_binding_id() -> None:
    """The README's list of ids is the one place they are typed: it must match the code."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("Ids: ") : readme.index("`next_turn` works")]
    listed = set(re.findall(r"`([a-z-]+)`", block))
    assert listed == key_reference.known_binding_ids(MindFlayerApp)
