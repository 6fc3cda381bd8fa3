"""The keys folder's damaged and unwritable files: each refused with a message naming the file, never a traceback."""

from __future__ import annotations

import json
import os
import stat

import pytest

from banker.errors import LedgerError
from store.keys import DAMAGED, KEY_BYTES, Keyring, private_folder

LEDGER = "abc123"


@pytest.fixture
def ring(tmp_path):
    folder = tmp_path / "keys"
    private_folder(folder)
    return Keyring(folder)


@pytest.fixture
def blocked(tmp_path):
    """A keys folder that can't be made: a plain file stands where its parent would be (root can't write it)."""
    (tmp_path / "plain").write_text("not a folder")
    return Keyring(tmp_path / "plain" / "keys")


def write(ring, name, data: bytes, mode=0o600):
    path = ring.folder / name
    path.write_bytes(data)
    os.chmod(path, mode)
    return path


@pytest.mark.parametrize("data", [b"zz" * KEY_BYTES, b"ab" * (KEY_BYTES - 1), b""])
def test_a_damaged_key_file_is_named(ring, data):
    path = write(ring, f"{LEDGER}.key", data + b"\n")
    with pytest.raises(LedgerError, match=f"the ledger's key {path} is damaged"):
        ring.key(LEDGER)


def test_a_key_file_that_is_not_text_is_named(ring):
    path = write(ring, f"{LEDGER}.key", b"\xff\xfe" * 32)
    with pytest.raises(LedgerError, match=f"cannot read the ledger's key {path}"):
        ring.key(LEDGER)


def test_a_key_file_open_to_others_is_made_private_and_read(ring):
    key = bytes(range(KEY_BYTES))
    path = write(ring, f"{LEDGER}.key", key.hex().encode() + b"\n", mode=0o644)
    os.chmod(ring.folder, 0o755)
    assert ring.key(LEDGER) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(ring.folder.stat().st_mode) == 0o700


def test_a_key_folder_is_made_with_its_missing_parents_private(tmp_path):
    folder = tmp_path / "a" / "b" / "keys"
    private_folder(folder)
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o700 for p in (tmp_path / "a", tmp_path / "a" / "b", folder))


def test_a_ledger_id_that_is_not_one_is_refused(ring):
    with pytest.raises(LedgerError, match="not a ledger id: '../x'"):
        ring.key("../x")


def test_a_key_of_the_wrong_length_or_a_different_one_is_never_kept(ring):
    with pytest.raises(LedgerError, match=f"a ledger's key is {KEY_BYTES} bytes, not 3"):
        ring.import_key(LEDGER, b"abc")
    key = ring.new_key(LEDGER)
    assert ring.import_key(LEDGER, key) is False  # already kept
    with pytest.raises(LedgerError, match="a different key is kept for ledger abc123 .*never overwritten"):
        ring.import_key(LEDGER, bytes(KEY_BYTES))
    assert ring.key(LEDGER) == key


def test_a_keys_folder_that_cannot_be_made_is_named_by_each_write(blocked, tmp_path):
    where = str(blocked.folder)
    with pytest.raises(LedgerError, match=f"cannot keep the ledger's key in {where}"):
        blocked.new_key(LEDGER)
    with pytest.raises(LedgerError, match=f"cannot anchor the ledger's head in {where}"):
        blocked.set_anchor(LEDGER, 3, "ab" * 32)
    with pytest.raises(LedgerError, match=f"cannot keep the banker's PIN beside the anchor in {where}"):
        blocked.keep_authority(LEDGER, None, ())
    with pytest.raises(LedgerError, match=f"cannot note the ledger in {where}/ledgers.json"):
        blocked.register(str(tmp_path / "l.db"), LEDGER)
    with pytest.raises(LedgerError, match=f"cannot keep the ledger's key in {where}"):
        blocked.commit_staged(LEDGER)


def test_a_staged_key_that_is_damaged_is_none_and_the_advice_says_copy_the_key(ring):
    write(ring, f"{LEDGER}.key.adopting", b"\xff not hex")
    assert ring.staged_key(LEDGER) is None
    assert ring.missing_key_advice(LEDGER).startswith("Copy its .key file there")
    write(ring, f"{LEDGER}.key.adopting", b"ab" * 5)
    assert ring.staged_key(LEDGER) is None
    write(ring, f"{LEDGER}.key.adopting", b"ab" * KEY_BYTES)
    assert ring.staged_key(LEDGER) == bytes([0xAB]) * KEY_BYTES
    assert "was cut short" in ring.missing_key_advice(LEDGER)
    ring.commit_staged(LEDGER)
    assert ring.key(LEDGER) == bytes([0xAB]) * KEY_BYTES and ring.staged_key(LEDGER) is None


@pytest.mark.parametrize("text", ["[1, 2]", '{"verifier": 3, "failures": []}', '{"verifier": null, "failures": 1}',
                                  "{broken", "[" * 100_000])
def test_a_damaged_pin_file_keeps_nothing(ring, text):
    write(ring, f"{LEDGER}.pin", text.encode())
    assert ring.kept_authority(LEDGER) is None


def test_the_kept_wrong_tries_are_the_last_32_plausible_times(ring):
    failures = [-1, "x", True, 1e12] + [float(t) for t in range(40)]
    write(ring, f"{LEDGER}.pin", json.dumps({"verifier": "v", "failures": failures}).encode())
    verifier, kept = ring.kept_authority(LEDGER)
    assert verifier == "v" and kept == tuple(float(t) for t in range(8, 40))


@pytest.mark.parametrize("data", [b"\xff\xfe", b"not json", b"[0]", b'{"seq": 1.5, "hash": ""}'])
def test_a_damaged_anchor_reads_as_damaged(ring, data):
    write(ring, f"{LEDGER}.anchor", data)
    assert ring.anchor(LEDGER) == DAMAGED


@pytest.mark.parametrize("text, why", [("{broken", "is damaged \\("), ("[1]", "is damaged;")])
def test_a_damaged_list_of_ledgers_is_named_with_what_to_do(ring, text, why, tmp_path):
    path = write(ring, "ledgers.json", text.encode())
    with pytest.raises(LedgerError, match=f"the list of known ledgers {path} {why}.*move it aside"):
        ring.registered(str(tmp_path / "l.db"))


def test_the_list_of_ledgers_passes_over_entries_that_are_not_ids(ring, tmp_path):
    write(ring, "ledgers.json", json.dumps({str(tmp_path / "a.db"): "abc", str(tmp_path / "b.db"): "../x",
                                            str(tmp_path / "c.db"): 7}).encode())
    assert ring.registered(tmp_path / "a.db") == "abc"
    assert ring.registered(tmp_path / "b.db") is None and ring.registered(tmp_path / "c.db") is None
    ring.register(tmp_path / "a.db", "abc")  # already so: not written again
    ring.admit(tmp_path / "a.db", "def")
    assert ring.incoming(tmp_path / "a.db") == "def"
    ring.register(tmp_path / "a.db", "def")
    assert ring.registered(tmp_path / "a.db") == "def" and ring.incoming(tmp_path / "a.db") is None
