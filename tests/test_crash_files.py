"""Temporary files are never followed through a symlink, and what killed copies left is cleaned at the next backup."""

import os
import time

import pytest

from store.backups import backup_folder, clean_stale_files, make_backup
from store.keys import key_folder, write_private
from tests.crash_world import played


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
