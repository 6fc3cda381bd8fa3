"""A backup file that can't be brought forward (not SQLite, cut or grown, another ledger's, an earlier layout) is left
as it was and answered False: the caller then makes a whole copy. A failed write leaves the backup as it was."""

from __future__ import annotations

import sqlite3

import pytest

from banker.journal.records import Setting
from store import SqliteStore
from store.backups import copy_database
from store.rotation import bring_forward, journal_of, last_shared, orphan_journals, remove, touch


def grow(path, count):
    with SqliteStore(path, backups=False) as store:
        for i in range(count):
            store.append(Setting(f"note-{i % 5}", "x" * 50))


def journal(path):
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, hash FROM journal ORDER BY seq").fetchall()
    finally:
        conn.close()


@pytest.fixture
def ledger(tmp_path):
    path = tmp_path / "ledger.db"
    grow(path, 10)
    return path


@pytest.fixture
def backup(ledger, tmp_path):
    target = tmp_path / "backups" / "ledger-1.db"
    target.parent.mkdir()
    copy_database(ledger, target)
    grow(ledger, 5)  # the ledger moves on: the backup is behind
    return target


def test_a_backup_behind_is_brought_to_the_ledger_s_head(ledger, backup):
    assert bring_forward(backup, ledger) is True
    assert journal(backup) == journal(ledger) and not journal_of(backup).exists()


def test_a_file_that_is_not_sqlite_is_not_brought_forward(ledger, tmp_path):
    other = tmp_path / "ledger-2.db"
    other.write_bytes(b"not a database at all" * 300)
    assert bring_forward(other, ledger) is False
    assert other.read_bytes() == b"not a database at all" * 300


def test_a_backup_cut_or_grown_is_not_brought_forward(ledger, backup):
    with open(backup, "ab") as f:
        f.write(b"\0" * 100)
    before = backup.read_bytes()
    assert bring_forward(backup, ledger) is False
    assert backup.read_bytes() == before


def test_a_backup_in_a_missing_folder_is_not_brought_forward(ledger, tmp_path):
    assert bring_forward(tmp_path / "nowhere" / "ledger-1.db", ledger) is False


def test_another_ledger_s_backup_is_not_brought_forward(ledger, tmp_path):
    other = tmp_path / "other.db"
    grow(other, 3)
    before = journal(other)
    assert bring_forward(other, ledger) is False
    assert journal(other) == before


@pytest.mark.parametrize("change", ["PRAGMA application_id = 7", "DROP TABLE meta",
                                    "UPDATE meta SET value = '2' WHERE key = 'schema'"])
def test_a_backup_of_another_kind_or_layout_is_not_brought_forward(ledger, backup, change):
    conn = sqlite3.connect(backup)
    conn.execute(change)
    conn.commit()
    conn.execute("VACUUM")  # the file's size is its pages' again
    conn.close()
    assert bring_forward(backup, ledger) is False


def test_a_failed_write_leaves_the_backup_as_it_was(ledger, backup, monkeypatch):
    import store.rotation

    before = journal(backup)

    def full_disk(conn):
        conn.execute("DELETE FROM main.journal")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(store.rotation, "_copy_new", full_disk)
    with pytest.raises(OSError, match="No space left"):
        bring_forward(backup, ledger)
    assert journal(backup) == before and not journal_of(backup).exists()


def test_a_backup_whose_last_entries_differ_has_them_replaced_from_the_fork(ledger, backup):
    """After a restore the ledger's journal leaves the backup's at some entry: found by bisection, the backup's rows
    after it replaced by the ledger's."""
    assert bring_forward(backup, ledger) is True  # entries 1..15 alike
    conn = sqlite3.connect(backup)
    conn.execute("UPDATE journal SET hash = ? WHERE seq > 12", ("f" * 64,))
    conn.commit()
    conn.execute("ATTACH DATABASE ? AS live", (str(ledger),))
    assert last_shared(conn, conn, "main", "live") == 12
    conn.close()
    assert bring_forward(backup, ledger) is True
    assert journal(backup) == journal(ledger)


def test_a_journal_left_beside_no_backup_is_an_orphan_and_removed_last(tmp_path):
    kept, lone = tmp_path / "ledger-1.db", tmp_path / "ledger-2.db"
    kept.write_bytes(b"x")
    journal_of(kept).write_bytes(b"j")
    journal_of(lone).write_bytes(b"j")
    assert orphan_journals(tmp_path, "ledger") == [journal_of(lone)]
    remove(kept)
    assert not kept.exists() and not journal_of(kept).exists()
    touch(tmp_path / "gone.db")  # a file gone meanwhile: nothing to do, no error
