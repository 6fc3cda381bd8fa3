"""The rotation keeps what docs/backups.md says: the newest 5 backups and the newest 5 copies a restore kept, however
many an earlier release or a full stick left; journals left beside no backup are removed."""

from __future__ import annotations

import os
import shutil

from banker.journal.records import Setting
from store import KEEP, SqliteStore, list_backups
from store.backups import KEPT_SUFFIX, backup_folder, is_kept_copy, make_backup


def grow(path, count):
    with SqliteStore(path, backups=False) as store:
        for i in range(count):
            store.append(Setting(f"note-{i % 5}", "x" * 20))


def test_the_newest_five_of_each_are_kept_oldest_removed_first(tmp_path):
    ledger = tmp_path / "ledger.db"
    grow(ledger, 4)
    folder = backup_folder(ledger)
    folder.mkdir()
    planted = []
    for i in range(KEEP + 3):  # whole copies an earlier release left, more than the rotation holds
        backup = folder / f"ledger-20250101-1200{i:02d}-000000000-interval.db"
        shutil.copy(ledger, backup)
        os.utime(backup, ns=(10**18 + i * 10**9,) * 2)
        planted.append(backup)
    kept = []
    for i in range(KEEP + 2):
        copy = folder / f"ledger-20250101-1300{i:02d}-000000000{KEPT_SUFFIX}"
        shutil.copy(ledger, copy)
        os.utime(copy, ns=(10**18 + i * 10**9,) * 2)
        kept.append(copy)
    orphan = folder / "ledger-20240101-000000-000000000-interval.db-journal"
    orphan.write_bytes(b"left by a kill between the two unlinks")
    grow(ledger, 2)
    new = make_backup(ledger, ledger, "interval")
    listed = list_backups(ledger)
    backups = [b for b in listed if not is_kept_copy(b)]
    copies = [b for b in listed if is_kept_copy(b)]
    assert len(backups) == KEEP and backups[0] == new
    assert backups[1:] == planted[::-1][:KEEP - 1]  # the oldest brought forward into the new one, 3 more gone
    assert copies == kept[::-1][:KEEP]  # restore's copies are never brought forward; the oldest go
    assert not orphan.exists()
    assert not any(p.exists() for p in planted[:4]) and not any(p.exists() for p in kept[:2])
