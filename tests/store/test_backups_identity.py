"""A backup is its ledger's: a restore verifies the whole chain it brings in, and the rotation, the listing and
``--backup latest`` go by the ledger id inside each file, never by its name."""

import os
import shutil
import sqlite3
import time
from pathlib import Path

from click.testing import CliRunner

from banker_cli.main import cli
from store import KEEP, latest_good_backup, list_backups
from store.backups import make_backup
from tests.crash.harness import World, verify
from tests.crash.world import banker, played


def rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, body, hash FROM journal ORDER BY seq").fetchall()
    finally:
        conn.close()


def run(world: World, *args: str):
    return CliRunner(env={"BANKER_KEY_DIR": str(world.keys)}).invoke(cli, [*args, "--db", str(world.ledger)])


def test_a_backup_edited_inside_is_refused_by_a_restore_while_its_key_is_here(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    backup = list_backups(world.ledger)[0]
    conn = sqlite3.connect(backup)
    with conn:  # Bob's 1M to the bank (a row in the middle of the chain) tripled, its hash left as it was
        changed = conn.execute("UPDATE journal SET body = replace(body, '1000000', '3000000') "
                               "WHERE kind = 'tx' AND body LIKE '%Bob paid bank%'").rowcount
    conn.close()
    assert changed
    before = rows(world.ledger)
    result = run(world, "game", "restore", "--backup", str(backup))
    assert result.exit_code == 3, result.output
    assert "doesn't verify" in result.output and "nothing was changed" in result.output
    assert rows(world.ledger) == before
    assert verify(world)[0] == 0


def test_a_whole_backup_is_still_restored(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    backup = list_backups(world.ledger)[0]
    banker(world, "game", "restore", "--backup", str(backup))
    assert rows(world.ledger) == rows(backup)
    assert verify(world)[0] == 0


def a_unit(folder: Path, stick: Path) -> World:
    """A unit of its own (its ledger, its keys) whose second backup folder is ``stick``."""
    world = played(folder)
    (folder / "banker.toml").write_text(f'[backups]\nsecond_folder = "{stick}"\n')
    return world


def test_two_ledgers_sharing_one_backup_folder_keep_their_own_backups(tmp_path):
    shared = tmp_path / "stick"
    one, two = played(tmp_path / "one"), played(tmp_path / "two")
    theirs = [make_backup(two.ledger, two.ledger, "interval", folder=shared) for _ in range(3)]
    for _ in range(KEEP + 1):
        make_backup(one.ledger, one.ledger, "new-game", folder=shared)
    assert all(path.exists() for path in theirs)  # the first unit's rotation never took the second's
    assert list_backups(two.ledger, shared) == theirs[::-1]
    assert len(list_backups(one.ledger, shared)) == KEEP
    assert not set(list_backups(one.ledger, shared)) & set(theirs)


def test_latest_passes_over_another_ledgers_file_named_as_a_backup(tmp_path):
    world, stranger = played(tmp_path / "w", after_backup=True), played(tmp_path / "other")
    ours = latest_good_backup(world.ledger)
    planted = ours.with_name(ours.name.replace("-new-game", "9-interval"))
    shutil.copyfile(stranger.ledger, planted)
    os.utime(planted, (time.time() + 60,) * 2)  # the newest in the folder
    assert latest_good_backup(world.ledger) == ours
    assert planted not in list_backups(world.ledger)
    output = banker(world, "game", "backups")
    assert planted.name not in output and ours.name in output


def test_a_fifo_or_symlink_among_the_backups_is_never_listed_opened_or_written_through(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    ours = latest_good_backup(world.ledger)
    fifo = ours.with_name(ours.name.replace("-new-game", "8-interval"))
    os.mkfifo(fifo)
    outside = tmp_path / "outside.db"
    shutil.copyfile(ours, outside)
    before = outside.read_bytes()
    link = ours.with_name(ours.name.replace("-new-game", "7-interval"))
    link.symlink_to(outside)
    for when, path in enumerate((link, fifo)):
        os.utime(path, (time.time() + 60 + when,) * 2, follow_symlinks=False)
    assert latest_good_backup(world.ledger) == ours  # not the FIFO: no wait for a writer that never comes
    assert fifo not in list_backups(world.ledger) and link not in list_backups(world.ledger)
    for _ in range(KEEP + 1):
        make_backup(world.ledger, world.ledger, "interval")
    assert outside.read_bytes() == before  # the rotation never wrote through the link


def test_a_restore_through_a_symlinked_db_restores_the_file_it_points_to(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    backup = list_backups(world.ledger)[0]
    link = world.folder / "current.db"
    link.symlink_to(world.ledger.name)
    result = CliRunner(env={"BANKER_KEY_DIR": str(world.keys)}).invoke(
        cli, ["game", "restore", "--backup", str(backup), "--db", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and rows(world.ledger) == rows(backup)
    assert verify(world)[0] == 0
    banker(world, "game", "new")  # the chain goes on, no fork: the ledger and the link are one
    assert verify(world)[0] == 0
