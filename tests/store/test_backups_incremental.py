"""Incremental backups: a backup brings the oldest of the rotation forward, writing what is new, never the ledger.

Each backup stays a whole ledger that restores and verifies on its own; a restore that made the journal fork is
followed; a file a kill left with a hot journal is passed over and mended by the next backup; old whole copies
go on working.
"""

import os
import shutil
import sqlite3
import time
from pathlib import Path

from banker.journal.records import Setting
from store import KEEP, SqliteStore, latest_good_backup, list_backups, restore_backup
from store.backups import backup_folder, copy_database, is_kept_copy, make_backup
from store.rotation import cut_short
from tests.crash.harness import World, verify
from tests.crash.world import banker, play, played


def rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, hash FROM journal ORDER BY seq").fetchall()
    finally:
        conn.close()


def grow(path: Path, count: int, note: str = "x") -> None:
    with SqliteStore(path, backups=False) as store:
        for i in range(count):
            store.append(Setting(f"note-{i % 7}", note * 200))


def written(action) -> int:
    """Bytes this process passed to write() while ``action`` ran (``wchar``, as the benchmarks count)."""
    def wchar() -> int:
        return int(dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())["wchar"])

    before = wchar()
    action()
    return wchar() - before


def fill_rotation(path):
    """The first :data:`KEEP` backups: the rotation full, each a whole copy."""
    for _ in range(KEEP):
        make_backup(path, path, "interval")


def test_a_backup_after_a_few_records_writes_them_not_the_ledger(tmp_path):
    path = tmp_path / "ledger.db"
    grow(path, 3000)
    fill_rotation(path)
    oldest = list_backups(path)[-1]
    inode = oldest.stat().st_ino
    grow(path, 20, "y")
    size = path.stat().st_size
    cost = written(lambda: make_backup(path, path, "interval"))
    newest = list_backups(path)[0]
    assert newest.stat().st_ino == inode  # the oldest, brought forward and renamed, not a new copy
    assert rows(newest) == rows(path)
    assert cost < size / 20, f"{cost} bytes written for a {size}-byte ledger"
    assert len(list_backups(path)) == KEEP


