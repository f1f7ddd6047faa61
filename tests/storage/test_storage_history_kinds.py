"""The flat history's memos give the object path's bytes (issue 15 item 13, under 0.5 s).

`history_rows` numbers each outcome as shown (a kind); the report, the CSV, the
JSON and the BG Stats plays make each kind's text once, as a format string with
the ids and times left as fields, and the players' stats count each kind of
series once, times how often it was played (`history_tally`). Local times are
worked out once per UTC hour (`history_clock.LocalClocks`). Each must write what
the object path writes: for series played again and again with the same
results, with names that look like format fields, and in zones whose offset is
not whole hours or changes within the history.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.history_report.output import replayed_output, row_output
from moderator.storage import Store
from moderator.storage.history_clock import LocalClocks, local_clock
from moderator.storage.records import clock_text, time_from_text, time_to_text
from tests.storage.test_storage_history_rows import ALL, outputs

#: Names a format string would read as fields, or choke on.
BRACED = ("{0}", "}{", "{{x}}", "{name!r:>9}")


#: Each game's possessed seats, first player and knocked-out seats (None: all but two).
Teams = Sequence[tuple[tuple[int, ...], int, tuple[int, ...] | None]]
TEAMS: Teams = (((0,), 0, None), ((1,), 1, None), ((0, 1), 2, None))


def same_series(
    store: Store,
    roster: Sequence[str],
    times: int,
    points: Sequence[int] = (0, 1, 2, 3, 4),
    teams: Teams = TEAMS,
) -> None:
    """`times` series of `roster` with the same results each time: one kind of series."""
    for _ in range(times):
        series = store.new_series()
        for possessed, first, knocked_out in teams:
            game = store.new_game(series, roster, first)
            for seat in range(2, len(roster)) if knocked_out is None else knocked_out:
                game.record(PlayerKnockedOut(seat))
            game.record(ResultsDeclared(possessed, tuple(points[: len(roster)])))


def renamed_series(store: Store, times: int) -> None:
    """`times` series where Dee is Hal from game 2 on (the same renames each time)."""
    for _ in range(times):
        series = store.new_series()
        for number, roster in enumerate((ROSTER, [*ROSTER[:3], "Hal"], [*ROSTER[:3], "Hal"])):
            renames = {"Dee": "Hal"} if number == 1 else None
            game = store.new_game(series, roster, number, renames=renames)
            for seat in (2, 3):
                game.record(PlayerKnockedOut(seat))
            game.record(ResultsDeclared((number % 2,), (1, 2, 3, 0)))


ROSTER = ["Ann", "Bob", "Cyd", "Dee"]
#: No points for anyone: games told apart only by their winning team, or their teams.
NONE = (0, 0, 0, 0)


@pytest.fixture
def repeated_dir(store: Store, data_dir: Path) -> Path:
    """Kinds of series played several times each, told apart by one thing at a time."""
    same_series(store, ROSTER, 5)
    same_series(store, ["Ann", "Bob", "Eve", "Dee", "Fay"], 3)  # Ann, Bob, Dee in both kinds
    same_series(store, ROSTER, 2)
    same_series(store, ROSTER, 2, points=(3, 1, 2, 0))  # other points
    same_series(store, ROSTER, 2, teams=[(possessed, 3, None) for possessed, _, _ in TEAMS])
    same_series(store, ["Ann", "Bob", "Cyd", "Gus"], 2)  # one name
    same_series(store, ROSTER, 2, NONE, [((2, 3), 0, (0, 1))] * 3)  # the Possessed win
    same_series(store, ROSTER, 2, NONE, [((2, 3), 0, (2, 3))] * 3)  # the Sane win
    same_series(store, ROSTER, 2, NONE, [((2,), 0, (2, 3))] * 3)  # who is possessed
    renamed_series(store, 3)  # games 2 and 3 are of a series with renames, but not renamed
    same_series(store, ["Ann", "Bob", "Cyd", "Ivy"], 2)  # kinds met after those
    same_series(store, list(BRACED), 3)
    store.close()
    return data_dir


def test_series_played_again_and_again_read_as_the_object_path_reads_them(
    repeated_dir: Path,
) -> None:
    rows, _ = outputs(repeated_dir, row_output)
    objects, _ = outputs(repeated_dir, replayed_output)
    for wanted, new, old in zip(ALL, rows, objects, strict=True):
        assert new == old, wanted
    players = {line["name"]: line for line in json.loads(rows[2].json)["players"]}
    # Each kind's counts times its number of series: Ann played 5 + 3 + 8 * 2 + 3, Hal 3.
    names = ("Ann", "Cyd", "Eve", "Gus", "Hal", "Dee", "}{")
    played = [players[name]["series_played"] for name in names]
    assert played == [27, 24, 3, 2, 3, 20, 3]
    assert players["Ann"]["games_played"] == 81
    assert "{name!r:>9}" in rows[0].report and '"}{"' in rows[2].json and "{{x}}" in rows[1].csv


def test_the_same_kind_reads_its_own_ids_and_times(repeated_dir: Path) -> None:
    """A kind's text is made once: every series of it still shows its own id and times."""
    csv_text = outputs(repeated_dir, row_output)[0][1].csv
    series_ids = {line.split(",")[0] for line in csv_text.splitlines()[1:]}
    game_ids = {line.split(",")[3] for line in csv_text.splitlines()[1:]}
    assert series_ids == {str(n) for n in range(1, 31)}
    assert game_ids == {str(n) for n in range(1, 91)}


