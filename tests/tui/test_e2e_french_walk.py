"""A whole game in French in a real terminal at 80x24, and not one English word on it (issue 18).

The app is started as a French table starts it (the installed command, a fresh
HOME, `{"lang": "fr"}` in its settings), in tmux at 80x24: six players seated
with the setup checklist, the reveal, turns, the Help and the Settings over the
table, the three Meetings, a knock-out (its picker and its notice), the finale,
the result, the series board and the History. The walk runs once (a module
fixture) and keeps each screen as the terminal showed it; one test per screen
then looks for English words on it (tests/tui/english_words.py: the catalog's
English that French never uses), so a screen that shows English is one failing
check and the others still guard theirs.

The walk waits for each screen by its French words: by the footer's keys, or by
`said_in` (the French of a msgid as the catalog has it).

Skipped when tmux is missing, unless CI=true or MINDFLAYER_REQUIRE_SPEECH=1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.conftest import FAST_SETTINGS
from tests.tui.english_words import english_on, said_in
from tests.tui.tmux import Terminal, app_in_terminal, required_program, wait_until

pytestmark = pytest.mark.slow

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fin")
#: Proper nouns, no language's words: the players and a voice's licence ("CC BY").
PROPER = (*SIX, "CC BY")
#: The app's title, on the header's first row of every screen: checked on its own, where
#: the game's name (a proper noun the French box keeps on its cover) is no English.
TITLE = "Mind Flayer moderator"
#: A row of the notice strip starts with its bar.
NOTICE = "▌"


def last_line(screen: str) -> str:
    """The pane's last drawn line (the key bar)."""
    return screen.rstrip("\n").splitlines()[-1]


def has_notice(screen: str) -> bool:
    return any(line.startswith(NOTICE) for line in screen.splitlines())


def body_of(screen: str) -> str:
    """The screen without the title and the notice rows (each has its own check)."""
    lines = screen.splitlines()
    if lines:
        lines[0] = lines[0].replace(TITLE, "")
    return "\n".join(line for line in lines if not line.startswith(NOTICE))


def notices_of(screen: str) -> str:
    return "\n".join(line for line in screen.splitlines() if line.startswith(NOTICE))


#: A dialog's frame: its rows are what lies between the frame's sides.
FRAME = "█"
#: Dialogs over a screen that has its own check (only their frame's insides are theirs).
DIALOGS = frozenset({"history"})


def inside_frame(capture: str) -> str:
    """The rows of a dialog's frame, without the screen around it (checked on its own)."""
    return "\n".join(
        line[line.index(FRAME) + 1 : line.rindex(FRAME)]
        for line in capture.splitlines()
        if line.count(FRAME) >= 2
    )


#: Whose turn it is, over the big name: its short form at 80 columns, on one row.
YOUR_TURN = "Place 1 : à toi de jouer."


def meetings_shown(term: Terminal, done: int) -> str:
    """Wait for the table with `done` Meetings done (its header names the next); that screen."""
    return term.wait_for(f"prochaine : Réunion {done + 1} sur 3", "Place ")


