"""The setup checklist, produced once from the rules (issue 18 item 3).

The table of `DESIGN.md` ("Rules as data"), itself the rulebook's Setup: a
Character tile per player, the Adventure cards put back by player symbol, the
Mind Flayer and Waffle role cards (one per player), the reveal from 6 players.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from moderator.domain import IllegalAction
from moderator.domain.setup_checklist import COUNT_FIELDS, SYMBOLS_FIELD, Check, setup_checklist
from tests.domain.test_rules import SETUP_TABLE

#: players: (Mind Flayer, Waffle, symbols back in the box, reveal), the rulebook's table.
RULEBOOK = SETUP_TABLE


@pytest.mark.parametrize("players", sorted(RULEBOOK))
def test_the_checklist_holds_the_rulebook_counts(players: int) -> None:
    mind_flayer, waffle, back, reveal = RULEBOOK[players]
    checklist = setup_checklist(players)
    assert checklist.counts == {
        "players": players,
        "character_tiles": players,
        "mind_flayer": mind_flayer,
        "waffle": waffle,
    }
    assert checklist.back_in_box == back
    assert checklist.flags == {"reveal": reveal, "cards_back_in_box": bool(back)}
    assert checklist.mind_flayer + checklist.waffle == players, "one role card per player"


def test_the_checks_follow_the_rulebook_order() -> None:
    assert setup_checklist(4).checks == (
        Check.PLAYERS,
        Check.CHARACTER_TILES,
        Check.ADVENTURE_CARDS,
        Check.ROLE_CARDS,
        Check.REVEAL,
        Check.FIRST_PLAYER,
    )


def test_every_count_has_a_placeholder_name() -> None:
    """The script's placeholders are the checklist's fields: nothing else to keep in step."""
    checklist = setup_checklist(7)
    assert set(checklist.counts) == set(COUNT_FIELDS)
    assert hasattr(checklist, SYMBOLS_FIELD)


@pytest.mark.parametrize("players", [0, 3, 11, -1])
def test_no_checklist_outside_the_player_counts(players: int) -> None:
    with pytest.raises(IllegalAction, match="4 to 10 players"):
        setup_checklist(players)


def test_the_checklist_imports_no_ui_or_io() -> None:
    code = (
        "import sys, moderator.domain.setup_checklist;"
        "print(','.join(m for m in ('textual', 'rich', 'pyttsx3', 'sqlite3') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == ""
