"""Every row of the rulebook's setup table and its end-of-game and scoring rules."""

from __future__ import annotations

import pytest

from moderator.domain import IllegalAction, Team, rules, setup_for

# players: (Mind Flayer role cards, Waffle role cards, back in the box, reveal)
SETUP_TABLE = {
    4: (1, 3, ("6+", "9+"), False),
    5: (1, 4, ("6+", "9+"), False),
    6: (2, 4, ("9+",), True),
    7: (2, 5, ("9+",), True),
    8: (2, 6, ("9+",), True),
    9: (3, 6, (), True),
    10: (3, 7, (), True),
}


@pytest.mark.parametrize("players", sorted(SETUP_TABLE))
def test_setup_row_matches_the_rulebook(players: int) -> None:
    mind_flayer, waffle, back_in_box, reveal = SETUP_TABLE[players]
    setup = setup_for(players)
    assert setup.players == players
    assert setup.mind_flayer == mind_flayer
    assert setup.waffle == waffle
    assert setup.mind_flayer + setup.waffle == players, "one role card per player"
    assert setup.back_in_box == back_in_box
    assert setup.reveal is reveal


@pytest.mark.parametrize("players", [-1, 0, 3, 11, 100])
def test_out_of_range_player_counts_are_refused_with_a_sentence(players: int) -> None:
    with pytest.raises(IllegalAction, match=r"4 to 10 players"):
        setup_for(players)


@pytest.mark.parametrize(
    ("in_play", "meetings", "ends"),
    [
        (10, 0, False),
        (3, 2, False),
        (2, 0, True),
        (1, 0, True),
        (5, 3, True),
        (5, 2, False),
    ],
)
def test_game_should_end(in_play: int, meetings: int, ends: bool) -> None:
    assert rules.game_should_end(in_play, meetings) is ends


def test_sane_win_while_one_sane_player_is_in_play() -> None:
    assert rules.winning_team(possessed={0, 1}, in_play={1, 2}) is Team.SANE


def test_possessed_win_when_no_sane_player_is_in_play() -> None:
    assert rules.winning_team(possessed={0, 1}, in_play={0, 1}) is Team.POSSESSED
    # All Sane knocked out, only a Possessed player left.
    assert rules.winning_team(possessed={3}, in_play={3}) is Team.POSSESSED


def test_points_go_to_the_whole_winning_team_with_waffles() -> None:
    # Seats 0 and 3 Possessed; Sane win; seat 2 holds 2 Waffles, seat 3 holds 4.
    pts = rules.points(4, possessed={0, 3}, waffles=[0, 1, 2, 4], winner=Team.SANE)
    assert pts == (0, 2, 3, 0)
    pts = rules.points(4, possessed={0, 3}, waffles=[0, 1, 2, 4], winner=Team.POSSESSED)
    assert pts == (1, 0, 0, 5)


def test_series_standings_share_ranks_on_ties() -> None:
    games = [{"Ann": 2, "Bob": 0, "Cy": 1}, {"Ann": 0, "Bob": 3, "Cy": 1}]
    table = rules.standings(games)
    assert [(s.name, s.total, s.rank) for s in table] == [
        ("Bob", 3, 1),
        ("Ann", 2, 2),
        ("Cy", 2, 2),
    ]


def test_series_has_no_winner_before_the_third_game() -> None:
    assert rules.series_winners([{"Ann": 2}, {"Ann": 1}]) == ()


def test_series_winner_after_three_games() -> None:
    games = [{"Ann": 2, "Bob": 0}, {"Ann": 1, "Bob": 1}, {"Ann": 0, "Bob": 1}]
    assert rules.series_winners(games) == ("Ann",)


def test_tied_series_has_co_winners() -> None:
    games = [{"Ann": 2, "Bob": 0, "Cy": 0}, {"Ann": 0, "Bob": 2, "Cy": 1}, {"Ann": 1, "Bob": 1}]
    assert set(rules.series_winners(games)) == {"Ann", "Bob"}
