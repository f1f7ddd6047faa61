"""The setup voice script speaks the rules' checklist, the one the screen shows (issue 18 item 3).

The screen words `domain.setup_checklist` in code; each language's setup.toml
words it through placeholders. For every player count and language both state
the same numbers, and a user's script that writes a count itself ("Take 2 Mind
Flayer cards") is refused with its file and line, and the shipped one is used.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from user_scripts import user_scripts

from moderator.domain.rules import MAX_PLAYERS, MIN_PLAYERS
from moderator.domain.setup_checklist import setup_checklist
from moderator.narration.scripts.library import Line, ScriptLibrary, shipped_scripts_dir
from moderator.narration.scripts.steps import ScriptError
from moderator.narration.scripts.validation import parse_script
from moderator.narration.settings import VoiceSettings
from moderator.tui.screens.checklist_text import checklist
from tests.stated_numbers import numbers

SHIPPED = shipped_scripts_dir()
LANGUAGES = ("en", "fr", "de", "es")
PLAYERS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
#: The smallest setup script that says every count it must.
MINIMAL = """\
[[step]]
say = "Deal {mind_flayer} Mind Flayer and {waffle} Waffle cards."

[[step]]
when = "cards_back_in_box"
say = "Put the {back_in_box} cards back."
"""


def spoken(library: ScriptLibrary, players: int, lang: str) -> str:
    """Every line the setup script says for `players`, joined."""
    actions = library.actions("setup", {"players": players}, VoiceSettings(lang=lang)) or []
    return " ".join(action.text for action in actions if isinstance(action, Line))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", PLAYERS)
def test_the_screen_and_the_voice_state_the_same_counts(players: int, lang: str) -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    assert library.warnings == []
    screen, voice = checklist(players), spoken(library, players, lang)
    assert numbers(screen) == numbers(voice), (screen, voice)
    expected = setup_checklist(players)
    stated = [str(expected.players), str(expected.mind_flayer), str(expected.waffle)]
    assert sorted([*stated, *expected.back_in_box]) == numbers(voice)


def shipped_with(lang: str, old: str, new: str) -> str:
    """The shipped setup script of `lang` with one line's words changed."""
    text = (SHIPPED / lang / "setup.toml").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


def line_of(text: str, words: str) -> int:
    """The 1-based line of `text` holding `words`."""
    return next(number for number, line in enumerate(text.splitlines(), 1) if words in line)


def test_a_user_script_writing_a_count_is_refused_and_the_shipped_one_used(
    tmp_path: Path,
) -> None:
    wrong = "Take 2 Mind Flayer cards. And Waffle cards: {waffle}."
    text = shipped_with(
        "en", "Take Mind Flayer cards: {mind_flayer}. And Waffle cards: {waffle}.", wrong
    )
    user = user_scripts(tmp_path, {"en/setup.toml": text})
    library = ScriptLibrary.load(user, SHIPPED)
    path = user / "en" / "setup.toml"
    line = line_of(text, wrong)
    assert library.warnings == [
        f'Voice script refused (falling back): {path}:{line}: this line writes the number "2" '
        "itself; the setup's numbers come from the rules (as on the setup screen): write one of "
        "{players}, {character_tiles}, {mind_flayer}, {waffle}, {back_in_box} where the number goes"
    ]
    script, _ = library.scripts[("en", "setup")]
    assert script.source == SHIPPED / "en" / "setup.toml"
    assert "Mind Flayer cards: 3." in spoken(library, 9, "en")


def test_a_french_symbol_written_in_the_line_is_refused(tmp_path: Path) -> None:
    """ "6+" in the words would be said at 6 to 8 players too, when only 9+ goes back."""
    text = shipped_with("fr", "les symboles {back_in_box}", "les symboles 6+ {back_in_box}")
    user = user_scripts(tmp_path, {"fr/setup.toml": text})
    library = ScriptLibrary.load(user, SHIPPED)
    (warning,) = library.warnings
    assert f'setup.toml:{line_of(text, "symboles 6+")}: this line writes the number "6+"' in warning
    assert library.scripts[("fr", "setup")][0].source == SHIPPED / "fr" / "setup.toml"


@pytest.mark.parametrize(
    ("words", "number"),
    [
        ("Take ３ cards.", "３"),
        ("Half: ½.", "½"),
        ("Ⅲ cards.", "Ⅲ"),
        ("Literal {{3}} braces.", "3"),
    ],
)
def test_a_number_in_any_script_of_digits_is_refused(words: str, number: str) -> None:
    with pytest.raises(ScriptError) as caught:
        parse_script("setup", f'{MINIMAL}\n[[step]]\nsay = "{words}"\n', Path("setup.toml"))
    (problem,) = caught.value.problems
    assert problem.line == 9
    assert f'writes the number "{number}"' in problem.message


def test_the_minimal_script_is_accepted_and_speaks_the_rules() -> None:
    script = parse_script("setup", MINIMAL, Path("setup.toml"))
    assert len(script.steps) == 2


@pytest.mark.parametrize(
    ("script", "meaning"),
    [
        (MINIMAL.replace("{mind_flayer}", "some"), "how many Mind Flayer cards to deal"),
        (MINIMAL.replace("{waffle}", "the"), "how many Waffle cards to deal"),
        (MINIMAL.replace("{back_in_box}", "odd"), "which player symbols go back in the box"),
        (
            MINIMAL.replace('when = "cards_back_in_box"', 'when = "reveal"'),
            "which player symbols go back in the box",
        ),
        (
            '[[step]]\nwhen = "reveal"\n' + MINIMAL.removeprefix("[[step]]\n"),
            "how many Mind Flayer cards to deal",
        ),
    ],
    ids=["no-mind-flayer", "no-waffle", "no-symbols", "symbols-under-reveal", "roles-under-reveal"],
)
def test_a_setup_script_that_leaves_a_count_out_is_refused(script: str, meaning: str) -> None:
    with pytest.raises(ScriptError) as caught:
        parse_script("setup", script, Path("setup.toml"))
    messages = [problem.message for problem in caught.value.problems]
    assert any(message.startswith(f"no line says {meaning}: add {{") for message in messages), (
        messages
    )


def test_other_scripts_may_still_write_numbers() -> None:
    """Only the setup's numbers are the rules' counts: a turn line may say "Player 1"."""
    script = parse_script("turn", '[[step]]\nsay = "Turn 1: {player}."\n', Path("turn.toml"))
    assert len(script.steps) == 1
