"""The banker's PIN can't be taken back with the file: it is kept beside the anchor, outside the ledger.

A journal that is not the one anchored (an older copy put back, a file deleted or damaged, another
ledger's file) can't choose the PIN that lets the banker accept or restore it, nor forget the wrong tries
made against it (found by review, issue 23).
"""

from __future__ import annotations

import shutil
from pathlib import Path


from tests.cli.support import banker

PAY = "insert left Alice\ninsert right Bob\npress 5 M\nremove left\nremove right\n"



def a_ledger_whose_pin_came_later(tmp_path: Path) -> tuple[Path, Path]:
    """A ledger with a PIN and a payment, and a copy of it from before the PIN was set."""
    db, before = tmp_path / "ledger.db", tmp_path / "before-the-pin.db"
    for name in ("Alice", "Bob"):
        assert banker("cards", "enrol", name, "--db", db).exit_code == 0
    shutil.copyfile(db, before)
    assert banker("pin", "set", "--new", "1234", "--db", db).exit_code == 0
    (tmp_path / "pay.kps").write_text(PAY)
    assert banker("script", tmp_path / "pay.kps", "--db", db).exit_code == 0
    return db, before


def put_back(copy: Path, db: Path) -> None:
    shutil.copyfile(copy, db)
    for stray in ("-wal", "-shm"):
        Path(str(db) + stray).unlink(missing_ok=True)


def test_a_copy_from_before_the_pin_cant_be_accepted_without_it(tmp_path):
    db, before = a_ledger_whose_pin_came_later(tmp_path)
    put_back(before, db)
    refused = banker("ledger", "accept", "--db", db)
    assert refused.exit_code == 4 and "PIN" in refused.output
    assert banker("ledger", "accept", "--pin", "0000", "--db", db).exit_code == 4
    assert banker("ledger", "accept", "--pin", "1234", "--db", db).exit_code == 0


def test_putting_the_copy_back_again_forgets_no_wrong_try(tmp_path):
    db, before = a_ledger_whose_pin_came_later(tmp_path)
    put_back(before, db)
    for wrong in ("0000", "1111", "2222"):
        assert banker("ledger", "accept", "--pin", wrong, "--db", db).exit_code == 4
    put_back(before, db)                                  # the wrong tries' rows are gone with the file ...
    locked = banker("ledger", "accept", "--pin", "1234", "--db", db)
    assert locked.exit_code == 4 and "locked" in locked.output   # ... but not from beside the anchor


def test_a_deleted_ledger_cant_be_restored_from_an_old_copy_without_the_pin(tmp_path):
    db, before = a_ledger_whose_pin_came_later(tmp_path)
    for gone in ("", "-wal", "-shm"):
        Path(str(db) + gone).unlink(missing_ok=True)
    refused = banker("game", "restore", "--backup", before, "--db", db)
    assert refused.exit_code == 4 and "PIN" in refused.output and not db.exists()
    assert banker("game", "restore", "--backup", before, "--pin", "1234", "--db", db).exit_code == 0


def test_a_damaged_ledger_likewise(tmp_path):
    db, before = a_ledger_whose_pin_came_later(tmp_path)
    db.write_bytes(b"garbage" * 100)
    refused = banker("game", "restore", "--backup", before, "--db", db)
    assert refused.exit_code == 4 and "PIN" in refused.output


def test_guessing_the_pin_by_restoring_onto_new_paths_locks(tmp_path):
    db, _ = a_ledger_whose_pin_came_later(tmp_path)
    for n, wrong in enumerate(("0000", "1111", "2222")):
        result = banker("game", "restore", "--backup", db, "--pin", wrong, "--db", tmp_path / f"fresh{n}.db")
        assert result.exit_code == 4
    locked = banker("game", "restore", "--backup", db, "--pin", "1234", "--db", tmp_path / "fresh.db")
    assert locked.exit_code == 4 and "locked" in locked.output