@pytest.fixture
def zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The process's local zone set to `request.param` (POSIX `tzset`), and back."""
    if not hasattr(time, "tzset"):
        pytest.skip("time.tzset is POSIX-only: the local zone cannot be switched here")
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


#: Whole hours with a change to or from daylight saving time (Berlin, New York), a
#: half-hour zone (Kolkata), a half-hour zone with changes (St John's), a zone whose
#: daylight saving time is half an hour (Lord Howe), one 45 minutes off (Chatham), and
#: (a POSIX rule) whole hours with changes at half past: within a UTC hour.
ZONES = (
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kolkata",
    "America/St_Johns",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "XST-1XDT,M3.5.0/2:30,M10.5.0/3:30",
)
#: Every quarter of an hour (and a second before each), through the changes of 2026.
CHANGES = (datetime(2026, 3, 7, tzinfo=UTC), datetime(2026, 4, 7, tzinfo=UTC))
AUTUMN = (datetime(2026, 9, 25, tzinfo=UTC), datetime(2026, 11, 3, tzinfo=UTC))


def moments() -> Iterator[str]:
    for start, end in (CHANGES, AUTUMN):
        moment = start
        while moment < end:
            yield time_to_text(moment)
            yield time_to_text(moment - timedelta(seconds=1))
            yield time_to_text(moment + timedelta(minutes=7, seconds=31, microseconds=999_999))
            moment += timedelta(minutes=15)
    yield time_to_text(datetime(1969, 12, 31, 23, 59, 59, 750_000, tzinfo=UTC))
    yield time_to_text(datetime(1970, 1, 1, 0, 59, 59, tzinfo=UTC))


@pytest.mark.parametrize("zone", ZONES, indirect=True)
def test_local_times_by_the_hour_are_clock_texts_in_every_zone(zone: str) -> None:
    with_seconds, minutes = LocalClocks(), LocalClocks(seconds=False)
    for text in moments():
        moment = time_from_text(text)
        assert with_seconds[text] == clock_text(moment, None) == local_clock(text), (zone, text)
        assert minutes[text] == clock_text(moment, None, seconds=False), (zone, text)


@pytest.mark.parametrize("zone", ZONES[:1], indirect=True)
def test_a_history_across_a_change_of_offset_reads_as_the_object_path_reads_it(
    zone: str, tmp_path: Path
) -> None:
    """Games just before and after Berlin's spring change, in the report and the plays."""
    data_dir = tmp_path / "zoned"
    moment = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # 01:30 CET; 02:00 UTC is 04:00 CEST

    def clock() -> datetime:
        nonlocal moment
        moment += timedelta(minutes=13)
        return moment

    with Store.open(data_dir, clock=clock) as store:
        same_series(store, ["Ann", "Bob", "Cyd", "Dee"], 3)
    rows, _ = outputs(data_dir, row_output)
    objects, _ = outputs(data_dir, replayed_output)
    assert rows == objects
    assert "2026-03-29 02:" not in rows[0].report  # that local hour did not exist
    assert "2026-03-29 01:" in rows[0].report and "2026-03-29 03:" in rows[0].report