def test_every_backup_of_the_rotation_restores_and_verifies(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    for _ in range(KEEP + 2):
        banker(world, "game", "new")
        play(world, "pay.kps", "insert left Alice\npress 9 M\n")
    backups = list_backups(world.ledger)
    assert len(backups) == KEEP
    lengths = [len(rows(b)) for b in backups]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == KEEP  # newest first, each its own time
    for n, backup in enumerate(backups):
        copy = World(tmp_path / f"copy-{n}")
        shutil.copytree(world.folder, copy.folder)
        banker(copy, "game", "restore", "--backup", str(copy.folder / "backups" / backup.name))
        assert rows(copy.ledger) == rows(backup)
        code, said = verify(copy)
        assert code == 0, said


def test_a_backup_after_a_restore_follows_the_fork(tmp_path):
    path = tmp_path / "ledger.db"
    grow(path, 50)
    first = make_backup(path, path, "interval")
    grow(path, 30, "a")
    for _ in range(KEEP - 1):
        make_backup(path, path, "interval")
    ahead = rows(list_backups(path)[0])  # the newest: 30 rows the ledger will no longer have
    restore_backup(first, path)
    grow(path, 10, "b")  # a journal that leaves the old one at entry 50
    for _ in range(KEEP):
        make_backup(path, path, "interval")
        assert rows(list_backups(path)[0]) == rows(path)
    now = rows(path)
    assert len(ahead) == 80 and ahead[:50] == now[:50] and ahead[50] != now[50]
    made = [b for b in list_backups(path) if not is_kept_copy(b)]
    assert len(made) == KEEP and all(rows(b) == now for b in made)  # each back to the fork, then on to the head
    assert [rows(b) for b in list_backups(path) if is_kept_copy(b)] == [ahead]  # the restore's copy, as it was


def test_old_whole_copies_are_listed_restored_and_brought_forward(tmp_path):
    path = tmp_path / "ledger.db"
    grow(path, 40)
    folder = backup_folder(path)
    folder.mkdir(mode=0o700)
    old = copy_database(path, folder / "ledger-20240101-120000-000000001-new-game.db")  # as releases before made
    os.utime(old, (time.time() - 86400,) * 2)
    assert list_backups(path) == [old] and latest_good_backup(path) == old
    grow(path, 5, "z")
    restore_backup(old, path)
    assert len(rows(path)) == 40
    grow(path, 3, "w")
    fill_rotation(path)
    assert not old.exists() and rows(list_backups(path)[0]) == rows(path)  # the oldest, brought forward


def test_a_file_a_kill_left_with_a_hot_journal_is_passed_over_then_mended(tmp_path):
    path = tmp_path / "ledger.db"
    grow(path, 400)
    fill_rotation(path)
    victim = list_backups(path)[-1]
    good_rows = rows(victim)
    # a kill in the middle of its transaction: pages already written over, the journal holds the old ones
    conn = sqlite3.connect(victim, isolation_level=None)
    conn.execute("PRAGMA cache_size=2")
    conn.execute("BEGIN")
    conn.execute("DELETE FROM journal WHERE seq > 10")
    shutil.copyfile(victim, tmp_path / "torn.db")
    shutil.copyfile(f"{victim}-journal", tmp_path / "torn.db-journal")
    conn.execute("ROLLBACK")
    conn.close()
    os.replace(tmp_path / "torn.db-journal", f"{victim}-journal")
    os.replace(tmp_path / "torn.db", victim)
    assert cut_short(victim) and list_backups(path)[0] == victim  # its time says newest ...
    assert latest_good_backup(path) == list_backups(path)[1]  # ... but it is never taken for a good one
    listing = banker(World(tmp_path), "game", "backups")
    assert f"{victim.name}  (cut short" in listing
    assert good_rows  # the next backup rolls it back (its journal) and brings it forward
    grow(path, 2, "q")
    made = make_backup(path, path, "interval")
    assert not victim.exists() and not cut_short(made) and rows(made) == rows(path)
    assert not list(backup_folder(path).glob("*-journal")) and len(list_backups(path)) == KEEP


def test_another_ledgers_files_named_as_ours_are_left_alone_and_ours_made_whole(tmp_path):
    path, other = tmp_path / "ledger.db", tmp_path / "elsewhere" / "ledger.db"
    grow(path, 20)
    grow(other, 5)
    folder = backup_folder(path)
    folder.mkdir(mode=0o700)
    for n in range(KEEP):
        stranger = copy_database(other, folder / f"ledger-2024010{n + 1}-120000-00000000{n}-interval.db")
        os.utime(stranger, (time.time() - 86400 + n,) * 2)
    made = make_backup(path, path, "interval")
    assert rows(made) == rows(path) and list_backups(path) == [made]  # a backup is its ledger's by the id inside
    assert len(list(folder.glob("ledger-*.db"))) == KEEP + 1  # the other ledger's files are not ours to rotate


def test_another_ledgers_backups_in_the_same_folder_are_neither_listed_nor_rotated_away(tmp_path):
    from runtime.ledger import SqliteLedger
    from store.backups import latest_good_backup, list_backups, make_backup

    def a_ledger(path):
        with SqliteLedger(path, backups=False) as ledger:
            ledger.enrol("Alice", "A1B2C3")
        return path

    main, other = a_ledger(tmp_path / "ledger.db"), a_ledger(tmp_path / "ledger-2.db")
    theirs = [make_backup(other, other, "interval", keep=2) for _ in range(2)]
    ours = [make_backup(main, main, "interval", keep=2) for _ in range(3)]
    assert all(path.exists() for path in theirs)
    assert set(list_backups(main)) <= set(ours) and not set(list_backups(main)) & set(theirs)
    assert latest_good_backup(main) in ours
