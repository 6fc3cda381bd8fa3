"""The ledgers' keys live in the XDG state folder; the config folder earlier releases kept them in is moved there
once, never overwriting a key, and still used when it can't be moved."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from store.keys import Keyring, key_folder
from tests.cli.support import a_ledger, banker

PIN = "2468"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user with no $BANKER_KEY_DIR: XDG folders of the test's own; ``old``/``new`` the two keys folders."""
    monkeypatch.delenv("BANKER_KEY_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return {"old": tmp_path / "config" / "monopoly-banker" / "keys",
            "new": tmp_path / "state" / "monopoly-banker" / "keys", "tmp": tmp_path}


def an_old_release_ledger(home, name: str = "ledger.db") -> tuple[Path, dict[str, bytes]]:
    """A ledger with the banker's PIN whose key, anchor and PIN lie in the old place, as an earlier release left
    them; and those files' bytes."""
    os.environ["BANKER_KEY_DIR"] = str(home["old"])  # where an earlier release put them
    try:
        db = a_ledger(home["tmp"], name, pin=PIN)
    finally:
        del os.environ["BANKER_KEY_DIR"]
    return db, {p.name: p.read_bytes() for p in home["old"].iterdir()}


def folder_print(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.iterdir()}


def test_new_keys_go_to_the_state_folder(home):
    assert key_folder() == home["new"]
    Keyring().new_key("abc123")
    assert (home["new"] / "abc123.key").stat().st_mode & 0o777 == 0o600
    assert not home["old"].exists()


def test_a_key_in_the_old_place_is_moved_once_and_still_works(home):
    db, files = an_old_release_ledger(home)
    exported = banker("key", "export", "-o", home["tmp"] / "key.txt", "--db", db)
    assert exported.exit_code == 0, exported.output
    ledger_id = next(name for name in files if name.endswith(".key")).removesuffix(".key")
    key = files[f"{ledger_id}.key"].decode().strip()
    assert (home["tmp"] / "key.txt").read_text().strip().endswith(f"{ledger_id}:{key}")  # the old key, found
    assert not home["old"].exists()
    assert {p.name: p.read_bytes() for p in home["new"].iterdir()} == files  # every file, unchanged
    assert home["new"].stat().st_mode & 0o777 == 0o700
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in home["new"].iterdir())
    enrolled = banker("cards", "enrol", "Zed", "--uid", "0A0B", "--pin", PIN, "--db", db)  # the PIN'd ledger opens
    assert enrolled.exit_code == 0, enrolled.output
    assert banker("ledger", "verify", "--db", db).exit_code == 0
    moved = folder_print(home["new"])
    assert banker("cards", "list", "--db", db).exit_code == 0  # a second run: nothing moves
    assert folder_print(home["new"]) == moved and not home["old"].exists()


def test_both_places_are_merged_never_overwriting_and_a_difference_is_said(home, caplog):
    db, files = an_old_release_ledger(home)
    ledger_id = next(name for name in files if name.endswith(".key")).removesuffix(".key")
    home["new"].mkdir(parents=True, mode=0o700)
    other = Keyring(home["new"])
    other.new_key("other1")
    other.register(home["tmp"] / "other.db", "other1")
    (home["old"] / "clash1.key").write_text("a" * 64 + "\n")
    (home["new"] / "clash1.key").write_text("b" * 64 + "\n")
    (home["old"] / "other1.key").write_bytes((home["new"] / "other1.key").read_bytes())  # a copy a kill left
    with caplog.at_level(logging.WARNING, logger="banker.keys"):
        assert key_folder() == home["new"]
    assert (home["new"] / f"{ledger_id}.key").read_bytes() == files[f"{ledger_id}.key"]
    assert (home["new"] / f"{ledger_id}.anchor").read_bytes() == files[f"{ledger_id}.anchor"]
    assert (home["new"] / "clash1.key").read_text() == "b" * 64 + "\n"  # never overwritten
    assert sorted(p.name for p in home["old"].iterdir()) == ["clash1.key"]  # kept where it was
    assert "still holds clash1.key: it differs" in caplog.text and "never overwrites" in caplog.text
    registry = json.loads((home["new"] / "ledgers.json").read_text())
    assert set(registry.values()) == {ledger_id, "other1"}  # both folders' ledgers known
    assert banker("key", "export", "-o", home["tmp"] / "key.txt", "--db", db).exit_code == 0


def test_the_old_place_is_used_when_the_move_cant_be_made(home, caplog):
    db, files = an_old_release_ledger(home)
    (home["tmp"] / "state").write_text("not a folder")  # the state folder can't be made
    with caplog.at_level(logging.WARNING, logger="banker.keys"):
        assert key_folder() == home["old"]
    assert "stay in" in caplog.text and str(home["old"]) in caplog.text
    exported = banker("key", "export", "-o", home["tmp"] / "key.txt", "--db", db)
    assert exported.exit_code == 0, exported.output
    assert {p.name: p.read_bytes() for p in home["old"].iterdir()} == files


def test_a_key_folder_the_environment_names_moves_nothing(home, monkeypatch):
    an_old_release_ledger(home)
    monkeypatch.setenv("BANKER_KEY_DIR", str(home["tmp"] / "elsewhere"))
    assert key_folder() == home["tmp"] / "elsewhere"
    assert home["old"].is_dir() and not home["new"].exists()
