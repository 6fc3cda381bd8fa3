"""Temporary files are never followed through a symlink, and what killed copies left is cleaned at the next backup."""

import os
import time

import pytest

from store.backups import backup_folder, clean_stale_files, make_backup
from store.keys import key_folder, write_private
from tests.crash.world import played


def test_a_planted_symlink_under_a_temporary_name_is_never_written_through(tmp_path, monkeypatch):
    target = tmp_path / "victim"
    target.write_text("keep")
    monkeypatch.setattr("secrets.token_hex", lambda n: "cafe")
    os.symlink(target, tmp_path / f".x.anchor.{os.getpid()}.cafe.tmp")
    with pytest.raises(OSError):
        write_private(tmp_path / "x.anchor", b"{}")
    assert target.read_text() == "keep" and not (tmp_path / "x.anchor").exists()


def test_partial_copies_left_by_killed_processes_are_removed_at_the_next_backup(tmp_path, monkeypatch):
    world = played(tmp_path / "w")
    monkeypatch.setenv("BANKER_KEY_DIR", str(world.keys))
    old = time.time() - 3600
    stale = [world.folder / ".ledger.db.restoring", backup_folder(world.ledger) / ".ledger-1-new-game.db.partial",
             key_folder() / ".abc.anchor.999999999.1234.tmp"]
    for path in stale:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"x" * 1000)
        os.utime(path, (old, old))
    fresh = backup_folder(world.ledger) / ".ledger-2-interval.db.partial"
    fresh.write_bytes(b"under way")
    make_backup(world.ledger, world.ledger, "interval")
    assert not any(p.exists() for p in stale)
    assert fresh.exists()  # newer than this process: a copy under way is never taken away
    assert clean_stale_files(world.ledger) == []


def stale_files(world) -> list:
    old = time.time() - 3600
    stale = [world.folder / ".ledger.db.restoring", world.folder / ".ledger.db.adopting-wal",
             world.folder / "..ledger.db.adopting.partial", backup_folder(world.ledger) / ".ledger-1-new-game.db.partial",
             world.keys / ".abc.anchor.999999999.1234.tmp", world.keys / ".abc.key.999999999.99ab.tmp"]
    for path in stale:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"x" * 1000)
        os.utime(path, (old, old))
    return stale


def test_what_killed_copies_left_is_removed_at_every_open_of_a_writer_not_by_a_reader(tmp_path):
    from runtime.ledger import open_ledger
    from store.keys import Keyring

    world = played(tmp_path / "w")
    stale = stale_files(world)
    staged = world.keys / "abc.key.adopting"  # an adoption cut short: the next one finishes with it
    staged.write_text("00" * 32)
    os.utime(staged, (time.time() - 3600,) * 2)
    with open_ledger(world.ledger, writer=False, keyring=Keyring(world.keys)):
        pass
    assert all(p.exists() for p in stale)  # a reader holds no lock: it removes nothing
    with open_ledger(world.ledger, keyring=Keyring(world.keys), backups=False):
        pass
    assert not any(p.exists() for p in stale)
    assert staged.exists()


def test_restore_latest_again_never_brings_back_the_copy_the_first_restore_kept(tmp_path):
    from store.backups import list_backups
    from tests.crash.harness import journal
    from tests.crash.world import banker

    world = played(tmp_path / "w", after_backup=True)
    played_rows = journal(world.ledger)
    latest = list_backups(world.ledger)[0]
    assert "restored" in banker(world, "game", "restore", "--backup", "latest")
    restored = journal(world.ledger)
    assert restored == journal(latest) != played_rows
    banker(world, "game", "restore", "--backup", "latest")  # the kept copy is now the newest file: passed over
    assert journal(world.ledger) == restored
    listing = banker(world, "game", "backups").splitlines()
    kept = [line for line in listing if "before-restore" in line]
    assert len(kept) == 2 and all("(kept by a restore" in line for line in kept)
    assert not any("(kept" in line for line in listing if "before-restore" not in line)
    first_kept = sorted(line.split()[2] for line in kept)[0]  # the ledger as played, restorable by name
    banker(world, "game", "restore", "--backup", first_kept)
    assert journal(world.ledger) == played_rows
