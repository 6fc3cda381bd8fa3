"""Moving the old keys folder: what isn't a key file (a killed write's temporary file, a folder, a link) and a list of
ledgers that can't be merged are never taken for keys, never overwrite anything, and what stays behind is said."""

from __future__ import annotations

import json
import logging
import os

import pytest

import store.key_home
from store.key_home import move_keys, settle


@pytest.fixture
def places(tmp_path):
    old, new = tmp_path / "config" / "keys", tmp_path / "state" / "keys"
    old.mkdir(parents=True)
    new.mkdir(parents=True)
    (old / "abc.key").write_bytes(b"k" * 65)
    return old, new


def test_a_temporary_file_a_killed_write_left_is_dropped_not_moved(places):
    old, new = places
    (old / ".abc.key.tmp").write_bytes(b"half")
    assert move_keys(old, new) == []
    assert sorted(os.listdir(new)) == ["abc.key"] and not old.exists()


def test_what_is_not_a_plain_file_stays_where_it_is(places):
    old, new = places
    (old / "sub.key").mkdir()
    (old / "link.key").symlink_to(old / "nothing")
    assert move_keys(old, new) == ["link.key", "sub.key"]
    assert (new / "abc.key").read_bytes() == b"k" * 65
    assert (old / "sub.key").is_dir() and (old / "link.key").is_symlink()


def test_a_list_of_ledgers_whose_entry_differs_stays_and_the_rest_is_merged(places):
    old, new = places
    (old / "ledgers.json").write_text(json.dumps({"/a.db": "one", "/b.db": "two"}))
    (new / "ledgers.json").write_text(json.dumps({"/a.db": "other"}))
    assert move_keys(old, new) == ["ledgers.json"]
    assert json.loads((new / "ledgers.json").read_text()) == {"/a.db": "other", "/b.db": "two"}  # the new place wins


def test_a_list_of_ledgers_already_there_in_full_is_not_written_again(places):
    old, new = places
    (old / "ledgers.json").write_text(json.dumps({"/a.db": "one"}))
    (new / "ledgers.json").write_text(json.dumps({"/a.db": "one", "/b.db": "two"}))
    before = (new / "ledgers.json").stat().st_ino
    assert move_keys(old, new) == []
    assert (new / "ledgers.json").stat().st_ino == before


@pytest.mark.parametrize("damaged", [b"{broken", b"[1, 2]", b"\xff"])
def test_a_damaged_list_of_ledgers_is_kept_as_it_is(places, damaged):
    old, new = places
    (old / "ledgers.json").write_bytes(damaged)
    (new / "ledgers.json").write_text(json.dumps({"/a.db": "one"}))
    assert move_keys(old, new) == ["ledgers.json"]  # both kept: the old one where it is
    assert (old / "ledgers.json").read_bytes() == damaged
    assert json.loads((new / "ledgers.json").read_text()) == {"/a.db": "one"}


def test_a_damaged_list_of_ledgers_alone_is_moved_as_it_is(places):
    old, new = places
    (old / "ledgers.json").write_bytes(b"{broken")
    assert move_keys(old, new) == []
    assert (new / "ledgers.json").read_bytes() == b"{broken"


def test_a_move_that_cannot_be_made_leaves_the_old_folder_in_use_and_says_so(places, tmp_path, caplog, monkeypatch):
    old, _ = places
    (tmp_path / "file").write_text("a plain file where the state folder would go")
    monkeypatch.setattr(store.key_home, "_said", set())
    with caplog.at_level(logging.WARNING, logger="banker.keys"):
        assert settle(old, tmp_path / "file" / "keys") == old
        assert settle(old, tmp_path / "file" / "keys") == old
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].startswith(f"the ledgers' keys stay in {old}: they can't be moved")


def test_a_rename_refused_for_another_reason_is_raised(places, monkeypatch):
    old, new = places
    new.rmdir()

    def refused(source, target):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "rename", refused)
    with pytest.raises(PermissionError):
        move_keys(old, new)
    assert (old / "abc.key").exists()


def test_a_rename_across_file_systems_moves_file_by_file(places, monkeypatch):
    import errno

    old, new = places
    new.rmdir()

    def across(source, target):
        raise OSError(errno.EXDEV, "Invalid cross-device link")
    monkeypatch.setattr(os, "rename", across)
    assert move_keys(old, new) == []
    assert (new / "abc.key").read_bytes() == b"k" * 65 and not old.exists()
