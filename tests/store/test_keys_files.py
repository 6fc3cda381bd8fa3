"""Key files are 0600 in a 0700 folder (tightened when read, refused when they can't be), and their temporary
files are made exclusively, never through a planted symlink."""

from __future__ import annotations

import os

import pytest

from banker.errors import LedgerError
from store.keys import Keyring, write_private


def test_a_key_open_to_others_is_tightened_when_read(tmp_path):
    ring = Keyring(tmp_path / "keys")
    key = ring.new_key("abc123")
    path = tmp_path / "keys" / "abc123.key"
    os.chmod(path, 0o644)
    os.chmod(tmp_path / "keys", 0o755)
    assert ring.key("abc123") == key
    assert path.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "keys").stat().st_mode & 0o777 == 0o700


def test_a_key_that_cannot_be_made_private_is_refused_naming_it(tmp_path, monkeypatch):
    ring = Keyring(tmp_path / "keys")
    ring.new_key("abc123")
    path = tmp_path / "keys" / "abc123.key"
    os.chmod(path, 0o644)

    def refused(fd, mode):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refused)  # as on a FAT stick, or another owner's file
    with pytest.raises(LedgerError, match="abc123.key.*readable by others"):
        ring.key("abc123")


def test_a_key_file_that_is_a_symlink_is_refused(tmp_path):
    ring = Keyring(tmp_path / "keys")
    ring.new_key("abc123")
    (tmp_path / "keys" / "other.key").symlink_to(tmp_path / "keys" / "abc123.key")
    with pytest.raises(LedgerError, match="other.key"):
        ring.key("other")


def test_the_temporary_file_is_never_written_through_a_planted_symlink(tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    folder = tmp_path / "keys"
    folder.mkdir(mode=0o700)
    import secrets

    monkeypatch.setattr(secrets, "token_hex", lambda n: "guessed")
    (folder / f".abc.key.{os.getpid()}.guessed.tmp").symlink_to(victim)
    with pytest.raises(FileExistsError):
        write_private(folder / "abc.key", b"00")
    assert victim.read_text() == "precious"
    assert not (folder / "abc.key").exists()


def test_keys_are_written_0600(tmp_path):
    ring = Keyring(tmp_path / "keys")
    ring.new_key("abc123")
    assert (tmp_path / "keys" / "abc123.key").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in (tmp_path / "keys").iterdir()] == ["abc123.key"]  # no temporary file left
