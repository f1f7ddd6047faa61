"""`mindflayer history` in the table's language (issue 18): what a French, German or
Spanish table reads on the terminal.

A real score database on disk: a first series with names that look like
templates and markup (``{0}``, ``[/]``) and an accented one, then 333 more series
of one table, so that a player has 1,002 games and the digit groups show. The
command runs as the player runs it (`moderator.cli.main` with `--lang`, or a child
process in a German system locale) and its stdout is read. Times are the clock's
(one minute per reading from 19:00 UTC), shown in local time as the report does.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from moderator.cli import main
from moderator.domain import PlayerKnockedOut, ResultsDeclared
from moderator.history_report.text import width
from moderator.storage import Store
from tests.tui.english_words import english_on

START = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)
ODD_NAMES = ["{0}", "[/]", "Zoë", "Ann"]
TABLE = ["Ann", "Bob", "Cyd", "Dee"]
#: Ann's games: 3 in the first series, 999 in the others.
ANN_GAMES = 1002


class NoSync(sqlite3.Connection):
    """`synchronous = OFF` instead of FULL: 1,002 games without an fsync each (the bench's)."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA synchronous"):
            sql = "PRAGMA synchronous = OFF"
        return super().execute(sql, *args)


class Clock:
    """One minute per reading, from `START`: every stored time is known."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        moment = self.now
        self.now += timedelta(minutes=1)
        return moment


def play(store: Store, players: list[str]) -> None:
    """One complete series: seats 2 and 3 knocked out, seat 0 Possessed, Sane wins."""
    series = store.new_series()
    for _ in range(3):
        game = store.new_game(series, players, 0)
        game.record(PlayerKnockedOut(2))
        game.record(PlayerKnockedOut(3))
        game.record(ResultsDeclared((0,), (0, 2, 1, 0)))


@pytest.fixture(scope="module")
def history_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("history") / "data"
    with Store.open(folder, clock=Clock(), connection_factory=NoSync) as store:
        play(store, ODD_NAMES)
        for _ in range(333):
            play(store, TABLE)
    return folder


def local(minute: int, pattern: str) -> str:
    """The clock's reading number `minute` in local time, written by `pattern`."""
    return (START + timedelta(minutes=minute)).astimezone().strftime(pattern)


def history(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[str, str]:
    assert main(list(words)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def column_starts(line: str) -> set[int]:
    """Display offsets where a left-aligned cell starts (after the indent or two spaces)."""
    return {width(line[: found.start(1)]) for found in re.finditer(r"(?:^  |  )(\S)", line)}


def test_french_report_with_french_words_numbers_and_dates(
    history_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = history(capsys, "--lang", "fr", "--data-dir", str(history_dir), "history")
    assert err == ""
    # Series 1: started at the first reading, its third game ended at reading 12.
    day = "%d/%m/%Y %H:%M"
    assert out.startswith(f"Série 1 : du {local(0, day)} au {local(12, day)}. Gagnant : ")
    assert "  Joueur  Partie 1" in out and "Total" in out
    assert "2 (Sain, gagné)" in out and "0 (Possédé)" in out
    assert f"Camp gagnant : partie 1 Sain ({local(4, day)})" in out
    assert "Joueurs sur l’ensemble des séries complètes\n" in out
    assert "Parties gagnées" in out and "en Possédé" in out
    ann = next(line for line in out.splitlines()[-5:] if line.split()[0] == "Ann")
    assert "1\u202f002" in ann  # 1,002 games, grouped as French groups them
    assert english_on(out, "fr", names=[*ODD_NAMES, *TABLE]) == {}


def test_german_report_lines_up_its_long_and_accented_words(
    history_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = history(capsys, "--lang", "de", "--data-dir", str(history_dir), "history")
    lines = out.splitlines()
    assert lines[0].startswith(f"Serie 1: {local(0, '%d.%m.%Y %H:%M')} bis ")
    assert "Siegerteam: Spiel 1 Gesund (" in out and "2 (Gesund, gewonnen)" in out
    # The first series' table: each column starts where its header does, "Zoë" too.
    header, *rows = lines[1:5]
    assert header.startswith("  Spieler  Spiel 1")
    for row in rows:
        assert column_starts(header) <= column_starts(row), (header, row)
    # The players' table: numbers right-aligned, so every row ends where the widest does.
    table = lines[lines.index("Spieler über alle vollständigen Serien") + 1 :]
    assert table[0].split("  ")[1:] == [
        "Spieler",
        "Serien",
        "Serien gewonnen",
        "Spiele",
        "Spiele gewonnen",
        "Siege als Gesunde",
        "Siege als Besessene",
        "Punkte",
    ]
    assert len({width(row) for row in table}) == 1, table
    ann = next(row for row in table if row.split()[0] == "Ann")
    assert " 1.002 " in ann
    assert english_on(out, "de", names=[*ODD_NAMES, *TABLE]) == {}


def test_spanish_report_keeps_four_digits_ungrouped(
    history_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = history(capsys, "--lang", "es", "--data-dir", str(history_dir), "history")
    day = "%d/%m/%Y %H:%M"
    assert out.startswith(f"Serie 1: del {local(0, day)} al {local(12, day)}. Ganador: ")
    assert "Jugadores en todas las series completas" in out and "1 (Cuerdo, ganada)" in out
    ann = next(line for line in out.splitlines()[-5:] if line.split()[0] == "Ann")
    assert f" {ANN_GAMES} " in ann  # Spanish groups from five digits on


def test_names_that_look_like_templates_are_printed_as_typed(
    history_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = history(capsys, "--lang", "fr", "--data-dir", str(history_dir), "history")
    first = out.split("\n\n")[0].splitlines()
    cells = {line.split()[0]: line for line in first[2:-1]}
    assert set(cells) == set(ODD_NAMES)
    # Seat 0 ("{0}") is the one Possessed; "[/]" is Sane, in play, with 2 Waffles.
    assert cells["{0}"].split()[1:] == ["0", "(Possédé)"] * 3 + ["0"]
    assert cells["[/]"].split()[1:] == ["3", "(Sain,", "gagné)"] * 3 + ["9"]
    assert first[0].endswith("Gagnant : [/] (9 points)")


def test_french_export_messages(
    history_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_file, json_file, plays = tmp_path / "{0}.csv", tmp_path / "a.json", tmp_path / "p.json"
    with Store.open_read_only(history_dir) as store:
        latest = store.finished_games()[-1].finished_at.astimezone()
    out, _ = history(
        capsys,
        *("--lang", "fr", "--data-dir", str(history_dir), "history"),
        *("--csv", str(csv_file), "--json", str(json_file), "--bgstats", str(plays)),
    )
    lines = out.splitlines()
    assert lines[0] == f"334 séries complètes exportées vers {csv_file} (CSV)."
    assert lines[1] == f"334 séries complètes exportées vers {json_file} (JSON)."
    assert lines[2] == f"1\u202f002 parties exportées vers {plays} (BG Stats)."
    assert lines[3] == (
        f"Pour ajouter la dernière partie (partie 3, {latest:%d/%m/%Y %H:%M}) à "
        "BG Stats, ouvrez ce lien sur un appareil où l’application est installée :"
    )
    assert lines[4].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    # The files are data: their words stay English (docs/history-export.md).
    assert ",Sane," in csv_file.read_text(encoding="utf-8-sig")


def test_french_messages_of_an_empty_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    out, _ = history(capsys, "--lang", "fr", "--data-dir", str(data), "history")
    assert out == (
        "Aucune série complète pour l’instant : l’historique commence quand une série "
        "compte 3 parties.\n"
    )
    plays = tmp_path / "p.json"
    out, _ = history(
        capsys, "--lang", "fr", "--data-dir", str(data), "history", "--bgstats", str(plays)
    )
    assert out == (
        "Aucune partie n’a encore de résultats ; une liste de parties vide a été écrite "
        f"dans {plays}.\n"
    )


def test_the_computers_german_locale_gives_a_german_history(history_dir: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    env.update(LANG="de_DE.UTF-8", PYTHONIOENCODING="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "moderator", "--data-dir", str(history_dir), "history"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Serie 1: ")
    assert "Spieler über alle vollständigen Serien" in result.stdout


def test_a_date_pattern_with_other_directives_is_written_by_strftime() -> None:
    """A translator's pattern beyond year, month, day, hour, minute still writes the time."""
    from moderator.history_report.words import _reordered

    assert _reordered("%d/%m/%Y %H:%M", "2026-03-14 19:05") == "14/03/2026 19:05"
    assert _reordered("{%d.%m.} %% %H:%M", "2026-03-14 19:05") == "{14.03.} % 19:05"
    assert _reordered("%A %d %H:%M", "2026-03-14 19:05") == "Saturday 14 19:05"
