"""The cheaper formatting and sums behind the long-history speed-ups give the same text.

`clock_text` replaces `strftime` (several times slower) in the exports and the
history report; `rules.winners_of` lets a series be summed once. Each must say
exactly what the slow form said, for any zone and tie.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from moderator.domain import rules
from moderator.storage.records import clock_text

MOMENTS = (
    datetime(2026, 3, 29, 0, 59, 59, tzinfo=UTC),
    datetime(2026, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
    datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=timezone(timedelta(hours=-5))),
)
ZONES = (UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-11)), None)


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("zone", ZONES)
def test_clock_text_is_what_strftime_says(moment: datetime, zone: timezone | None) -> None:
    shifted = moment.astimezone(zone)
    assert clock_text(moment, zone) == shifted.strftime("%Y-%m-%d %H:%M:%S")
    assert clock_text(moment, zone, seconds=False) == shifted.strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    "games",
    [
        [{"Ann": 2, "bob": 5}, {"Ann": 3, "bob": 0}, {"Ann": 0, "Bob": 0}],
        [{"zed": 4, "Amy": 1, "amy": 3}, {"zed": 0, "Amy": 3, "amy": 1}, {"zed": 0}],
        [{"Émile": 1, "emile": 1}, {"Émile": 0}, {"emile": 0}],
        [{"Ann": 1}, {"Ann": 1}],
        [{}, {}, {}],
    ],
)
def test_winners_of_the_summed_totals_are_the_series_winners(games: list[dict[str, int]]) -> None:
    totals = rules.series_totals(games)
    expected = tuple(s.name for s in rules.standings(games) if s.rank == 1)
    expected = expected if rules.series_complete(len(games)) else ()
    assert rules.winners_of(totals, len(games)) == expected
    assert rules.series_winners(games) == expected