def walk(term: Terminal, status_file: Path) -> dict[str, list[str]]:
    """One French game, keys as a table presses them; each screen's captures by name."""
    seen: dict[str, list[str]] = {}

    def keep(name: str, screen: str) -> None:
        seen.setdefault(name, []).append(screen)

    term.run("resize-window", "-t", term.target, "-x", "80", "-y", "24")
    start = term.wait_for("Nouvelle série (n)", "Quitter (q)")
    size = term.run("display-message", "-p", "-t", term.target, "#{pane_width}x#{pane_height}")
    assert size.strip() == "80x24"
    keep("start", start)
    keep("title", start.splitlines()[0])

    term.keys("n")
    wait_until(term, lambda s: "^s" in last_line(s) and "^r" in last_line(s), "the setup's keys")
    for name in SIX:
        term.type(name)
        term.keys("Enter")
    keep("setup", term.wait_for(f"{len(SIX)}. {SIX[-1]}", "•"))  # the checklist's rows

    term.keys("C-s")
    keep("reveal", term.wait_for("Partie 1 sur 3", "⏎"))
    term.keys("t")
    term.wait_for("Place 1 : à toi de jouer")
    keep("table", meetings_shown(term, 0))
    term.keys("F3")  # the table read aloud, in French (issue 35)
    keep("table", term.wait_for("Tour 1 : à Ann de jouer. Partie 1 sur 3."))

    term.type("?")
    keep("help", term.wait_for("Sur cet écran"))
    term.keys("Escape")
    term.wait_for("Place 1 : à toi de jouer")
    term.keys("F2")
    keep("settings", term.wait_for("Langue"))
    term.keys("Escape")
    term.wait_for("Place 1 : à toi de jouer")

    term.keys("m")
    keep("meeting", term.wait_for("Réunion 1 sur 3", "participent"))
    term.keys("Enter")
    meetings_shown(term, 1)

    term.keys("k")  # the first in play is highlighted: Ann goes out
    keep("pick", term.wait_for("1. Ann", "6. Fin", "Entrée pour choisir"))
    term.keys("Enter")
    out = wait_until(term, lambda s: "ÉLIMINÉ" in s and has_notice(s), "Ann out, said")
    keep("table", out)
    keep("notices", notices_of(out))

    for number in (2, 3):
        term.press_seen("n")  # the next turn drawn before its Meeting card
        term.keys("m")
        keep("meeting", term.wait_for(f"Réunion {number} sur 3", "participent"))
        term.keys("Enter")
        if number == 2:
            meetings_shown(term, 2)
    # After the third Meeting: the finale counts, then waits for Enter.
    keep("finale", term.wait_for(said_in("fr", "Press Enter to enter who growled."), timeout=40))

    term.keys("Enter")
    result = wait_until(term, lambda s: "^s" in last_line(s) and "6. Fin" not in s, "the result")
    keep("result", result)
    for _ in range(4):
        term.press_seen("Down")  # to Eve's row
    term.press_seen("Space")
    term.press_seen("Down")
    term.press_seen("Space")  # Eve and Fin growled
    term.keys("C-s")
    keep("series", wait_until(term, lambda s: "^s" not in last_line(s), "the series board"))

    term.keys("Escape")
    keep("resume", term.wait_for("Nouvelle série (n)", "c Reprendre"))
    term.keys("h")
    reading = "Lecture de l'historique"
    closes = said_in("fr", "Esc closes. o sorts the leaderboard; g: this table or everyone.")
    history = wait_until(term, lambda s: closes[:11] in s and reading not in s, "read")
    keep("history", history)
    term.keys("Escape")
    term.wait_for("Nouvelle série (n)")
    term.keys("q")
    assert term.wait_exit(status_file) == 0
    return seen


@pytest.fixture(scope="module")
def french_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[str]]]:
    """The walk, run once for every check of this module."""
    tmux = required_program("tmux", "tmux is not installed: the French walk needs it")
    mindflayer = Path(sys.executable).parent / "mindflayer"
    base = tmp_path_factory.mktemp("french-walk")
    settings = {**FAST_SETTINGS, "lang": "fr"}
    with app_in_terminal(tmux, mindflayer, base, settings) as (term, _data, status_file):
        yield walk(term, status_file)


@pytest.mark.parametrize(
    "screen",
    [
        "start",
        "setup",
        "reveal",
        "table",
        "help",
        "settings",
        "meeting",
        "pick",
        "finale",
        "result",
        "series",
        "history",
        "resume",
    ],
)
def test_no_english_word_on_the_screen(french_game: dict[str, list[str]], screen: str) -> None:
    found = {
        shown: english_on(
            inside_frame(capture) if screen in DIALOGS else body_of(capture), "fr", PROPER
        )
        for shown, capture in enumerate(french_game[screen])
    }
    assert not any(found.values()), found


@pytest.mark.parametrize(
    "part",
    [
        "title",
        "notices",
    ],
)
def test_no_english_word_in_the_title_or_the_notices(
    french_game: dict[str, list[str]], part: str
) -> None:
    for capture in french_game[part]:
        assert capture.strip(), f"the walk kept no {part}"
        assert not english_on(capture, "fr", (*SIX, "Mind Flayer")), capture


def test_the_table_captions_stay_on_their_row_over_the_big_name(
    french_game: dict[str, list[str]],
) -> None:
    """Whose turn and the Meetings done, each whole on the row over the big text (issue 34).

    At 80 columns the whole French sentences ("…Retourne la carte du" / "dessus.",
    "Réunions terminées :" / "0 sur 3") wrapped, their second rows running into the
    big name and the pips; the short forms fit on the caption's row.
    """
    table = french_game["table"][0]
    rows = table.splitlines()
    caption_row = next(index for index, row in enumerate(rows) if YOUR_TURN in row)
    assert caption_row == 1, rows[:4]  # right under the header
    assert "Réunions : 0 sur 3" in rows[caption_row], rows[caption_row]
    under = rows[caption_row + 1]
    for spilled in ("dessus", "sur 3", "Retourne"):
        assert spilled not in under, (spilled, under)
