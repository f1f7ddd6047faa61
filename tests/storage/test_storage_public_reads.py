"""No test reads a private attribute of the store (issue 21).

Tests that look inside the database go through `Store.journal`, the documented
way in (docs/contracts.md, "Storage"), so the store can rename its insides
without breaking tests that only meant to read a row.
"""

from __future__ import annotations

import re
from pathlib import Path

from moderator.storage import Store

TESTS = Path(__file__).resolve().parents[1]
#: `store._journal`, `failing_store._lock`, `reopened._path`…: a private attribute
#: read on a name that holds a Store (by this suite's naming), or `._journal` anywhere.
PRIVATE_READ = re.compile(r"\b\w*(?:store|reopened)\._[a-z]\w*|\._journal\b")


def test_no_test_reads_a_private_attribute_of_the_store() -> None:
    here = Path(__file__).resolve()
    reads = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != here
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE_READ.search(line)
    ]
    assert reads == [], "use store.journal (docs/contracts.md) instead:\n" + "\n".join(reads)


def test_the_journal_is_the_stores_own_connection(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        series = store.new_series()
        assert store.journal.query("SELECT id FROM series") == [(series,)]
        assert store.journal.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
