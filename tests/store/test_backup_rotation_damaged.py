"""A damaged file in the rotation is replaced by a whole copy (docs/backups.md), and a restore onto a ledger reached by
a symbolic link restores the file it names, the link left as it is; both verify after."""

from __future__ import annotations

import os

from banker.journal.records import Setting
from store import KEEP, SqliteStore, list_backups
from store.backups import is_kept_copy, make_backup, restore_backup


def grow(path, count, note="x"):
    with SqliteStore(path, backups=False) as store:
        for i in range(count):
            store.append(Setting(f"note-{i % 5}", note * 20))


def journal_of(path):
    with SqliteStore(path, writer=False) as reader:
        return [type(r).__name__ for r in reader.records()], reader.verify().problems


def test_a_damaged_oldest_backup_is_replaced_by_a_whole_copy(tmp_path):
    ledger = tmp_path / "ledger.db"
    grow(ledger, 3)
    for i in range(KEEP):
        grow(ledger, 1, note=str(i))
        make_backup(ledger, ledger, "interval")
    oldest = list_backups(ledger)[-1]
    when = oldest.stat().st_mtime_ns
    oldest.write_bytes(b"damaged " * 512)  # a file no longer SQLite: its id can't be read, so it goes by its name
    os.utime(oldest, ns=(when, when))  # damaged in place (the card's bits), still the oldest by its time
    grow(ledger, 2)
    new = make_backup(ledger, ledger, "interval")
    backups = [b for b in list_backups(ledger) if not is_kept_copy(b)]
    assert len(backups) == KEEP and backups[0] == new and oldest not in backups and not oldest.exists()
    assert journal_of(new) == journal_of(ledger)


def test_a_restore_through_a_symbolic_link_restores_the_file_it_names(tmp_path):
    real = tmp_path / "data" / "ledger.db"
    real.parent.mkdir()
    grow(real, 3)
    backup = make_backup(real, real, "interval")
    grow(real, 4, note="later")
    link = tmp_path / "ledger.db"
    link.symlink_to(real)
    kept = restore_backup(backup, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert journal_of(real) == journal_of(backup) and journal_of(real)[1] == []
    assert kept is not None and kept.exists()
