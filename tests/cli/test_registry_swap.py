"""The keys folder's registry guards a swap of keyed ledgers: another ledger's file put where one lived is refused
by a writer, though its own key (in the same folder) verifies it; a restore is the explicit way to bring it in."""

from __future__ import annotations

import shutil
from pathlib import Path


from runtime.ledger import SqliteLedger
from tests.cli.support import banker



def two_ledgers(tmp_path):
    here, there = tmp_path / "here" / "ledger.db", tmp_path / "there" / "ledger.db"
    ids = []
    for path, name in ((here, "Alice"), (there, "Zed")):
        assert banker("cards", "enrol", name, "--db", path).exit_code == 0
        with SqliteLedger(path) as ledger:
            ids.append(ledger.store.ledger_id)
    return here, there, ids


def test_another_keyed_ledger_put_in_place_is_refused_naming_both(tmp_path):
    here, there, (ours, theirs) = two_ledgers(tmp_path)
    shutil.copyfile(there, here)
    result = banker("cards", "enrol", "Mallory", "--db", here)
    assert result.exit_code == 3, result.output
    assert ours in result.output and theirs in result.output and "banker game restore --backup" in result.output
    assert banker("cards", "list", "--db", here).exit_code == 0  # a reader still reads it
    assert banker("cards", "enrol", "Mallory", "--db", here).exit_code == 3  # and it stays refused


def test_a_new_ledger_where_one_was_deleted_is_fine(tmp_path):
    here, _, _ = two_ledgers(tmp_path)
    here.unlink()
    assert banker("cards", "enrol", "Carol", "--db", here).exit_code == 0
    assert banker("cards", "enrol", "Dan", "--db", here).exit_code == 0


def restore_other(tmp_path):
    here, there, ids = two_ledgers(tmp_path)
    result = banker("game", "restore", "--backup", there, "--db", here)
    assert result.exit_code == 0, result.output
    return here, ids


def test_a_restore_killed_between_its_two_notes_leaves_either_ledger_writable(tmp_path):
    """The restore admits the incoming ledger before its rename and names it alone after: a kill between the
    two leaves the old file, or the new one, accepted at the path (the crash harness kills at every call)."""
    from store.keys import Keyring

    here, there, (ours, theirs) = two_ledgers(tmp_path)
    Keyring().admit(here, theirs)                       # killed just before the rename: the old file is there
    assert banker("cards", "enrol", "Carol", "--db", here).exit_code == 0
    assert Keyring().registered(here) == ours and Keyring().incoming(here) is None   # the old one, named again
    Keyring().admit(here, theirs)
    shutil.copyfile(there, here)                        # killed just after the rename: the new file is there
    for stray in ("-wal", "-shm"):
        Path(str(here) + stray).unlink(missing_ok=True)
    assert banker("cards", "enrol", "Dora", "--db", here).exit_code == 0
    assert Keyring().registered(here) == theirs and Keyring().incoming(here) is None  # the writer finished it


def test_a_restore_of_another_ledger_then_plays_on(tmp_path):
    here, _ = restore_other(tmp_path)
    assert banker("cards", "enrol", "Carol", "--db", here).exit_code == 0


def test_a_restore_of_the_same_ledger_plays_on(tmp_path):
    here, _, _ = two_ledgers(tmp_path)
    copy = tmp_path / "copy.db"
    shutil.copyfile(here, copy)
    assert banker("cards", "enrol", "Bob", "--db", here).exit_code == 0
    assert banker("game", "restore", "--backup", copy, "--db", here).exit_code == 0
    assert banker("cards", "enrol", "Carol", "--db", here).exit_code == 0
