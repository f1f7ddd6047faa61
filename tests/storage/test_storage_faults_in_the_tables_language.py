"""The storage's sentences in the table's language (issue 18): what the table reads.

The real store on disk in a temp folder and the real catalogs: a newer database
refusing the start (the command's stderr), another program's SQLite file and a
damaged file moved aside at start-up or by the check after the first frame (the
app's toasts, through Pilot), a save the score folder refuses (a toast), and
`mindflayer history` refusing another
program's file, each in the table's language with the path exactly as given.
`str(error)` stays the English sentence (logs, tools, the English tests).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from driving import FOUR, key, new_game, shown, until
from no_message_left import record_toasts, settled, toasts

import moderator
from moderator import i18n
from moderator.cli import build_parser, main
from moderator.domain import TurnPassed
from moderator.i18n.refusals import refusal
from moderator.storage import DATABASE_NAME, NewerDatabaseError, Store
from moderator.storage import store as store_module
from moderator.storage.schema import SCHEMA_VERSION
from moderator.tui.run import make_app, run_app
from moderator.tui.screens.table import TableScreen
from tests.storage.test_storage_deferred_check import corrupt_files, orphaned_page_database
from tests.storage.test_storage_foreign import foreign_database
from tests.storage.test_storage_unreadable import BOGUS, add_log_row
from tests.tui.app_driver import TrackedNarrator, tracked_app
from tests.tui.test_i18n_screens import speaking

#: The newer database's refusal (the app's recorded version is this one's: "a newer").
NEWER = {
    "de": "mindflayer: Die Punkte-Datenbank {path} wurde von einem neueren mindflayer-moderator "
    "geschrieben (Schemaversion {newer}); dies ist Version {version}, die höchstens "
    "Schemaversion {schema} liest. Nichts wurde geändert: Aktualisiert die App oder startet "
    "mit einem anderen --data-dir.",
    "fr": "mindflayer : La base des scores {path} a été écrite par un mindflayer-moderator plus "
    "récent (schéma version {newer}) ; celle-ci est la version {version}, qui lit au plus le "
    "schéma version {schema}. Rien n'a été modifié : mettez l'application à jour, ou lancez "
    "avec un autre --data-dir.",
}
#: Another program's SQLite file, moved aside at start-up.
FOREIGN_TOLD = {
    "de": "Die Datei {name} ist keine Mind-Flayer-Punkte-Datenbank (sie gehört einem anderen "
    "Programm). Sie bleibt unverändert als {kept} erhalten, und eine neue Punkte-Datenbank "
    "wurde angelegt.",
    "fr": "Le fichier {name} n'est pas une base des scores Mind Flayer (il appartient à un "
    "autre programme). Il est conservé intact sous le nom {kept}, et une nouvelle base des "
    "scores a été créée.",
}
#: A file that is not a database at all, moved aside at start-up.
DAMAGED_TOLD = {
    "es": "La base de puntuaciones estaba dañada (no es una base de datos SQLite). Se conserva "
    "intacta como {kept} y se ha empezado una nueva.",
    "de": "Die Punkte-Datenbank war beschädigt (sie ist keine SQLite-Datenbank). Sie bleibt "
    "unverändert als {kept} erhalten, und eine neue wurde angelegt.",
}
#: A save the score folder refuses (SQLite's own words for a read-only folder).
SAVE_REFUSED = {
    "fr": "Impossible d'enregistrer cette action (le dossier de la base des scores n'est pas "
    "accessible en écriture) : rien n'a changé, la partie est exactement comme avant. Rendez le "
    "dossier accessible en écriture ou relancez avec un autre --data-dir, puis réessayez.",
    "de": "Nicht gespeichert: diese Aktion (in den Ordner der Punkte-Datenbank kann nicht "
    "geschrieben werden), also ist nichts geschehen; das Spiel ist genau wie vorher. Macht den "
    "Ordner beschreibbar oder startet neu mit einem anderen --data-dir, dann versucht es noch "
    "einmal.",
}
#: `mindflayer history` on another program's file.
HISTORY_FOREIGN = {
    "de": "mindflayer history: Die Datei {path} ist keine Mind-Flayer-Punkte-Datenbank (sie "
    "gehört einem anderen Programm), deshalb blieb sie genau, wie sie ist. Nehmt sie aus dem "
    "Ordner oder wählt mit --data-dir einen anderen.",
    "fr": "mindflayer history : Le fichier {path} n'est pas une base des scores Mind Flayer (il "
    "appartient à un autre programme) : il a été laissé exactement tel quel. Sortez-le du "
    "dossier, ou choisissez-en un autre avec --data-dir.",
}
#: English words of the sentences these replace, which a translated table must not see.
ENGLISH = ("score database", "Nothing was changed", "kept untouched", "try again", "folder")


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """The app's data, config and cache folders (the data folder not made yet)."""
    made = {name: tmp_path / name for name in ("data", "config", "cache")}
    made["config"].mkdir()
    made["cache"].mkdir()
    return made


