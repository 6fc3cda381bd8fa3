"""A file that isn't a ledger this banker reads, named by `ledger verify` (exit 3, docs/cli.md) and by the store, with
nothing written to it."""

from __future__ import annotations

import sqlite3

import pytest

from banker.errors import CorruptLedger, LedgerError
from store import SqliteStore
from store.schema import APPLICATION_ID, read_snapshot, tighten, write_transaction
from tests.cli.support import a_ledger, banker


def a_file(tmp_path, *sql, application_id=APPLICATION_ID):
    path = tmp_path / "odd.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {application_id}")
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


CASES = {
    "no schema entry": (("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",), "has no 'schema' entry"),
    "a schema that is no number": (("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                                    "INSERT INTO meta VALUES ('schema', 'three')"),
                                   "has ledger schema 'three'; this banker reads 3"),
    "a later schema": (("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                        "INSERT INTO meta VALUES ('schema', '9')"), "has ledger schema 9; this banker reads 3"),
    "its tables missing": (("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                            "INSERT INTO meta VALUES ('schema', '3')"), "is not a banker ledger"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_file_that_is_not_a_ledger_this_banker_reads_is_named_by_verify(tmp_path, name):
    sql, message = CASES[name]
    path = a_file(tmp_path, *sql)
    before = path.read_bytes()
    result = banker("ledger", "verify", "--db", path)
    assert result.exit_code == 3, result.output
    assert f"{path} {message}" in result.output and "Traceback" not in result.output
    assert path.read_bytes() == before


def test_another_program_s_database_is_not_a_banker_ledger(tmp_path):
    path = a_file(tmp_path, "CREATE TABLE meta (key, value)", application_id=0)
    with pytest.raises(CorruptLedger, match=f"{path} is not a banker ledger"):
        SqliteStore(path, writer=False)


def test_an_empty_file_and_a_folder_are_named(tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    result = banker("ledger", "verify", "--db", empty)
    assert result.exit_code == 3 and f"{empty} is empty: not a banker ledger" in result.output
    folder = tmp_path / "folder.db"
    folder.mkdir()
    with pytest.raises(LedgerError, match=f"{folder} is a folder, not a ledger file"):  # the CLI: --db's exit 2
        SqliteStore(folder, backups=False)


def test_a_ledger_whose_folder_cannot_be_made_is_named(tmp_path):
    (tmp_path / "plain").write_text("a file where the folder would go")
    with pytest.raises(LedgerError, match="cannot create the ledger .*plain/sub/l.db"):
        SqliteStore(tmp_path / "plain" / "sub" / "l.db", backups=False)


def test_a_ledger_open_to_others_is_made_private(tmp_path):
    db = a_ledger(tmp_path)
    db.chmod(0o644)
    tighten(str(db))
    assert db.stat().st_mode & 0o777 == 0o600


def test_a_write_whose_connection_is_gone_still_raises_its_error_and_a_read_ends_quietly():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (x)")
    with pytest.raises(sqlite3.ProgrammingError):
        with write_transaction(conn):
            conn.execute("INSERT INTO t VALUES (1)")
            conn.close()  # the rollback can't run: SQLite drops what was not committed
            conn.execute("SELECT 1")
    other = sqlite3.connect(":memory:", isolation_level=None)
    with read_snapshot(other):
        other.execute("SELECT 1")
        other.execute("COMMIT")  # ended already: the snapshot's COMMIT finds none, and says nothing
    other.close()


def test_an_sqlite_file_with_no_tables_is_empty_not_a_ledger(tmp_path):
    path = a_file(tmp_path, "PRAGMA user_version = 1")
    result = banker("ledger", "verify", "--db", path)
    assert result.exit_code == 3 and f"{path} is empty: not a banker ledger" in result.output


def test_a_ledger_with_no_ledger_id_is_named(tmp_path):
    db = a_ledger(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM meta WHERE key = 'ledger_id'")
    conn.commit()
    conn.close()
    result = banker("ledger", "verify", "--db", db)
    assert result.exit_code == 3 and f"{db} has no ledger id" in result.output


def test_a_ledger_cut_in_half_is_named_corrupt(tmp_path):
    db = a_ledger(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = db.read_bytes()
    page = 4096
    db.write_bytes(data[:page] + b"\xff" * (len(data) - page))  # every page after the first overwritten
    result = banker("ledger", "verify", "--db", db)
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert f"{db} is corrupt or not a banker ledger" in result.output
