"""Writes kept off the key's path (store/upkeep.py): no commit runs a checkpoint; the WAL is checkpointed when the
unit is quiet and stays bounded when it never is; a backup's whole copy is made in steps while quiet, pauses while
the table plays, and still restores and verifies."""

import os
import threading
import time

from banker.journal.records import Setting
from store import KEEP, SqliteStore, list_backups
from store import upkeep
from store.backups import is_good_backup, make_backup, restore_backup
from store.upkeep import wal_frames


def ledger_file_size(store: SqliteStore) -> int:
    return os.path.getsize(store.path)


def write(store: SqliteStore, count: int, start: int = 0) -> None:
    for n in range(start, start + count):
        store.append(Setting("note", f"{n:06d} " + "x" * 80))


def test_no_commit_runs_a_checkpoint_and_a_quiet_unit_checkpoints(tmp_path):
    with SqliteStore(tmp_path / "ledger.db", backups=False) as store:
        size = ledger_file_size(store)
        write(store, 1200)  # SQLite's own checkpoint would have run inside the commit past 1,000 pages
        assert ledger_file_size(store) == size  # nothing reached the ledger file: every commit stayed in the WAL
        assert wal_frames(store.path) >= 1200
        store.maintain(quiet_for=0.0)  # a key just now: no checkpoint under the ceiling
        assert wal_frames(store.path) >= 1200 and store.wal.done == []
        store.maintain(quiet_for=5.0)  # quiet: the checkpoint, from the upkeep
        assert wal_frames(store.path) == 0 and [why for why, _ in store.wal.done] == ["idle"]
        assert ledger_file_size(store) > size
    with SqliteStore(tmp_path / "ledger.db", writer=False) as reader:
        assert reader.last_seq() == 1200 and reader.verify().ok


def test_the_wal_stays_bounded_when_the_unit_is_never_quiet(tmp_path, monkeypatch):
    monkeypatch.setattr(upkeep, "CEILING_FRAMES", 300)
    monkeypatch.setattr(upkeep, "HARD_FRAMES", 600)
    monkeypatch.setattr(upkeep, "CHECK_EVERY", 16)
    path = tmp_path / "ledger.db"
    with SqliteStore(path, backups=False) as store:
        most = 0
        for n in range(20):  # a key every moment: each tick's upkeep hears "0 s quiet"
            write(store, 50, n * 50)
            store.maintain(quiet_for=0.0)
            most = max(most, wal_frames(store.path))
        assert {why for why, _ in store.wal.done} == {"ceiling"}
        assert most < 300 + 100
        for n in range(20):  # and with no upkeep at all (a long script): the commit checkpoints past HARD_FRAMES
            write(store, 100, 1000 + n * 100)
            most = max(most, wal_frames(store.path))
        assert "hard" in {why for why, _ in store.wal.done}
        assert most < 600 + 16 * 3
        assert (tmp_path / "ledger.db-wal").stat().st_size < (600 + 16 * 3 + 10) * (1024 + 24)
    with SqliteStore(path, writer=False) as reader:
        assert reader.last_seq() == 3000 and reader.verify().ok


def test_a_clean_close_still_checkpoints_and_removes_the_wal(tmp_path):
    with SqliteStore(tmp_path / "ledger.db", backups=False) as store:
        write(store, 200)
    assert not (tmp_path / "ledger.db-wal").exists()


def test_a_whole_copy_made_in_steps_restores_and_verifies(tmp_path, monkeypatch):
    monkeypatch.setattr(upkeep, "ROWS_PER_STEP", 100)
    path = tmp_path / "ledger.db"
    steps = []
    with SqliteStore(path, backups=False) as store:
        write(store, 1050)
        made = make_backup(path, path, "interval", gate=lambda: steps.append(1))
        head = store.head()
        write(store, 30, 2000)
    assert len(steps) == 11  # 1,050 rows (and the chain's start) a hundred at a time
    assert is_good_backup(made)
    with SqliteStore(made, writer=False) as copy:
        assert copy.last_seq() == 1050 and copy.head() == head
    restore_backup(made, path)
    with SqliteStore(path) as store:
        assert store.last_seq() == 1050 and store.verify().ok


def test_backups_made_in_steps_fill_the_rotation_then_are_brought_forward(tmp_path, monkeypatch):
    monkeypatch.setattr(upkeep, "ROWS_PER_STEP", 50)
    path = tmp_path / "ledger.db"
    with SqliteStore(path, backup_interval=0) as store:
        for n in range(KEEP + 2):
            write(store, 120, n * 120)
            store.maintain()
            store.backups.wait()
            assert store.backup_error is None
        newest = list_backups(path)[0]
        assert len(list_backups(path)) == KEEP and all(is_good_backup(b) for b in list_backups(path))
        with SqliteStore(newest, writer=False) as copy:
            assert copy.last_seq() == store.last_seq()


def test_a_whole_copy_waits_while_the_table_plays_and_finishes_once_quiet(tmp_path, monkeypatch):
    monkeypatch.setattr(upkeep, "ROWS_PER_STEP", 100)
    path = tmp_path / "ledger.db"
    with SqliteStore(path, backup_interval=0) as store:
        write(store, 500)
        store.maintain(quiet_for=0.0)  # a key just now: no backup starts
        assert not store.backups.running and not list_backups(path)
        store.backups.start("interval", store.last_seq())  # started anyway (a new game's): the copy waits
        done = threading.Event()
        threading.Thread(target=lambda: (store.backups.wait(), done.set()), daemon=True).start()
        time.sleep(0.5)
        paused = not done.is_set()
        write(store, 20, 1000)  # play goes on meanwhile
        store.quiet.seen(3.0)  # quiet again: it goes on and finishes
        assert done.wait(10)
        assert store.backup_error is None
    assert paused
    latest = list_backups(path)[0]
    assert is_good_backup(latest)
    with SqliteStore(latest, writer=False) as copy:
        assert copy.last_seq() >= 500 and copy.verify().ok


def test_the_unit_checkpoints_once_left_alone_never_while_keys_come(tmp_path):
    from runtime.ledger import open_ledger
    from tests.conftest import Table

    with open_ledger(tmp_path / "ledger.db") as ledger:
        table = Table(ledger)
        table.enrol("Alice", "A1")
        table.insert("left", "Alice")
        for _ in range(40):
            table.type("1M")
            table.wait(0.5)  # the next payment soon after: never quiet for long
        assert wal_frames(ledger.store.path) >= upkeep.IDLE_FRAMES and ledger.store.wal.done == []
        table.wait(2.5)
        assert [why for why, _ in ledger.store.wal.done] == ["idle"] and wal_frames(ledger.store.path) == 0