def newer_database(data_dir: Path) -> Path:
    """A database of ours whose schema is one version past this app's."""
    Store.open(data_dir).close()
    path = data_dir / DATABASE_NAME
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    return path


def no_english(shown: str) -> None:
    for english in ENGLISH:
        assert english not in shown, (english, shown)


@pytest.mark.parametrize("lang", sorted(NEWER))
def test_a_newer_database_refuses_the_start_in_the_tables_language(
    folders: dict[str, Path], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = newer_database(folders["data"])
    before = path.read_bytes()
    args = build_parser().parse_args(["--lang", lang, "--data-dir", str(folders["data"])])
    assert run_app(args) == 1
    err = capsys.readouterr().err
    said = NEWER[lang].format(
        path=path, newer=SCHEMA_VERSION + 1, version=moderator.__version__, schema=SCHEMA_VERSION
    )
    assert err == said + "\n"
    no_english(err.replace(str(path), ""))
    assert path.read_bytes() == before


def test_the_error_itself_stays_the_english_sentence(folders: dict[str, Path]) -> None:
    path = newer_database(folders["data"])
    i18n.use_language("de")
    with pytest.raises(NewerDatabaseError) as caught:
        Store.open(folders["data"])
    assert str(caught.value) == (
        f"The score database {path} was written by a newer mindflayer-moderator (schema "
        f"version {SCHEMA_VERSION + 1}); this is version {moderator.__version__}, which reads "
        f"schema version {SCHEMA_VERSION} at most. Nothing was changed: update the app, or "
        "start with another --data-dir."
    )
    assert refusal(caught.value) == NEWER["de"].format(
        path=path, newer=SCHEMA_VERSION + 1, version=moderator.__version__, schema=SCHEMA_VERSION
    ).removeprefix("mindflayer: ")


def kept_aside(data_dir: Path) -> Path:
    (kept,) = [path for path in data_dir.iterdir() if ".corrupt-" in path.name]
    return kept


@pytest.mark.parametrize("lang", sorted(FOREIGN_TOLD))
async def test_another_programs_file_moved_aside_is_told_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    foreign_database(folders["data"], 0)
    speaking(folders, lang)
    app, _ = tracked_app(folders)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        told = FOREIGN_TOLD[lang].format(name=DATABASE_NAME, kept=kept_aside(folders["data"]))
        assert told in toasts(app), toasts(app)
        no_english("\n".join(toasts(app)).replace(str(folders["data"]), ""))


@pytest.mark.parametrize("lang", sorted(DAMAGED_TOLD))
async def test_a_damaged_file_moved_aside_is_told_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    folders["data"].mkdir()
    (folders["data"] / DATABASE_NAME).write_bytes(b"this is not a database" * 100)
    speaking(folders, lang)
    app, _ = tracked_app(folders)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        told = DAMAGED_TOLD[lang].format(kept=kept_aside(folders["data"]))
        assert told in toasts(app), toasts(app)
        no_english("\n".join(toasts(app)).replace(str(folders["data"]), ""))


class ReadOnlyFolder(sqlite3.Connection):
    """A real connection whose COMMIT fails as SQLite's does in a folder it cannot write.

    The tests run as root, whom a read-only folder does not stop: the fault is
    injected at the commit, with SQLite's own words for it.
    """

    refuse: bool = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if ReadOnlyFolder.refuse and sql == "COMMIT":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return super().execute(sql, *args)


@pytest.mark.parametrize("lang", sorted(SAVE_REFUSED))
async def test_a_save_the_folder_refuses_is_told_in_the_tables_language(
    folders: dict[str, Path], lang: str
) -> None:
    speaking(folders, lang)
    ReadOnlyFolder.refuse = False
    store = Store.open(folders["data"], connection_factory=ReadOnlyFolder)
    app = make_app(
        folders["data"],
        folders["config"],
        folders["cache"],
        None,
        narrator=TrackedNarrator(folders["cache"]),
        store=store,
    )
    record_toasts(app)
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await new_game(pilot, FOUR)
            await shown(pilot, TableScreen)
            turn = app.controller.state.turn
            ReadOnlyFolder.refuse = True
            await key(pilot, "n")  # the next turn: refused by the folder
            said = SAVE_REFUSED[lang]
            await until(pilot, lambda: said in toasts(app), said)
            assert app.controller.state.turn == turn, "the action did not happen"
            no_english(toasts(app)[-1])
    finally:
        ReadOnlyFolder.refuse = False


@pytest.mark.parametrize("lang", sorted(HISTORY_FOREIGN))
def test_history_refuses_another_programs_file_in_the_tables_language(
    folders: dict[str, Path], lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = foreign_database(folders["data"], 1)
    assert main(["--lang", lang, "--data-dir", str(folders["data"]), "history"]) == 1
    err = capsys.readouterr().err
    assert err == HISTORY_FOREIGN[lang].format(path=path) + "\n"


async def test_the_deferred_check_tells_a_damaged_file_in_the_tables_language(
    folders: dict[str, Path],
) -> None:
    """The integrity check after the first frame (`moderator.tui.start_up`), in German."""
    orphaned_page_database(folders["data"])
    speaking(folders, "de")
    app, _ = tracked_app(folders)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: corrupt_files(folders["data"]), "the file moved aside")
        (kept,) = corrupt_files(folders["data"])
        told = f"Die beschädigte Datei bleibt unverändert als {kept} erhalten;"
        await until(pilot, lambda: any(told in message for message in toasts(app)), told)
        (notice,) = [message for message in toasts(app) if told in message]
        assert notice.startswith(
            "Die Punkte-Datenbank war beschädigt (sie hat die Integritätsprüfung nicht bestanden: "
        ), notice
        assert "Ihre 1 Partie wurde vollständig gerettet." in notice, "what came back, in German"
        no_english(notice.replace(str(folders["data"]), ""))


async def test_a_check_that_fails_unexpectedly_is_told_in_the_tables_language(
    folders: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check's own sentence for a bug in it (the bug's words are shown as they are)."""
    orphaned_page_database(folders["data"])

    def broken(conn: object) -> str | None:
        raise RuntimeError("a bug in the check")

    monkeypatch.setattr(store_module, "integrity_problem", broken)
    speaking(folders, "fr")
    app, _ = tracked_app(folders)
    said = "La base des scores n'a pas pu être vérifiée (a bug in the check)."
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: said in toasts(app), said)


async def test_an_unreadable_game_set_aside_is_told_in_the_tables_language(
    folders: dict[str, Path],
) -> None:
    """The game in progress whose log cannot be rebuilt, set aside at start-up, in French."""
    with Store.open(folders["data"]) as store:
        game = store.new_game(store.new_series(), FOUR, 0)
        game.record(TurnPassed())
        game_id = game.game_id
    add_log_row(folders["data"], game_id, 3, BOGUS)
    speaking(folders, "fr")
    app, _ = tracked_app(folders)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        path = folders["data"] / DATABASE_NAME
        (notice,) = [message for message in toasts(app) if "mise de côté" in message]
        assert notice.startswith(
            f"La partie 1 de la série 1 (id {game_id}) ne peut pas être reconstituée à partir "
            "de son journal (entrée 3 : "
        ), notice
        assert notice.endswith(
            f" : elle a donc été mise de côté. Elle est conservée exactement telle quelle dans "
            f"{path} (id de partie {game_id}), elle ne compte plus, et sa série peut continuer "
            "avec une nouvelle partie 1."
        ), notice
